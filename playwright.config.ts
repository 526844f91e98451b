import { defineConfig, type ReporterDescription } from '@playwright/test';
import { harnessConfig } from './src/config/harnessConfig.ts';
import { readPropertyEnv } from './properties/support/propertyRun.ts';
import { liveRateBudget, liveRateToleranceMs } from './properties/support/liveBudget.ts';
import { chromiumLaunchOptions } from './src/browser/chromium.ts';
import { environmentInfo, mergedEnvironment } from './src/reporting/environmentInfo.ts';

process.env.PACT_DO_NOT_TRACK = 'true';

// Validated once, here: a bad variable stops the run before any test, naming the fix.
const config = harnessConfig();
// The properties' variables (FC_*, LIVE_RATE_*) too: a typo should not surface halfway through a run.
readPropertyEnv();
liveRateBudget();
liveRateToleranceMs();
const onTwins = config.store.mode === 'twin';
const runName = process.env.HARNESS_RUN_NAME?.trim() || config.target;

/** Projects named on the command line (`--project=x` or `--project x`); empty means all. */
function selectedProjects(argv: string[]): string[] {
  return argv.flatMap((arg, i) => (arg.startsWith('--project=') ? [arg.slice(10)] : arg === '--project' && argv[i + 1] ? [argv[i + 1]!] : []));
}
// The harness's own unit tests need no twin; every API project does.
const selected = selectedProjects(process.argv);
const needsTwins = onTwins && (selected.length === 0 || selected.some((p) => p !== 'unit'));

const ALLURE_RESULTS = 'reports/allure-results';
// Reporters run in the main process only; workers load this file too, and need not ask git or read the results.
const inWorker = process.env.TEST_WORKER_INDEX !== undefined;
const reporters: ReporterDescription[] = [
  [process.env.CI ? 'dot' : 'list'],
  ['json', { outputFile: `reports/results/${runName}.json` }],
  // The Allure results of every run; labels come from src/testing/harnessTest.ts, categories and history from allurerc.ts.
  ['allure-playwright', { resultsDir: ALLURE_RESULTS, environmentInfo: inWorker ? {} : mergedEnvironment(environmentInfo(config, runName), ALLURE_RESULTS) }],
  // For CI systems that read JUnit XML.
  ['junit', { outputFile: `reports/junit/${runName}.xml` }],
  ['./src/reporters/RuleCoverageReporter.ts'],
  // A shard of a CI matrix writes a blob report; the merge job joins them (.github/workflows).
  ...(process.env.HARNESS_BLOB_REPORT === '1' ? [['blob', { outputDir: 'reports/blob' }] as ReporterDescription] : []),
];

export default defineConfig({
  forbidOnly: !!process.env.CI,
  reporter: reporters,
  outputDir: 'reports/test-output',
  // Live: one worker, so one client paces every request to the store's single bucket.
  workers: onTwins ? undefined : 1,
  fullyParallel: onTwins,
  timeout: 60_000,
  projects: [
    { name: 'unit', testDir: 'tests/unit', testMatch: '**/*.test.ts' },
    // Consumer pacts are written first, then verified against the twins.
    { name: 'contracts-setup', testDir: 'contracts', testMatch: 'pacts.setup.ts' },
    {
      name: 'contracts-consumer',
      testDir: 'contracts',
      testMatch: '**/*.pact.spec.ts',
      testIgnore: '**/verify.pact.spec.ts',
      dependencies: ['contracts-setup'],
      workers: 1,
    },
    // Before any provider: what the pacts promise must be allowed by the JSON Schemas.
    { name: 'contracts-static', testDir: 'contracts', testMatch: '**/*.check.spec.ts', dependencies: ['contracts-consumer'] },
    // Pact's Verifier against the target; after the media suites, because the media states reset the one shared media twin.
    {
      name: 'contracts-verify',
      testDir: 'contracts',
      testMatch: ['**/verify.pact.spec.ts', '**/*.verify.spec.ts'],
      dependencies: ['contracts-static', 'media'],
      workers: 1,
    },
    { name: 'store', testDir: 'suites/store', testMatch: '**/*.spec.ts' },
    // fast-check properties and models of rate limiting, pagination and localized input (properties/).
    { name: 'properties', testDir: 'properties', testMatch: '**/*.spec.ts' },
    // One test at a time: on the twin each media test starts from the seed (a reset), and shares one server.
    { name: 'media', testDir: 'suites/media', testMatch: '**/*.spec.ts', workers: 1, fullyParallel: false },
    // The storefront script event in a real browser: Debian's chromium (src/browser/chromium.ts).
    {
      name: 'storefront',
      testDir: 'suites/storefront',
      testMatch: '**/*.spec.ts',
      // A failing browser test keeps a picture of the page, attached to its report.
      use: { browserName: 'chromium', launchOptions: chromiumLaunchOptions(), screenshot: 'only-on-failure' },
    },
  ],
  webServer: needsTwins
    ? {
        // This Node, not the first on PATH (which may be the machine's older one).
        command: `"${process.execPath}" src/twins/main.ts`,
        url: `${config.store.twinUrl}/__twin/health`,
        reuseExistingServer: !process.env.CI,
        env: {
          STORE_MOCK_PORT: String(config.store.port),
          KITSU_MOCK_PORT: String(config.media.mode === 'twin' ? config.media.port : ''),
          KITSU_MOCK_CLOCK: 'virtual',
        },
        stdout: 'ignore',
        stderr: 'pipe',
        timeout: 30_000,
      }
    : undefined,
});
