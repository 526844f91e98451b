/**
 * What one Playwright run showed, read from its JSON report (a run against a
 * changed provider, or the gate's recording): each test's outcome, the rule ids it names (its `rule` annotations,
 * else the rule id its title starts with), its observations and the first line
 * of its failure. A run whose report is missing or unreadable, or that exited
 * non-zero without a failed test, or that ran no test at all, is an error: it
 * never reads as "nothing failed".
 */
import { stripVTControlCharacters } from 'node:util';
import { existsSync, readFileSync } from 'node:fs';
import { OBSERVATION, rulesOfTest } from '../ruleTest.ts';

export type TestStatus = 'passed' | 'failed' | 'skipped';

export interface TestOutcome {
  /** The test's title, without the describe blocks around it. */
  readonly title: string;
  readonly file: string;
  readonly status: TestStatus;
  /** Rule ids the test names: its `rule` annotations, else the rule id its title starts with; empty when neither. */
  readonly rules: readonly string[];
  /** The first line of the failure (failed tests only), colour codes removed. */
  readonly message?: string;
  /** Its `observation` annotations: on live, a field-notes rule that differed is reported, not failed. */
  readonly observations: readonly string[];
  /** The project it ran in. */
  readonly project: string;
  /** Its tags, without the `@` (`live-capable`, `contract`, …). */
  readonly tags: readonly string[];
  /** Every annotation of the test and its results (rule, skip, observation, known-defect, not-verified, …). */
  readonly annotations: readonly { type: string; description?: string }[];
}

export interface RunReport {
  readonly tests: readonly TestOutcome[];
  /** Errors outside any test (a config that did not load, a worker that crashed in a hook). */
  readonly errors: readonly string[];
}

/** How a run went: its report, or why it cannot be read as a verdict. */
export type RunResult = { readonly ok: true; readonly report: RunReport } | { readonly ok: false; readonly error: string };

const MAX_SUMMARY = 400;

/**
 * The first line of a failure, colour codes removed; a line ending in ':' takes the next one with it
 * (`[contract schemas] 2 answer(s) ... break the schema of their route:` names the breach on the next).
 * For Pact's mismatch report, its numbered failures (`1.1) has status code 201` with their first detail).
 */
export function firstLine(text: string): string {
  const lines = stripVTControlCharacters(text)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  let summary: string;
  if (/does not hold against the [^\n]*:\n/.test(text) && !/Pact's Verifier reported:/.test(text)) {
    // The short account (contracts/verification/mismatchSummary.ts): its mismatch lines, indented under the first.
    const items = stripVTControlCharacters(text)
      .split('\n')
      .filter((line) => line.startsWith('  ') && line.trim().length > 0)
      .map((line) => line.trim());
    summary = items.length > 0 ? items.join('; ') : (lines[0] ?? '');
  } else if (/Pact's Verifier reported:/.test(text)) {
    const items = lines.flatMap((line, i) =>
      /^\d+\.\d+\) /.test(line) ? [`${line}${lines[i + 1] && !/^\d+\.\d+\) /.test(lines[i + 1]!) ? `: ${lines[i + 1]}` : ''}`] : [],
    );
    summary = items.length > 0 ? items.join('; ') : (lines[0] ?? '');
  } else {
    const at = Math.max(
      0,
      lines.findIndex((line) => !line.endsWith(':')),
    );
    summary = lines.slice(0, at + 1).join(' ');
  }
  return summary.length > MAX_SUMMARY ? `${summary.slice(0, MAX_SUMMARY - 1)}…` : summary;
}

interface JsonError {
  message?: string;
  stack?: string;
}
interface JsonResult {
  status?: string;
  error?: JsonError;
  errors?: JsonError[];
  annotations?: { type: string; description?: string }[];
}
interface JsonTest {
  status?: string;
  projectName?: string;
  annotations?: { type: string; description?: string }[];
  results?: JsonResult[];
}
interface JsonSpec {
  title: string;
  file?: string;
  tags?: string[];
  tests?: JsonTest[];
}
interface JsonSuite {
  file?: string;
  suites?: JsonSuite[];
  specs?: JsonSpec[];
}

/** Reads a Playwright JSON report (the `json` reporter's output); throws when it is not one. */
export function parseRunReport(text: string): RunReport {
  const json = JSON.parse(text) as { suites?: JsonSuite[]; errors?: JsonError[] };
  if (!json || typeof json !== 'object' || !Array.isArray(json.suites)) throw new Error('not a Playwright JSON report (no suites)');
  const tests: TestOutcome[] = [];
  const walk = (suite: JsonSuite) => {
    suite.suites?.forEach(walk);
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const results = test.results ?? [];
        const annotations = [...(test.annotations ?? []), ...results.flatMap((r) => r.annotations ?? [])];
        // unexpected: it failed; flaky: it failed, then passed on a retry (a failure all the same here).
        const failed = test.status === 'unexpected' || test.status === 'flaky';
        const status: TestStatus = failed ? 'failed' : test.status === 'skipped' ? 'skipped' : 'passed';
        const failure = results.find((r) => r.status !== 'passed' && r.status !== 'skipped');
        const error = failure?.error ?? failure?.errors?.[0];
        const message = failed
          ? `${test.status === 'flaky' ? '(flaky) ' : ''}${firstLine(error?.message ?? error?.stack ?? `${failure?.status ?? 'failed'}`)}`
          : undefined;
        tests.push({
          title: spec.title,
          file: spec.file ?? suite.file ?? '',
          status,
          rules: rulesOfTest(spec.title, annotations),
          ...(message !== undefined ? { message } : {}),
          observations: [...new Set(annotations.filter((a) => a.type === OBSERVATION && a.description).map((a) => a.description!))],
          project: test.projectName ?? '',
          tags: spec.tags ?? [],
          annotations,
        });
      }
    }
  };
  json.suites.forEach(walk);
  return { tests, errors: (json.errors ?? []).map((e) => firstLine(e.message ?? e.stack ?? 'error')) };
}

/**
 * The verdict-ready result of one run: its exit code and the report it was told
 * to write (deleted before the run, so a stale one cannot be read).
 */
export function runResult(exitCode: number, reportPath: string): RunResult {
  if (!existsSync(reportPath)) return { ok: false, error: `the run (exit ${exitCode}) wrote no report at ${reportPath}` };
  let report: RunReport;
  try {
    report = parseRunReport(readFileSync(reportPath, 'utf8'));
  } catch (error) {
    return { ok: false, error: `the report ${reportPath} cannot be read: ${error instanceof Error ? error.message : String(error)}` };
  }
  return judgeRun(exitCode, report, reportPath);
}

/** An exit code and a report that agree make a result; anything else is an error. */
export function judgeRun(exitCode: number, report: RunReport, where = 'the report'): RunResult {
  const failed = report.tests.filter((t) => t.status === 'failed').length;
  const ran = report.tests.filter((t) => t.status !== 'skipped').length;
  if (report.errors.length > 0) return { ok: false, error: `the run had errors outside its tests: ${report.errors.join('; ')}` };
  if (exitCode !== 0 && failed === 0) return { ok: false, error: `the run exited ${exitCode} without a failed test (${where})` };
  if (exitCode === 0 && failed > 0) return { ok: false, error: `the run exited 0 although ${failed} test(s) failed (${where})` };
  if (ran === 0) return { ok: false, error: `no test ran (${report.tests.length} skipped): nothing was checked (${where})` };
  return { ok: true, report };
}
