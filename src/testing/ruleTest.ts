/**
 * Names every suite test after a rule of the catalogue, and decides, from the
 * rule and the target, whether it is asserted, skipped with the reason, or
 * (a field-notes rule on live) recorded as an observation instead of a failure.
 */
import type { TestInfo } from '@playwright/test';
import type { Rule, RuleCatalogue } from '../rules/Rule.ts';
import type { Target } from '../config/harnessConfig.ts';
import { markFinding } from '../reporting/findings.ts';

export interface RuleContext {
  target: Target;
  allowWrites: boolean;
  /** A signed-in user is available (always on the twin; on live when a token is configured). */
  hasToken?: boolean;
  /** The variable that allows writes on live, named in skip reasons. */
  writesVariable?: string;
  /** The variable that holds a live access token, named in skip reasons. */
  tokenVariable?: string;
}

/** Prefix for assertion messages, so a red test says which rule broke. */
export function says(rule: Rule, what: string): string {
  return `[${rule.id}] ${what}`;
}

export function ruleAnnotations(rule: Rule): { type: string; description: string }[] {
  return [
    { type: 'rule', description: rule.id },
    { type: 'spec', description: `${rule.source === 'spec' ? 'contract' : 'field notes'}: ${rule.section}` },
  ];
}

/** The rule ids a test names in its `rule` annotations (ruleAnnotations writes them). */
export function ruleIdsOf(annotations: readonly { type: string; description?: string }[]): string[] {
  return annotations.filter((a) => a.type === 'rule' && a.description).map((a) => a.description!);
}

/** Why a rule is not checked on this target, or undefined when it is. */
export function skipReason(rule: Rule, ctx: RuleContext): string | undefined {
  if (ctx.target !== 'mock' && rule.needs === 'twin') {
    return `${rule.id} needs the twin's control API (clock, suspension, faults or a webhook receiver), which a live service does not offer.`;
  }
  if (rule.writes && !ctx.allowWrites) {
    return `${rule.id} creates, changes or deletes data; set ${ctx.writesVariable ?? 'STORE_ALLOW_WRITES'}=1 to check it on live.`;
  }
  if (rule.needs === 'token' && ctx.hasToken === false) {
    return `${rule.id} needs a signed-in user; set ${ctx.tokenVariable ?? 'the access token variable'} to check it on live.`;
  }
  return undefined;
}

/** Title and details of a test named after a rule; throws for an id the catalogue lacks. */
export function ruleTestMeta(catalogue: RuleCatalogue, ruleId: string, variant: string) {
  const rule = catalogue[ruleId];
  if (!rule) throw new Error(`ruleTest: no rule ${ruleId} in the catalogue; add it to src/rules before testing it.`);
  return {
    rule,
    title: variant ? `${rule.id}: ${variant}` : rule.id,
    details: {
      annotation: ruleAnnotations(rule),
      tag: [
        rule.needs === 'twin' ? '@twin-only' : '@live-capable',
        rule.source === 'spec' ? '@contract' : '@field-notes',
        ...(rule.needs === 'token' ? ['@signed-in'] : []),
      ],
    },
  };
}

/**
 * Whether a difference from this rule on live is an observation (drift) rather
 * than a failure: rules from the field notes, and contract rules the real
 * service is known to break.
 */
export function observedOnLive(rule: Rule): boolean {
  return rule.source !== 'spec' || !!rule.knownDrift;
}

/** The `drift` annotation of a rule that differed on live: its first line, and what was expected when known. */
export function driftAnnotation(ruleId: string, message: string, knownDrift?: string): { type: string; description: string } {
  const why = knownDrift ? ` (expected: ${knownDrift})` : '';
  return { type: 'drift', description: `${ruleId}: ${message.split('\n')[0]}${why}` };
}

/**
 * Runs a rule's test body as the target requires: skipped with the reason,
 * asserted, or (a field-notes rule on live) observed: a difference becomes a
 * `drift` annotation and attachment instead of a failure.
 */
export async function runUnderRule(rule: Rule, ctx: RuleContext, testInfo: TestInfo, skip: (reason: string) => void, body: () => Promise<void>): Promise<void> {
  const reason = skipReason(rule, ctx);
  if (reason !== undefined) {
    skip(reason);
    return;
  }
  if (ctx.target === 'mock' || !observedOnLive(rule)) {
    await body();
    return;
  }
  try {
    await body();
  } catch (error) {
    // test.skip() inside the body throws to stop the test: that is a skip, not drift.
    if (testInfo.expectedStatus === 'skipped') throw error;
    const message = error instanceof Error ? error.message : String(error);
    testInfo.annotations.push(driftAnnotation(rule.id, message, rule.knownDrift));
    await testInfo.attach('drift.txt', { body: message, contentType: 'text/plain' });
    await markFinding(!!rule.knownDrift);
  }
}
