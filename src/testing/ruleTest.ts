/**
 * Names every suite test after a rule of the catalogue, and decides, from the
 * rule and the target, whether it is asserted, skipped with the reason, or
 * (a field-notes rule on live) recorded as an observation instead of a failure.
 */
import type { TestInfo, TestType } from '@playwright/test';
import type { Rule, RuleCatalogue } from '../rules/Rule.ts';
import type { Target } from '../config/harnessConfig.ts';

export interface RuleContext {
  target: Target;
  allowWrites: boolean;
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

/** Why a rule is not checked on this target, or undefined when it is. */
export function skipReason(rule: Rule, ctx: RuleContext): string | undefined {
  if (ctx.target !== 'mock' && rule.needs === 'twin') {
    return `${rule.id} needs the twin's control API (clock, suspension, faults or a webhook receiver), which a live service does not offer.`;
  }
  if (rule.writes && !ctx.allowWrites) {
    return `${rule.id} creates, changes or deletes data; set STORE_ALLOW_WRITES=1 to check it on live.`;
  }
  return undefined;
}

/**
 * Declares `rule id — variant` tests on a fixture-extended Playwright test.
 * `contextOf` reads the target from the test's fixtures.
 */
export function ruleTestFor<F extends object>(
  test: TestType<F & { ruleContext: RuleContext }, object>,
  catalogue: RuleCatalogue,
) {
  function ruleTest(
    ruleId: string,
    variant: string,
    body: (args: F & { ruleContext: RuleContext; rule: Rule }, testInfo: TestInfo) => Promise<void>,
  ): void {
    const rule = catalogue[ruleId];
    if (!rule) throw new Error(`ruleTest: no rule ${ruleId} in the catalogue; add it to src/rules before testing it.`);
    const title = variant ? `${rule.id}: ${variant}` : rule.id;
    const tag = [rule.needs === 'twin' ? '@twin-only' : '@live-capable', rule.source === 'spec' ? '@contract' : '@field-notes'];
    test(title, { annotation: ruleAnnotations(rule), tag }, async (args, testInfo) => {
      const ctx = (args as { ruleContext: RuleContext }).ruleContext;
      const reason = skipReason(rule, ctx);
      test.skip(reason !== undefined, reason);
      if (ctx.target !== 'mock' && rule.source === 'field-notes') {
        // Beyond the contract: on live a difference is drift to report, not a failure.
        try {
          await body({ ...(args as F & { ruleContext: RuleContext }), rule }, testInfo);
        } catch (error) {
          testInfo.annotations.push({ type: 'drift', description: `${rule.id}: ${(error as Error).message.split('\n')[0]}` });
          await testInfo.attach('drift.txt', { body: (error as Error).message, contentType: 'text/plain' });
        }
        return;
      }
      await body({ ...(args as F & { ruleContext: RuleContext }), rule }, testInfo);
    });
  }
  return ruleTest;
}
