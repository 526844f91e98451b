/**
 * `npm run report:screenshot`: the README's picture of the report. Opens the
 * built report (npm run report) in the harness's chromium
 * (src/browser/chromium.ts), unfolds API → area → rule down to one test,
 * shows its request/response attachment, and saves docs/report.png.
 */
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../src/browser/chromium.ts';
import { serveReport } from '../src/reporting/reportServer.ts';
import { ALLURE_REPORT } from './lib/buildReport.ts';

const [epic = 'Store Commerce API', feature = 'Pagination', story = 'store.pagination.total-count'] = process.argv.slice(2);
const OUT = 'docs/report.png';

const launchOptions = await chromiumLaunchOptions().catch((error: unknown) => {
  console.error(`report:screenshot: ${(error as Error).message}`);
  process.exit(1);
});
const served = await serveReport(ALLURE_REPORT);
const browser = await chromium.launch(launchOptions);
try {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1400 } });
  await page.goto(served.url);
  const section = (name: string) => page.getByTestId('tree-section-title').filter({ hasText: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) });
  for (const name of [epic, feature, story]) {
    await section(name).first().click({ timeout: 15_000 });
  }
  await page.getByTestId('tree-leaf-title').filter({ hasText: story }).first().click();
  await page.getByTestId('test-result-tab-attachments').click();
  await page
    .getByTestId('test-result-attachment-header')
    .filter({ hasText: /^\d*HTTP 1:/ })
    .first()
    .click();
  await page.getByTestId('code-attachment-content').first().waitFor();
  // The tree from the top (environment, epics) down: scroll its panel back to the start.
  await section(epic)
    .first()
    .evaluate((el) => {
      for (let node = el.parentElement; node; node = node.parentElement) if (node.scrollHeight > node.clientHeight + 1) node.scrollTop = 0;
    });
  await page.screenshot({ path: OUT });
  console.log(`report:screenshot: ${OUT} (${epic} → ${feature} → ${story})`);
} finally {
  await browser.close();
  await served.close();
}
