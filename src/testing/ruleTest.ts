/**
 * Names every suite test after a rule of the catalogue, and decides, from the
 * rule and the target, whether it is asserted, skipped with the reason, or
 * (a field-notes rule on live) recorded as an observation instead of a failure.
 */
// Playwright's own test, for test.skip in a running test (alike for every test type): the harness's test would close
// an import circle, since harnessTest.ts labels each test from the rule annotations this file writes and reads.
// eslint-disable-next-line no-restricted-imports -- test.skip only; no test is declared here
import { test as playwrightTest, type TestInfo } from '@playwright/test';
import { failsOnEveryTarget, ruleKind, type Rule, type RuleCatalogue } from '../rules/Rule.ts';
import type { RuleId } from '../rules/catalogues.ts';
import { usesRecordings, type Target } from '../config/harnessConfig.ts';
import { markFinding } from '../reporting/findings.ts';
import { redactText } from '../http/redact.ts';
import type { Outage } from '../http/providerOutage.ts';
import { notVerifiedForOutage } from './providerUnreachable.ts';

export interface RuleContext {
  target: Target;
  allowWrites: boolean;
  /** A signed-in user is available (always on the twin; on live when a token is configured). */
  hasToken?: boolean;
  /** The variable that allows writes on live, named in skip reasons. */
  writesVariable?: string;
  /** The variable that holds a live access token, named in skip reasons. */
  tokenVariable?: string;
  /** Secrets of this target (tokens): redacted from a failure's message before it reaches a report, whatever the provider echoed. */
  secrets?: readonly string[];
  /**
   * Why the test could not do its work on a real provider: a write refused in a shape the field notes quote (a sandbox
   * at one of its limits, src/schemas/fieldNotesShapes.ts); a test that then fails is not verified, with this reason.
   */
  refusedInFieldNotesShape?: () => string | undefined;
  /**
   * The outage the test's requests met (src/http/providerOutage.ts): its provider stopped answering, so the test is
   * not verified, with that reason, whether its body failed or not; never a failure.
   */
  providerUnreachable?: () => Outage | undefined;
}

/** The annotation of a test that checks several rules and could not verify one of them (its precondition unmet). */
export const NOT_VERIFIED = 'not-verified';

/**
 * The annotation (and, with `.txt`, the attachment) of an observation: on a real provider (live,
 * record, replay) a rule's check found a difference that is reported, never failed: a field-notes
 * rule that differs from the twin's documented choice, or a contract rule's known defect.
 */
export const OBSERVATION = 'observation';

/**
 * Marks one of a passing test's rules as not verified by it, with the reason: the
 * rule coverage counts that rule as skipped for this test, never as passed.
 */
export function notVerified(testInfo: TestInfo, ruleId: RuleId, reason: string): void {
  testInfo.annotations.push({ type: NOT_VERIFIED, description: `${ruleId}: ${reason}` });
}

/** The reason a skipped test gives when the provider's data does not meet what its check needs. */
export function unmetPrecondition(rule: Rule, what: string): string {
  return `${rule.id} ${unmetPreconditionText(what)}`;
}

export function unmetPreconditionText(what: string): string {
  return `not verified: it needs ${what}, which the provider's data does not have. Arrange it in the sandbox (or run with the API's write flag where the test can arrange it) to verify it.`;
}

/**
 * States what a test's check needs to mean anything ("a non-empty collection",
 * "at least 31 products"). Met: the test goes on. Unmet on the twins, whose seed
 * is ours: a failure, since the twin should have it. Unmet on a real provider:
 * the test is skipped naming the precondition, never passed over empty data.
 */
export function precondition(rule: Rule, target: Target, met: boolean, what: string): void {
  if (met) return;
  if (target === 'twin') throw new Error(says(rule, `the twin does not meet the precondition: ${what}`));
  playwrightTest.skip(true, unmetPrecondition(rule, what));
}

/**
 * A rule a check found broken, its message starting with the rule id as `says` writes it.
 * `observation`: on a real provider it is an observation (a field-notes rule, or a verdict only
 * the field notes or ASSUMPTIONS.md decide), reported, never a failure.
 */
export class RuleBroken extends Error {
  readonly ruleId: RuleId;
  readonly detail: string;
  readonly observation: boolean;

  constructor(ruleId: RuleId, detail: string, observation = false) {
    super(`[${ruleId}] ${detail}`);
    this.name = 'RuleBroken';
    this.ruleId = ruleId;
    this.detail = detail;
    this.observation = observation;
  }
}

/** Throws RuleBroken: what a property's checks call where a suite test would `expect(..., says(rule, ...))`. */
export function broken(ruleId: RuleId, detail: string, observation = false): never {
  throw new RuleBroken(ruleId, detail, observation);
}

/** Prefix for assertion messages, so a red test says which rule broke. */
export function says(rule: Rule, what: string): string {
  return `[${rule.id}] ${what}`;
}

