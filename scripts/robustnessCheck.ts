/**
 * `npm run robustness:check` (in .ci/run, after npm test): a provider that answers something unexpected meets
 * verdicts, never an error of the harness's own code. The live-capable suites and the pact verification of each API
 * run behind two planted breaks that turn answers the other way round (every list answered with an error, every
 * error with a list; src/testing/providerBreaks/), as `npm run breaks` runs them; every red test must be red by an
 * expect that names its rule, the request and the answer: no TypeError, "is not iterable" or "Cannot read
 * properties" from the harness. Then a provider stopped in the middle of a live run of each API must be an outage,
 * not a verdict (tests/unit/live/providerOutage.test.ts). Minutes, so after the gate, not in it.
 * Writes reports/results/robustness-check.json for CI's closing line.
 */
import { existsSync, readFileSync } from 'node:fs';
import { gateLivePort, SLOW_CHECKS_VARIABLE } from '../src/config/env.ts';
import { runScript } from './lib/runScript.ts';
import { writeCheckReport } from './summarize.ts';

/** A twin process stopped in the middle of a live run, for each API (tests/unit/live/providerOutage.test.ts). */
const OUTAGE_TEST = 'tests/unit/live/providerOutage.test.ts';
const JOBS = ['store:lists-answered-as-errors', 'store:errors-answered-as-lists', 'media:lists-answered-as-errors', 'media:errors-answered-as-lists'];
/** What an error of the harness's own code looks like in a failure's message, rather than a verdict. */
const HARNESS_ERROR = /\b(?:TypeError|ReferenceError|RangeError|SyntaxError)\b|is not iterable|Cannot read propert(?:y|ies) of|is not a function/;

interface JsonResult {
  status: string;
  errors?: { message?: string }[];
}
interface JsonSuite {
  suites?: JsonSuite[];
  specs?: { title: string; tests: { results: JsonResult[] }[] }[];
}

/** Every test of a Playwright JSON report: its title and the messages of its failures. */
function failuresOf(suites: readonly JsonSuite[]): { title: string; messages: string[]; ran: boolean }[] {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests.map((t) => ({
        title: spec.title,
        ran: t.results.length > 0,
        messages: t.results.flatMap((r) => (r.errors ?? []).map((e) => e.message ?? '')),
      })),
    ),
    ...failuresOf(suite.suites ?? []),
  ]);
}

async function main(): Promise<number> {
  const started = performance.now();
  console.log(`robustness check: the live-capable suites and pacts behind ${JOBS.join(', ')} (npm run breaks)`);
  const run = await runScript(['scripts/breaks.ts', ...JOBS, '--no-control'], { BREAKS_FIRST_PORT: String(gateLivePort() + 60) });
  const problems: string[] = [];
  let tests = 0;
  for (const job of JOBS) {
    const [api, name] = job.split(':') as [string, string];
    for (const part of ['suites', 'pact']) {
      const report = `reports/breaks/${api}-${name}.${part}.json`;
      if (!existsSync(report)) {
        problems.push(`${job}: no ${part} report at ${report} (see reports/breaks/logs)`);
        continue;
      }
      const found = failuresOf((JSON.parse(readFileSync(report, 'utf8')) as { suites: JsonSuite[] }).suites);
      tests += found.length;
      if (!found.some((t) => t.ran)) problems.push(`${job}: no test of the ${part} ran`);
      for (const test of found) {
        const own = test.messages.find((message) => HARNESS_ERROR.test(message));
        if (own) problems.push(`${job}: "${test.title}" died of the harness's own error: ${own.split('\n')[0]}`);
      }
    }
  }
  // A provider that stops answering in the middle of a live run of each API: an outage, not a verdict.
  const outage = await runScript(['node_modules/@playwright/test/cli.js', 'test', '--project=unit', OUTAGE_TEST], {
    [SLOW_CHECKS_VARIABLE]: '1',
    HARNESS_RUN_NAME: 'robustness-outage',
  });
  if (outage.code !== 0) problems.push(`${OUTAGE_TEST} failed (exit ${outage.code}):\n${outage.output.split('\n').slice(-30).join('\n')}`);
  else if (!/\b2 passed\b/.test(outage.output)) problems.push(`${OUTAGE_TEST} did not run both cases:\n${outage.output.split('\n').slice(-10).join('\n')}`);
  console.log(
    `robustness check: ${tests} tests read in ${((performance.now() - started) / 1000).toFixed(0)} s (breaks exited ${run.code}; the outage runs exited ${outage.code})`,
  );
  for (const problem of problems) console.log(`robustness check: FAIL ${problem}`);
  writeCheckReport('robustness-check', { passed: problems.length === 0 ? 1 : 0, failed: problems.length }, { problems });
  console.log(`robustness check: ${problems.length === 0 ? 1 : 0} passed, ${problems.length} failed`);
  return problems.length === 0 ? 0 : 1;
}

process.exitCode = await main();
