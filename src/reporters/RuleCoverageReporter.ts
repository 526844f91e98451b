/**
 * Writes which tests verify each rule of the catalogues on this target, merges
 * it with the other targets' runs into reports/rule-coverage.md, and, when
 * HARNESS_RULE_GATE names APIs (e.g. "store"), fails the run if any rule of
 * those APIs has no test (src/reporting/ruleCoverage.ts). In npm test's twins'
 * run (HARNESS_TWIN_ONLY), the gate concludes instead, once the recording's
 * verdicts on twin processes are joined in.
 */
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { NOT_VERIFIED, OBSERVATION, ruleIdsOf } from '../testing/ruleTest.ts';
import type { RuleOutcome } from '../reporting/unverifiedRules.ts';
import { concludeCoverage, writeCoverage, type Verification } from '../reporting/ruleCoverage.ts';
import { reportPath, ruleGateApis, targetName, twinOnlyApis } from '../config/env.ts';

/**
 * What one finished test says of each rule it names: its status, `observation` for a rule that differed on live
 * and was reported, not failed, `skipped` (with the reason) for a rule it could not verify or a test that was skipped.
 * The rule coverage and npm run verify's console (VerifyReporter.ts) count rules from this one reading.
 */
export function ruleOutcomesOf(
  test: Pick<TestCase, 'annotations'>,
  result: Pick<TestResult, 'status' | 'annotations'>,
): Map<string, RuleOutcome & { readonly status: string }> {
  // A field-notes rule that differed on live passed as an observation: show it as one.
  const observed = result.annotations.some((a) => a.type === OBSERVATION);
  const reason = result.status === 'skipped' ? [...result.annotations, ...test.annotations].find((a) => a.type === 'skip')?.description : undefined;
  // A test of several rules that could not verify one of them says so (ruleTest.ts notVerified).
  const notVerified = new Map(
    result.annotations
      .filter((a) => a.type === NOT_VERIFIED && a.description)
      .map((a) => [a.description!.split(': ')[0]!, a.description!.slice(a.description!.indexOf(': ') + 2)] as const),
  );
  const outcomes = new Map<string, RuleOutcome>();
  for (const rule of ruleIdsOf(test.annotations)) {
    const unverified = result.status === 'passed' ? notVerified.get(rule) : undefined;
    const status = unverified ? 'skipped' : observed && result.status === 'passed' ? OBSERVATION : result.status;
    const why = unverified ?? reason;
    outcomes.set(rule, why ? { status, reason: why } : { status });
  }
  return outcomes;
}

export default class RuleCoverageReporter implements Reporter {
  readonly #dir: string;
  readonly #target = targetName();
  readonly #byTest = new Map<TestCase, { rule: string; v: Verification }[]>();

  readonly #log: (message: string) => void;

  readonly #allureResults: string | undefined;

  constructor(options: { outputDir?: string; log?: (message: string) => void; allureResultsDir?: string | null } = {}) {
    this.#dir = options.outputDir ?? reportPath('rule-coverage');
    this.#log = options.log ?? ((message) => console.error(message));
    this.#allureResults = options.allureResultsDir === null ? undefined : (options.allureResultsDir ?? reportPath('allure-results'));
  }

  printsToStdio(): boolean {
    return false;
  }

  onBegin(_config: FullConfig, suite: Suite): void {
    for (const test of suite.allTests()) {
      const project = test.parent.project()?.name ?? '';
      const rules = ruleIdsOf(test.annotations);
      this.#byTest.set(
        test,
        rules.map((rule) => ({ rule, v: { title: test.title, project, status: 'not run' } })),
      );
    }
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const outcomes = ruleOutcomesOf(test, result);
    for (const entry of this.#byTest.get(test) ?? []) {
      const outcome = outcomes.get(entry.rule);
      if (!outcome) continue;
      entry.v.status = outcome.status;
      if (outcome.reason) entry.v.reason = outcome.reason;
    }
  }

  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    const rules: Record<string, Verification[]> = {};
    for (const entries of this.#byTest.values()) for (const { rule, v } of entries) (rules[rule] ??= []).push(v);
    const gate = ruleGateApis();
    // A run that verifies no rule (npm test's run of the harness's own unit tests) leaves its target's coverage
    // to the run of the same target that does: written over by nothing, it would read "no test" for every rule.
    if (Object.keys(rules).length === 0 && gate.length === 0) return undefined;
    // npm test's twins' run left its live-capable tests to the recording: the gate concludes once they are joined.
    if (twinOnlyApis().length > 0) {
      writeCoverage(this.#dir, this.#target, rules);
      return undefined;
    }
    const ok = concludeCoverage({ dir: this.#dir, target: this.#target, rules, gate, log: this.#log, allureResults: this.#allureResults });
    return !ok && result.status === 'passed' ? { status: 'failed' } : undefined;
  }
}
