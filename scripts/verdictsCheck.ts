/**
 * `npm run verdicts:check` (in .ci/run, after npm test): on live, one failure hides nothing. A store twin process
 * behind one planted break (a proxy, as npm run breaks puts it: X-Total-Count one too many) is the live target of
 * `npm run verify -- --api store`, as the nightly runs it. The run must go red by the broken rule, print no
 * "did not finish" line, and give every test a verdict: the suites, the properties, and every pact interaction,
 * the harness's own and the outside consumers'. Minutes, so after the gate, not in it.
 * Writes reports/results/verdicts-check.json for CI's closing line.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RECORDING_PLAN, startProviderBehindBreaks } from './lib/twinProcess.ts';
import { STORE_BREAKS } from '../src/testing/providerBreaks/storeBreaks.ts';
import { gateLivePort } from '../src/config/env.ts';
import { runScript } from './lib/runScript.ts';
import { writeCheckReport } from './summarize.ts';

const BREAK = 'total-count-off-by-one';
const BROKEN_RULE = 'store.pagination.total-count';
const OUT = 'reports/verdicts-check';
const RUN = 'verdicts-check';
const PACT_PROJECTS = ['contracts-verify', 'contracts-outside'];

interface JsonTest {
  projectName: string;
  status: string;
  annotations?: { type: string; description?: string }[];
  results: { status: string }[];
}
interface JsonSuite {
  title: string;
  suites?: JsonSuite[];
  specs?: { title: string; tests: JsonTest[] }[];
}

/** Every test of the report, with its title. */
function testsOf(suites: readonly JsonSuite[]): (JsonTest & { title: string })[] {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? []).flatMap((spec) => spec.tests.map((t) => ({ ...t, title: spec.title }))),
    ...testsOf(suite.suites ?? []),
  ]);
}

async function main(): Promise<number> {
  const started = performance.now();
  rmSync(OUT, { recursive: true, force: true });
  const storePort = gateLivePort() + 40;
  const provider = await startProviderBehindBreaks({
    storePort,
    mediaPort: storePort + 1,
    plan: RECORDING_PLAN,
    store: STORE_BREAKS[BREAK]!,
    userAgent: 'api-contract-harness verdicts check (https://example.invalid/api-contract-harness)',
  });
  const problems: string[] = [];
  let tests: (JsonTest & { title: string })[] = [];
  try {
    console.log(`verdicts check: npm run verify -- --api store on live, through a proxy that breaks ${BREAK} ("${STORE_BREAKS[BREAK]!.breaks}")`);
    // npm run verify as the nightly runs it, one API.
    const run = await runScript(['scripts/verify.ts', '--api', 'store'], {
      HARNESS_TARGET: 'live',
      HARNESS_RUN_NAME: RUN,
      HARNESS_REPORTS_DIR: OUT,
      ...provider.env,
    });
    writeFileSync(join(OUT, 'console.log'), run.output);
    if (run.code !== 1) problems.push(`verify exited ${run.code}, not 1 (a failed test): see ${OUT}/console.log`);
    const unfinished = run.output.split('\n').filter((line) => line.includes('did not finish'));
    if (unfinished.length > 0) problems.push(`verify printed "did not finish":\n    ${unfinished.join('\n    ')}`);
    const report = join(OUT, 'results', `${RUN}.json`);
    if (!existsSync(report)) problems.push(`no report at ${report}`);
    else tests = testsOf((JSON.parse(readFileSync(report, 'utf8')) as { suites: JsonSuite[] }).suites);
  } finally {
    await provider.close();
  }
  const withoutVerdict = tests.filter((t) => t.results.length === 0);
  if (withoutVerdict.length > 0)
    problems.push(
      `${withoutVerdict.length} test(s) never ran: ${withoutVerdict
        .slice(0, 5)
        .map((t) => `[${t.projectName}] ${t.title}`)
        .join('; ')}`,
    );
  const pacts = tests.filter((t) => PACT_PROJECTS.includes(t.projectName));
  if (pacts.length === 0) problems.push('no pact interaction was in the run');
  const brokenRed = tests.some((t) => t.status === 'unexpected' && (t.annotations ?? []).some((a) => a.type === 'rule' && a.description === BROKEN_RULE));
  if (!brokenRed) problems.push(`no test of ${BROKEN_RULE} went red`);
  const projects = [...new Set(tests.map((t) => t.projectName))].sort();
  const red = tests.filter((t) => t.status === 'unexpected').length;
  console.log(
    `verdicts check: ${tests.length} tests in ${projects.join(', ')}: ${red} red, ${pacts.length} pact interactions each with a verdict (${pacts.filter((t) => t.status === 'expected').length} verified) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  for (const problem of problems) console.log(`verdicts check: FAIL ${problem}`);
  const checks = 6;
  writeCheckReport('verdicts-check', { passed: checks - problems.length, failed: problems.length }, { problems });
  console.log(`verdicts check: ${checks - problems.length} passed, ${problems.length} failed`);
  return problems.length === 0 ? 0 : 1;
}

process.exitCode = await main();