export function ruleAnnotations(rule: Rule): { type: string; description: string }[] {
  return [
    { type: 'rule', description: rule.id },
    { type: 'spec', description: `${ruleKind(rule)}: ${rule.section}` },
  ];
}

/** The rule ids a test names in its `rule` annotations (ruleAnnotations writes them). */
export function ruleIdsOf(annotations: readonly { type: string; description?: string }[]): string[] {
  return annotations.filter((a) => a.type === 'rule' && a.description).map((a) => a.description!);
}

const RULE_ID = /^[a-z]+(\.[a-z0-9-]+){2,}$/;

/** The rule ids of a test: its `rule` annotations, else the rule id its title starts with (`store.x.y: ...`). */
export function rulesOfTest(title: string, annotations: readonly { type: string; description?: string }[]): string[] {
  const annotated = [...new Set(ruleIdsOf(annotations))];
  if (annotated.length > 0) return annotated;
  const prefix = title.split(':')[0]!.trim();
  return RULE_ID.test(prefix) ? [prefix] : [];
}

/** Why a rule that needs the twin's control API is not checked elsewhere. */
function needsTwinReason(rule: Rule): string {
  return `${rule.id} needs the twin's control API (clock, suspension, faults or a webhook receiver), which a live service does not offer.`;
}

/** Why a rule is not checked on this target, or undefined when it is. */
export function skipReason(rule: Rule, ctx: RuleContext): string | undefined {
  if (ctx.target !== 'twin' && rule.needs === 'twin') return needsTwinReason(rule);
  if (rule.writes && !ctx.allowWrites) {
    return `${rule.id} creates, changes or deletes data; set ${ctx.writesVariable ?? 'STORE_ALLOW_WRITES'}=1 to check it on live.`;
  }
  if (rule.needs === 'token' && ctx.hasToken === false) {
    return `${rule.id} needs a signed-in user; set ${ctx.tokenVariable ?? 'the access token variable'} to check it on live.`;
  }
  return undefined;
}

/** What one test of a rule does beyond the rule itself. */
export interface TestOptions {
  /**
   * This test sends a POST, PUT, PATCH or DELETE although its rule does not need one (a probe the
   * provider should refuse): on live it is skipped without the API's write flag, since a provider
   * that does not refuse would write. The transport refuses such a request anyway.
   */
  readonly writes?: boolean;
  /**
   * This test of a rule observable on live needs what only the twin arranges (its clock, a second
   * store, a second seeded user): tagged @twin-only, and skipped on every other target with this reason.
   */
  readonly needsTwin?: string;
  /**
   * This test is checked on live and on the twins but not on record and replay (what it asks is not
   * in a recording, e.g. another origin): tagged @not-recorded, and skipped there with this reason.
   */
  readonly notRecorded?: string;
}

/** Why a test's own options keep it from this target (TestOptions), or undefined. */
function variantSkipReason(options: TestOptions, target: Target): string | undefined {
  if (options.needsTwin && target !== 'twin') return options.needsTwin;
  if (options.notRecorded && usesRecordings(target)) return options.notRecorded;
  return undefined;
}

/**
 * Why the target alone keeps a rule's test from running (the test or its rule needs the twin; a recording cannot hold
 * it), or undefined: the same reason, in the same order, as the running test would give (variantSkipReason, skipReason).
 */
export function targetSkipReason(rule: Rule, options: TestOptions, target: Target): string | undefined {
  return variantSkipReason(options, target) ?? (target !== 'twin' && rule.needs === 'twin' ? needsTwinReason(rule) : undefined);
}

/** Title and details of a test named after a rule; throws for an id the catalogue lacks. */
export function ruleTestMeta(catalogue: RuleCatalogue, ruleId: string, variant: string, options: TestOptions = {}) {
  const found = catalogue[ruleId];
  if (!found) throw new Error(`ruleTest: no rule ${ruleId} in the catalogue; add it to src/rules before testing it.`);
  const rule: Rule = options.writes ? { ...found, writes: true } : found;
  return {
    rule,
    title: variant ? `${rule.id}: ${variant}` : rule.id,
    details: {
      annotation: ruleAnnotations(rule),
      tag: [
        rule.needs === 'twin' || options.needsTwin ? '@twin-only' : '@live-capable',
        `@${ruleKind(rule).replace(' ', '-')}`,
        ...(rule.needs === 'token' ? ['@signed-in'] : []),
        ...(options.notRecorded ? ['@not-recorded'] : []),
      ],
    },
  };
}

/**
 * Whether a difference from this rule on live is an observation rather than a
 * failure: field-notes rules only. Contract and reliance rules fail on every
 * target; a contract rule's known defect is matched exactly, inside its test
 * (knownDefectSeen), never by softening the whole rule.
 */
export function observedOnLive(rule: Rule): boolean {
  return !failsOnEveryTarget(rule);
}

