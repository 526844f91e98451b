import { randomUUID } from 'node:crypto';
import { defineConfig, type ReporterDescription } from '@playwright/test';
import { harnessConfig } from './src/config/harnessConfig.ts';
import { liveRateBudget, liveRateToleranceMs, readPropertyEnv } from './src/config/propertyEnv.ts';
import { useCompileCache } from './src/config/compileCache.ts';
import { harnessModule, OWN_TYPESCRIPT } from './src/config/harnessRoot.ts';
import { silenceDependencyDeprecations } from './src/config/quietDependencies.ts';
import {
  blobReport,
  committedPactsOnly,
  inPlaywrightWorker,
  onCI,
  reportPath,
  runName as runNameOf,
  setProcessVariable,
  verifiedApis as verifiedApisOf,
  twinOnlyApis,
  verifiedRules as verifiedRulesOf,
  verifyConsole as verifyConsoleOn,
  pactVerifyConsole,
  RUN_ID_VARIABLE,
} from './src/config/env.ts';

setProcessVariable('PACT_DO_NOT_TRACK', 'true');
// Workers and the twins start faster from V8's compile cache.
useCompileCache();
silenceDependencyDeprecations();

// Validated once, here: a bad variable stops the run before any test, naming the fix.
const config = harnessConfig();
// The properties' variables (FC_*, LIVE_RATE_*) too: a typo should not surface halfway through a run.
readPropertyEnv();
liveRateBudget();
liveRateToleranceMs();
const onTwins = config.store.mode === 'twin';
// Live and record reach real services: the store's one bucket is shared by every store request.
const onLive = config.target === 'live' || config.target === 'record';
const runName = runNameOf() ?? config.target;

/** Projects named on the command line (`--project=x` or `--project x`); empty means all. */
function selectedProjects(argv: string[]): string[] {
  return argv.flatMap((arg, i) => (arg.startsWith('--project=') ? [arg.slice(10)] : arg === '--project' && argv[i + 1] ? [argv[i + 1]!] : []));
}
// The harness's own unit tests need no twin; every API project does.
const selected = selectedProjects(process.argv);
const needsTwins = onTwins && (selected.length === 0 || selected.some((p) => p !== 'unit'));

// npm run verify -- --api/--rule (scripts/verify.ts): the APIs it verifies. A dependency runs whole, so a project waits
// (depends) only on projects of those: a store-only run does not run the media suites first, nor a media-only one the store's.
const verifiedApis = verifiedApisOf();
// The pacts as committed, or written again by the consumer tests first (the default).
const pactsWritten = (...projects: string[]) => (committedPactsOnly() ? [] : projects);
// npm test's twins' run: these suites' live-capable tests run once, in the recording against twin processes
// (what a recording cannot hold, @not-recorded, stays here).
const liveCapableElsewhere = (api: string) => (twinOnlyApis().includes(api) ? { grepInvert: /^(?!.*@not-recorded).*@live-capable/ } : {});
const verifies = (api: string) => verifiedApis.includes(api);
// npm run verify's console (src/reporters/VerifyReporter.ts) in place of list/dot: a line per area of the spec, a table at the end.
const verifyConsole = verifyConsoleOn();
// The packaged pact-verify's console (src/reporters/PactVerifyReporter.ts): a line per interaction, a short account per failure.
const pactConsole = pactVerifyConsole();
const ownConsole = verifyConsole || pactConsole;
const verifiedRules = verifiedRulesOf();

const ALLURE_RESULTS = reportPath('allure-results');

