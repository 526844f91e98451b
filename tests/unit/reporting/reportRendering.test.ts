/**
 * The built report, as a QA engineer opens it: a sample run through the real
 * store fixtures (sample/), `allure generate` with the repository's allurerc.ts,
 * and the harness's chromium (src/browser/chromium.ts) reading the result.
 * The tree must show the API, the area and the rule; the failing test its
 * category, spec link and the request and response it sent, with the token
 * redacted.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { chromiumLaunchOptions } from '../../../src/browser/chromium.ts';
import { serveReport, type ServedReport } from '../../../src/reporting/reportServer.ts';
import { CATEGORY_NAMES } from '../../../src/reporting/categories.ts';
import { freePort } from '../../../src/http/freePort.ts';

const ROOT = resolve(import.meta.dirname, '../../..');

test.describe.configure({ mode: 'serial' });

let dir: string;
let served: ServedReport;
let browser: Browser;
let page: Page;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  // Before the sample run: no chromium (the error names the fix) stops the test at once.
  const launchOptions = await chromiumLaunchOptions();
  dir = mkdtempSync(join(tmpdir(), 'report-test-'));
  const results = join(dir, 'allure-results');
  const { HARNESS_TARGET: _t, HARNESS_RUN_NAME: _r, CI: _ci, ...env } = process.env;
  const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '-c', 'tests/unit/reporting/sample/sample.config.ts'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...env, SAMPLE_ALLURE_RESULTS: results, STORE_TWIN_PORT: String(await freePort()), KITSU_TWIN_PORT: String(await freePort()) },
  });
  // One sample fails on purpose: exit 1 with a result for each.
  expect(run.status, `the sample run should fail its one deliberate failure:\n${run.stdout}\n${run.stderr}`).toBe(1);
  expect(readdirSync(results).filter((f) => f.endsWith('-result.json'))).toHaveLength(2);

  const report = join(dir, 'report');
  const generate = spawnSync(process.execPath, [join(ROOT, 'node_modules/allure/cli.js'), 'generate', results, '--output', report], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ALLURE_HISTORY_PATH: join(dir, 'history.jsonl') },
  });
  expect(generate.status, `allure generate failed:\n${generate.stdout}\n${generate.stderr}`).toBe(0);
  expect(existsSync(join(report, 'index.html'))).toBe(true);

  served = await serveReport(report);
  browser = await chromium.launch(launchOptions);
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(served.url);
});

test.afterAll(async () => {
  await browser?.close();
  await served?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the report tree shows the API, the area of the spec and the rule, with the environment', async () => {
  const sections = page.getByTestId('tree-section-title');
  await expect(sections.filter({ hasText: /^Store Commerce API$/ })).toBeVisible();
  await expect(sections.filter({ hasText: /^Pagination$/ })).toBeVisible();
  await expect(sections.filter({ hasText: /^store\.pagination\.total-count$/ })).toBeVisible();
  await expect(page.getByTestId('tree-leaf-title')).toHaveCount(2);
  // Environment: the target and where it was, no secret.
  await expect(page.getByTestId('report-header')).toBeVisible();
  await expect(page.locator('body')).toContainText('target');
  await expect(page.locator('body')).toContainText('(twin)');
});

test('a failing test shows its category, its spec link and the request and response it sent, with the token redacted', async () => {
  await page.getByTestId('tree-leaf-title').filter({ hasText: 'fails on purpose' }).click();
  await expect(page.getByTestId('test-result-status-failed')).toBeVisible();
  // On the twins a red test is the harness's to fix, not the provider's.
  await expect(page.locator('body')).toContainText(CATEGORY_NAMES.brokenTest);
  await expect(page.getByTestId('test-result-meta-link').first()).toContainText('spec:');
  await expect(page.getByTestId('test-result-error-message')).toContainText('[store.pagination.total-count]');

  await page.getByTestId('test-result-tab-attachments').click();
  const http = page.getByTestId('test-result-attachment-header').filter({ hasText: /HTTP 1: GET \/v1\/\d+\/products\?per_page=5 → 200/ });
  await expect(http).toHaveCount(1);
  await http.click();
  const content = page.getByTestId('code-attachment-content');
  await expect(content).toContainText('x-total-count:');
  await expect(content).toContainText('bearer [REDACTED]');
  // The sample store's own token appears nowhere: only the redacted form is shown.
  expect(await content.innerText()).not.toMatch(/bearer (?!\[REDACTED\])\S+/i);
});