/**
 * Whether `value` shows the rule's known defect on a real provider: then the
 * difference is annotated as an observation (labelled a known defect) and the test
 * goes on. On the twins it is never tolerated (the twin follows the contract), and
 * an answer that differs in any other way is the test's to fail.
 */
export function knownDefectSeen(rule: Rule, target: Target, value: unknown, testInfo: TestInfo, what: string): boolean {
  if (target === 'twin' || !rule.knownDefect?.matches(value)) return false;
  testInfo.annotations.push(observationAnnotation(rule.id, what, rule.knownDefect.text));
  void markFinding(true);
  return true;
}

/** The `observation` annotation of a rule that differed on live: its first line, and what was expected when known. */
export function observationAnnotation(ruleId: string, message: string, knownDefect?: string): { type: string; description: string } {
  const why = knownDefect ? ` (expected: ${knownDefect})` : '';
  return { type: OBSERVATION, description: `${ruleId}: ${message.split('\n')[0]}${why}` };
}

/**
 * Runs a rule's test body as the target requires: skipped with the reason,
 * asserted, or (a field-notes rule on live) observed: a difference becomes an
 * `observation` annotation and attachment instead of a failure. A test whose
 * requests met an outage (its provider stopped answering) is not verified, with
 * that reason, whatever its body did.
 */
export async function runUnderRule(rule: Rule, ctx: RuleContext, testInfo: TestInfo, skip: (reason: string) => void, body: () => Promise<void>): Promise<void> {
  const reason = skipReason(rule, ctx);
  if (reason !== undefined) {
    skip(reason);
    return;
  }
  const secrets = ctx.secrets ?? [];
  // A real provider that refused the test's write as the field notes say it does at a limit: not verified, not red.
  const refused = () => (ctx.target === 'twin' || testInfo.expectedStatus === 'skipped' ? undefined : ctx.refusedInFieldNotesShape?.());
  // A provider that stopped answering: an outage, not a verdict (the test's own skip stands).
  const unreachable = (): boolean => {
    const outage = testInfo.expectedStatus === 'skipped' ? undefined : ctx.providerUnreachable?.();
    if (outage) skip(notVerifiedForOutage(testInfo, outage));
    return outage !== undefined;
  };
  if (ctx.target === 'twin' || !observedOnLive(rule)) {
    await body().catch((error: unknown) => {
      if (unreachable()) return;
      const reason = refused();
      if (reason !== undefined) return skip(`not verified: ${reason}`);
      throw redactedError(error, secrets);
    });
    unreachable();
    return;
  }
  try {
    await body();
    unreachable();
  } catch (caught) {
    // test.skip() inside the body throws to stop the test: that is a skip, not an observation.
    if (testInfo.expectedStatus === 'skipped') throw caught;
    if (unreachable()) return;
    const reason = refused();
    if (reason !== undefined) return skip(`not verified: ${reason}`);
    const error = redactedError(caught, secrets);
    const message = error instanceof Error ? error.message : String(error);
    testInfo.annotations.push(observationAnnotation(rule.id, message));
    await testInfo.attach(`${OBSERVATION}.txt`, { body: message, contentType: 'text/plain' });
    await markFinding(false);
  }
}

/**
 * The error with every secret replaced in its message and stack: assertion messages quote the
 * provider's text (a body, a header), which may echo a token; the report and the console get it redacted.
 */
function redactedError(error: unknown, secrets: readonly string[]): unknown {
  if (!(error instanceof Error) || secrets.length === 0) return error;
  error.message = redactText(error.message, secrets);
  if (error.stack) error.stack = redactText(error.stack, secrets);
  return error;
}

/**
 * What every API's `verifies` shares: the title and details of a rule-named test, and the runner of
 * its body. The fixtures' own `verifies` keep only the destructuring Playwright reads fixture names from.
 * `declaredOn`, the run's target: what it alone decides (targetSkipReason) is declared, so the test is skipped
 * without a worker. A skip inside a running test needs one, and after a failed test Playwright starts a new
 * worker for the rest of its file even when all that rest skips.
 */
export function ruleTestParts(
  catalogue: RuleCatalogue,
  ruleId: string,
  variant: string,
  options: TestOptions,
  skip: (reason: string) => void,
  declaredOn?: Target,
) {
  const meta = ruleTestMeta(catalogue, ruleId, variant, options);
  const declared = declaredOn === undefined ? undefined : targetSkipReason(meta.rule, options, declaredOn);
  const details =
    declared === undefined ? meta.details : { ...meta.details, annotation: [...meta.details.annotation, { type: 'skip', description: declared }] };
  const run = async (ctx: RuleContext, testInfo: TestInfo, body: () => Promise<void>): Promise<void> => {
    const reason = variantSkipReason(options, ctx.target);
    return reason === undefined ? runUnderRule(meta.rule, ctx, testInfo, skip, body) : skip(reason);
  };
  return { ...meta, details, run };
}
