/**
 * `npm run report:screenshot [name]`: the picture of a failed test's page in
 * docs/reports.md. Opens the built report (npm run report, after a run with a
 * failure: docs/reports.md says how the shipped one was made) in the harness's
 * chromium (src/browser/chromium.ts), opens the first failed test (or the first
 * whose name contains `name`), with the tree unfolded down to it, and saves
 * docs/report.png: the error, the rule, and the consumers it affects.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../src/browser/chromium.ts';
import { serveReport } from '../src/reporting/reportServer.ts';
import { ALLURE_REPORT } from './lib/buildReport.ts';

const [wanted = ''] = process.argv.slice(2);
const OUT = 'docs/report.png';

interface BuiltResult {
  id: string;
  name: string;
  status: string;
}

/** The failed test to show: the report's data holds each test's id, which is its page's address. */
function failedTest(): BuiltResult | undefined {
  const dir = join(ALLURE_REPORT, 'data', 'test-results');
  const results = readdirSync(dir).map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as BuiltResult);
  return results.filter((result) => result.status === 'failed' && result.name.includes(wanted)).sort((a, b) => a.name.localeCompare(b.name))[0];
}

let shown: BuiltResult | undefined;
try {
  shown = failedTest();
} catch (error) {
  console.error(`report:screenshot: no built report in ${ALLURE_REPORT} (${(error as Error).message}). Run npm run report first.`);
  process.exit(1);
}
if (!shown) {
  console.error(`report:screenshot: the report has no failed test${wanted ? ` named like “${wanted}”` : ''}. Plant a break first (docs/reports.md).`);
  process.exit(1);
}
const launchOptions = await chromiumLaunchOptions().catch((error: unknown) => {
  console.error(`report:screenshot: ${(error as Error).message}`);
  process.exit(1);
});
const served = await serveReport(ALLURE_REPORT);
const browser = await chromium.launch(launchOptions);
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1200 } });
  await page.goto(`${served.url}#${shown.id}`);
  await page.getByTestId('test-result-error-message').waitFor();
  await page
    .getByTestId('test-result-description-frame')
    .contentFrame()
    .getByText(/Consumers affected/)
    .waitFor();
  // The page from its top: the error, then (past the parameters and labels) the description with the consumers.
  await page.getByTestId('test-result-description').scrollIntoViewIfNeeded();
  await page.getByTestId('test-result-info-title').scrollIntoViewIfNeeded();
  await page.screenshot({ path: OUT });
  console.log(`report:screenshot: ${OUT} (${shown.name})`);
} finally {
  await browser.close();
  await served.close();
}
