/**
 * Writes which tests verify each rule of the catalogues on this target, merges
 * it with the other targets' runs into reports/rule-coverage.md, and, when
 * HARNESS_RULE_GATE names APIs (e.g. "store"), fails the run if any rule of
 * those APIs has no test.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { CATALOGUES } from '../rules/catalogues.ts';
import { NOT_VERIFIED, OBSERVATION, ruleIdsOf } from '../testing/ruleTest.ts';
import {
  tallyRules,
  unverifiedLines,
  unverifiedMarkdown,
  writeUnverifiedAllureResult,
  type RuleOutcome,
  type RuleTally,
} from '../reporting/unverifiedRules.ts';
import { ruleGateApis, targetName } from '../config/env.ts';

interface Verification {
  title: string;
  project: string;
  status: string;
  /** Why it was skipped, when it was. */
  reason?: string;
}

interface CoverageFile {
  target: string;
  rules: Record<string, Verification[]>;
}

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
    this.#dir = options.outputDir ?? 'reports/rule-coverage';
    this.#log = options.log ?? ((message) => console.error(message));
    this.#allureResults = options.allureResultsDir === null ? undefined : (options.allureResultsDir ?? 'reports/allure-results');
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
    mkdirSync(this.#dir, { recursive: true });
    writeFileSync(join(this.#dir, `${this.#target}.json`), JSON.stringify({ target: this.#target, rules } satisfies CoverageFile, null, 2));
    writeFileSync(join(this.#dir, '..', 'rule-coverage.md'), this.#markdown());
    // Skipped is never green: the contract and reliance rules this run did not verify, with the reason, end the run.
    const tally = this.#tally(rules);
    if (tally) {
      for (const line of unverifiedLines(this.#target, tally)) this.#log(line);
      if (this.#allureResults) writeUnverifiedAllureResult(this.#allureResults, this.#target, tally);
    }

    const unknown = Object.keys(rules).filter((id) => !CATALOGUES[id.split('.')[0]!]?.[id]);
    const missing = gate.flatMap((api) => Object.keys(CATALOGUES[api] ?? {}).filter((id) => !rules[id]?.length));
    if (unknown.length > 0)
      this.#log(`Rule coverage: tests name rules that are not in the catalogue: ${unknown.join(', ')}. Add them to src/rules or fix the id.`);
    if (missing.length > 0) {
      this.#log(
        `Rule coverage: ${missing.length} rule(s) of ${gate.join(', ')} have no test:\n${missing.map((id) => `  - ${id}`).join('\n')}\nWrite a ruleTest('<id>', ...) for each in suites/.`,
      );
    }
    if ((missing.length > 0 || unknown.length > 0) && result.status === 'passed') return { status: 'failed' };
    return undefined;
  }

  /** The rules of the APIs this run tested (an API none of whose tests ran is left out), tallied. */
  #tally(rules: Record<string, Verification[]>): RuleTally | undefined {
    const apis = Object.keys(CATALOGUES).filter((api) => Object.keys(rules).some((id) => id.startsWith(`${api}.`)));
    if (apis.length === 0) return undefined;
    const all = apis.flatMap((api) => Object.values(CATALOGUES[api]!));
    return tallyRules(all, rules);
  }

  #markdown(): string {
    const files = readdirSync(this.#dir).filter((f) => f.endsWith('.json'));
    const runs = files.map((f) => JSON.parse(readFileSync(join(this.#dir, f), 'utf8')) as CoverageFile);
    const lines = [
      '# Rule coverage',
      '',
      'Each rule of the catalogues (src/rules) with the tests that verify it, per target. Generated by src/reporters/RuleCoverageReporter.ts.',
      '',
    ];
    for (const [api, catalogue] of Object.entries(CATALOGUES)) {
      lines.push(`## ${api}`, '', `| rule | source | needs | ${runs.map((r) => r.target).join(' | ')} |`, `|---|---|---|${runs.map(() => '---').join('|')}|`);
      for (const rule of Object.values(catalogue)) {
        const cells = runs.map((run) => {
          const tests = run.rules[rule.id] ?? [];
          if (tests.length === 0) return '**no test**';
          const counts = new Map<string, number>();
          for (const t of tests) counts.set(t.status, (counts.get(t.status) ?? 0) + 1);
          return [...counts].map(([status, n]) => `${n} ${status}`).join(', ');
        });
        lines.push(`| \`${rule.id}\` | ${rule.source} | ${rule.needs} | ${cells.join(' | ')} |`);
      }
      lines.push('');
    }
    for (const run of runs) {
      const all = Object.values(CATALOGUES).flatMap((catalogue) => Object.values(catalogue).filter((rule) => run.rules[rule.id]));
      lines.push(...unverifiedMarkdown(run.target, tallyRules(all, run.rules)));
    }
    return lines.join('\n');
  }
}