/** The Allure report's environment: this run's, snapshotted for the joined report, with what the results folder holds. */
async function allureEnvironment(): Promise<Record<string, string>> {
  const { environmentInfo, mergedEnvironment, saveEnvironmentSnapshot } = await import('./src/reporting/environmentInfo.ts');
  const environment = environmentInfo(config, runName);
  saveEnvironmentSnapshot(environment, runName);
  return mergedEnvironment(environment, ALLURE_RESULTS);
}
// Reporters run in the main process only. Workers load this file too, a new one after every failed test: they need not
// ask git, read the results, nor load Allure's reporter SDK (tens of milliseconds a worker).
const inWorker = inPlaywrightWorker();
// One id per run, inherited by its workers: a schema breach is red once per run (suites/fixtures/schemaBreachFailure.ts).
if (!inWorker) setProcessVariable(RUN_ID_VARIABLE, randomUUID());
const environment = inWorker ? {} : await allureEnvironment();
const reporters: ReporterDescription[] = [
  ...(ownConsole ? [] : [[onCI() ? 'dot' : 'list'] as ReporterDescription]),
  ['json', { outputFile: reportPath('results', `${runName}.json`) }],
  // The Allure results of every run; labels come from src/testing/harnessTest.ts, categories and history from allurerc.ts.
  ['allure-playwright', { resultsDir: ALLURE_RESULTS, environmentInfo: environment }],
  // For CI systems that read JUnit XML.
  ['junit', { outputFile: reportPath('junit', `${runName}.xml`) }],
  // Under verify's console its closing lines (the counts, each rule not verified) are the table's; a problem with the rules stays.
  [harnessModule('src/reporters/RuleCoverageReporter'), ownConsole ? { log: (line: string) => line.startsWith('Rule coverage:') && console.error(line) } : {}],
  // Live and record: adds up what every test sent to the APIs, prints the budget line, fails a run over LIVE_REQUEST_BUDGET.
  [harnessModule('src/reporters/RequestBudgetReporter')],
  // Live and record: a provider that stopped answering is said once, its tests are not verified, and the run fails for it.
  [harnessModule('src/reporters/ProviderOutageReporter'), { summary: !verifyConsole }],
  // A shard of a CI matrix writes a blob report; the merge job joins them (.github/workflows).
  ...(blobReport() ? [['blob', { outputDir: reportPath('blob') }] as ReporterDescription] : []),
  // Last, so its table ends the run, after the other reporters' lines.
  ...(verifyConsole
    ? [[harnessModule('src/reporters/VerifyReporter'), { apis: verifiedApis, rules: verifiedRules, target: config.target }] as ReporterDescription]
    : []),
  ...(pactConsole
    ? [[harnessModule('src/reporters/PactVerifyReporter'), { outputLog: reportPath('pact-verify', runName, 'output.log') }] as ReporterDescription]
    : []),
];

