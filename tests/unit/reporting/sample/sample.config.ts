/**
 * A tiny run whose Allure results the report test builds and renders: the real
 * store fixtures against twins on their own ports (report.sample.ts), under
 * verify's reporter, which writes the consumers a failed rule affects. Not part of any project of playwright.config.ts.
 */
import { defineConfig } from '@playwright/test';
import { harnessConfig } from '../../../../src/config/harnessConfig.ts';
import { environmentInfo } from '../../../../src/reporting/environmentInfo.ts';

process.env.PACT_DO_NOT_TRACK = 'true';
const resultsDir = process.env.SAMPLE_ALLURE_RESULTS;
if (!resultsDir) throw new Error('sample.config.ts: set SAMPLE_ALLURE_RESULTS to the directory the Allure results go to.');
const storePort = Number(process.env.STORE_TWIN_PORT);
const mediaPort = Number(process.env.KITSU_TWIN_PORT);

export default defineConfig({
  reporter: [
    ['allure-playwright', { resultsDir, environmentInfo: environmentInfo(harnessConfig(), 'report sample') }],
    // npm run verify's console: it adds the consumers each failed rule affects to the Allure results, as on a real run.
    [
      '../../../../src/reporters/VerifyReporter.ts',
      { apis: ['store'], target: 'twin', outputLog: `${resultsDir}/../verify/output.log`, allureResultsDir: resultsDir },
    ],
  ],
  outputDir: `${resultsDir}/../test-output`,
  projects: [{ name: 'store', testDir: '.', testMatch: '*.sample.ts' }],
  webServer: {
    command: `"${process.execPath}" src/twins/main.ts`,
    cwd: '../../../..',
    url: `http://127.0.0.1:${storePort}/__twin/health`,
    reuseExistingServer: false,
    env: { STORE_TWIN_PORT: String(storePort), KITSU_TWIN_PORT: String(mediaPort), KITSU_TWIN_CLOCK: 'virtual' },
    stdout: 'ignore',
    stderr: 'pipe',
    timeout: 30_000,
  },
});
