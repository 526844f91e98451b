/**
 * `npm run verify`: the main job. The suites, properties and pacts of the target
 * (HARNESS_TARGET, default twin: the twins, started by the Playwright config),
 * then the Allure report. The console is src/reporters/VerifyReporter.ts's: a line
 * per area of the spec, a table per API, a line per failure; the last line says
 * where the report is. The harness's own tests (unit tests, self-tests) are
 * `npm test`'s business.
 *
 *   npm run verify -- --api store          one API (its projects and folders only)
 *   npm run verify -- --rule store.pagination   the tests of rules under a prefix
 *
 * Other arguments go to Playwright. Exit code: 0 green, 1 a failed test (a contract
 * or reliance break; a field-notes rule on the twins) or a provider that stopped answering
 * on live (an outage, not a verdict: src/reporters/ProviderOutageReporter.ts), 2 a bad
 * configuration or argument.
 */
import { runTool } from './lib/runTool.ts';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { announceTarget } from './lib/announceTarget.ts';
import { buildReport } from './lib/buildReport.ts';
import { CATALOGUES } from '../src/rules/catalogues.ts';
import { parseVerifyArgs, playwrightRun, ruleTestList, VerifyArgsError, type ListedSuite, type VerifySelection } from '../src/verify/verifyArgs.ts';
import { PropertyEnvError, readPropertyEnv } from '../properties/support/propertyRun.ts';
import { liveRateBudget, liveRateToleranceMs } from '../properties/support/liveBudget.ts';
import { reportPath } from '../src/config/env.ts';

const VERIFY_DIR = reportPath('verify');
const TEST_LIST = `${VERIFY_DIR}/tests.txt`;

/** The tests of the chosen rules, found by their `rule` annotations in a listing of the run (no test runs, no twin starts). */
async function listRuleTests(selection: VerifySelection, target: string): Promise<string[] | string> {
  const { args, env } = playwrightRun(selection, target);
  const listing = `${VERIFY_DIR}/list.json`;
  const log = `${VERIFY_DIR}/list.log`;
  const code = await runTool(
    'playwright',
    ['test', '--list', '--reporter=json', ...args, ...selection.rest],
    { ...env, HARNESS_CONSOLE: '', PLAYWRIGHT_JSON_OUTPUT_NAME: listing },
    { log, echo: false },
  );
  if (code !== 0 || !existsSync(listing)) return `listing the tests failed (exit ${code}); see ${log}`;
  const report = JSON.parse(readFileSync(listing, 'utf8')) as { suites?: ListedSuite[] };
  return ruleTestList(report.suites ?? [], selection.rules);
}

async function main(): Promise<number> {
  let selection: VerifySelection;
  try {
    selection = parseVerifyArgs(process.argv.slice(2), CATALOGUES);
  } catch (error) {
    if (!(error instanceof VerifyArgsError)) throw error;
    console.error(`verify: ${error.message}`);
    return 2;
  }
  const what = selection.narrowed
    ? `verify: checking ${selection.rules.length > 0 ? `rules ${selection.rules.join(', ')}` : `the ${selection.apis.join(' and ')} API`}`
    : 'verify: checking every contract, pact and suite';
  const config = announceTarget(what);
  if (!config) return 2;
  if (!propertySettingsUsable()) return 2;
  for (const dir of [reportPath('allure-results'), reportPath('junit'), VERIFY_DIR]) rmSync(dir, { recursive: true, force: true });
  mkdirSync(VERIFY_DIR, { recursive: true });

  const testList = selection.rules.length > 0 ? await writeRuleTestList(selection, config.target) : undefined;
  if (testList === 2) return 2;
  const { args, env } = playwrightRun(selection, config.target, testList);
  const tests = await runTool('playwright', ['test', ...args, ...selection.rest], env);
  const report = await buildReport(`API contract harness (${config.target})`);
  // A failed test is a break; a report that could not be built fails the job too.
  return tests !== 0 || report !== 0 ? 1 : 0;
}

/** The properties' settings, read here too: in the Playwright config a bad value would stop the run with exit 1, not 2. */
function propertySettingsUsable(): boolean {
  try {
    readPropertyEnv();
    liveRateBudget();
    liveRateToleranceMs();
    return true;
  } catch (error) {
    if (!(error instanceof PropertyEnvError)) throw error;
    console.error(`Harness configuration is not usable:\n  - ${error.message.split('\n').join('\n  - ')}`);
    return false;
  }
}

/** --rule: the file listing the chosen rules' tests, for Playwright; exit 2 (printed) when listing fails or finds none. */
async function writeRuleTestList(selection: VerifySelection, target: string): Promise<string | 2> {
  const tests = await listRuleTests(selection, target);
  if (typeof tests === 'string') {
    console.error(`verify: ${tests}`);
    return 2;
  }
  if (tests.length === 0) {
    console.error(
      `verify: no test of ${selection.apis.join(', ')} names a rule under ${selection.rules.join(', ')}; reports/rule-coverage.md lists each rule's tests.`,
    );
    return 2;
  }
  writeFileSync(TEST_LIST, `${tests.join('\n')}\n`);
  return TEST_LIST;
}

process.exit(await main());