export default defineConfig({
  forbidOnly: onCI(),
  // Node strips the harness's types itself. Playwright compiles TypeScript with Babel into a cache only its main process
  // writes: what only a test loads (Pact's verification) was compiled again in every worker, and every new worker read
  // and parsed the source maps of the modules in each expect's stack, a new worker after every failed test. RegExps:
  // Playwright's file matcher takes them (its type names globs only), where it parses a glob again for every module loaded.
  build: { external: OWN_TYPESCRIPT as unknown as string[] },
  reporter: reporters,
  // Per run: npm test runs several at once, and each empties its own folder at start.
  outputDir: reportPath('test-output', runName),
  // Every core (Playwright's default is half). Live: one worker, so the store's one bucket and the media's one
  // account have one user at a time (the suites, the properties, the pacts) without a project waiting on another:
  // Playwright skips every dependant of a project with a failure, and a live verdict must be complete.
  workers: onLive ? 1 : '100%',
  fullyParallel: !onLive,
  timeout: 60_000,
  // This run's pact folder starts empty, so an interaction dropped from the code leaves the pact
  // (Pact merges into an existing file). In the runner, before any worker: a project of its own was a worker start.
  // Live and record: a 429 that shows a store's rate headers lie is learned once in the run, by every worker.
  globalSetup: [harnessModule('contracts/pacts.setup'), harnessModule('src/testing/pacerLessonsSetup')],
  projects: [
    { name: 'unit', testDir: 'tests/unit', testMatch: '**/*.test.ts' },
    // Consumer pacts are written first (into a folder globalSetup emptied), then verified against the twins.
    { name: 'contracts-consumer', testDir: 'contracts', testMatch: '**/*.pact.spec.ts', testIgnore: '**/verify.pact.spec.ts', workers: 1 },
    // The pacts this run wrote replace the committed ones, one rename each (contracts/pacts.publish.ts); then, before any
    // provider, what the pacts promise must be allowed by the JSON Schemas (contracts/schemas.check.spec.ts). One project:
    // each project is a worker start of its own, and on one worker Playwright runs a project's files in alphabetical order.
    {
      name: 'contracts-publish',
      testDir: 'contracts',
      testMatch: ['pacts.publish.ts', 'schemas.check.spec.ts'],
      dependencies: ['contracts-consumer'],
      workers: 1,
      fullyParallel: false,
    },
    // Pact's Verifier against the target; on the twins after the media suites, because the media states reset the one
    // shared media twin (on live the run's one worker keeps the bucket and the account to one user at a time).
    {
      name: 'contracts-verify',
      testDir: 'contracts',
      // .js too: an installed harness runs these two projects compiled (scripts/cli.ts).
      testMatch: /verify\.pact\.spec\.[jt]s$/,
      dependencies: [...pactsWritten('contracts-publish'), ...(!onLive && verifies('media') ? ['media'] : [])],
      workers: 1,
    },
    // Pacts from outside the harness (npm run pact:verify -- --pact/--broker; in npm test the examples' committed pacts,
    // which their own consumer tests write in scripts/packageCheck.ts, and the held-out ones) against the target. Its media
    // states reset the one shared media twin too: on the twins, after the harness's own verification.
    {
      name: 'contracts-outside',
      testDir: 'contracts/verification',
      testMatch: /outsidePacts\.verify\.spec\.[jt]s$/,
      dependencies: onLive ? [] : ['contracts-verify'],
      workers: 1,
    },
    // The harness's own negative controls, npm test's and never npm run verify's: Pact's Verifier fails against a provider
    // with one break (src/testing/providerBreaks), each property goes red against a twin with one break. The pact breaks arrange states
    // on the one shared media twin: after the media suites and the pact verifications. One worker per file, files side by side.
    { name: 'self-tests', testDir: 'tests/self-tests', testMatch: '**/*.spec.ts', dependencies: ['contracts-outside'], fullyParallel: false },
    { name: 'store', testDir: 'suites/store', testMatch: '**/*.spec.ts', workers: onLive ? 1 : undefined, ...liveCapableElsewhere('store') },
    // fast-check properties and models of rate limiting, pagination and localized input (properties/).
    {
      name: 'properties',
      testDir: 'properties',
      testMatch: '**/*.spec.ts',
      workers: onLive ? 1 : undefined,
    },
    // One test at a time on the twin, where each media test starts from the seed (a reset) of one shared server, and on live,
    // where the tests share one account; a replay shares nothing.
    {
      name: 'media',
      testDir: 'suites/media',
      testMatch: '**/*.spec.ts',
      workers: config.target === 'replay' ? undefined : 1,
      fullyParallel: config.target === 'replay',
      ...liveCapableElsewhere('media'),
    },
    // The storefront script event in a real browser: the chromium src/browser/chromium.ts finds. Its launchOptions
    // come from a worker fixture (suites/fixtures/storefrontFixtures.ts): finding it may mean unpacking one, which is async.
    {
      name: 'storefront',
      testDir: 'suites/storefront',
      testMatch: '**/*.spec.ts',
      // A failing browser test keeps a picture of the page, attached to its report.
      use: { browserName: 'chromium', screenshot: 'only-on-failure' },
    },
  ],
  webServer: needsTwins
    ? {
        // This Node, not the first on PATH (which may be the machine's older one).
        command: `"${process.execPath}" "${harnessModule('src/twins/main')}"`,
        url: `${config.store.twinUrl}/__twin/health`,
        reuseExistingServer: !onCI(),
        env: {
          STORE_TWIN_PORT: String(config.store.port),
          KITSU_TWIN_PORT: String(config.media.mode === 'twin' ? config.media.port : ''),
          KITSU_TWIN_CLOCK: 'virtual',
        },
        stdout: 'ignore',
        stderr: 'pipe',
        timeout: 30_000,
      }
    : undefined,
});
