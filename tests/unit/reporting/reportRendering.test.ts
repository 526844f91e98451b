/**
 * The built report, as a QA engineer opens it: a sample run through the real
 * store fixtures and verify's reporter (sample/: two failures planted, one of
 * them a status check, and one skip), `allure generate` with the repository's
 * allurerc.ts, and the harness's chromium (src/browser/chromium.ts) reading the
 * result. The tree must show the API, the area and the rule; a failing test its
 * category, spec link, the request and response it sent (token redacted), its
 * message the right way round and the consumers it affects; no page may show
 * markup as text; the front page must list the consumers the failures affect.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { chromiumLaunchOptions } from '../../../src/browser/chromium.ts';
import { serveReport, type ServedReport } from '../../../src/reporting/reportServer.ts';
import { CATEGORY_NAMES } from '../../../src/reporting/categories.ts';
import { freePort } from '../../../src/http/freePort.ts';
import { AFFECTED_OVERVIEW } from '../../../src/reporting/affectedAllure.ts';
import { markupShown, type BuiltResult } from './reportPageText.ts';

const ROOT = resolve(import.meta.dirname, '../../..');

test.describe.configure({ mode: 'serial' });

let dir: string;
let report: string;
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
  // Two samples fail on purpose: exit 1 with a result for each of the four.
  expect(run.status, `the sample run should fail its deliberate failures:\n${run.stdout}\n${run.stderr}`).toBe(1);
  expect(readdirSync(results).filter((f) => f.endsWith('-result.json'))).toHaveLength(4);

  report = join(dir, 'report');
  const generate = spawnSync(process.execPath, [join(ROOT, 'node_modules/allure/cli.js'), 'generate', results, '--output', report], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ALLURE_HISTORY_PATH: join(dir, 'history.jsonl') },
  });
  expect(generate.status, `allure generate failed:\n${generate.stdout}\n${generate.stderr}`).toBe(0);
  expect(existsSync(join(report, 'index.html'))).toBe(true);

  served = await serveReport(report);
  browser = await chromium.launch(launchOptions);
  page = await browser.newPage({ viewport: { width: 1400, height: 1600 } });
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
  await expect(page.getByTestId('tree-leaf-title').filter({ hasText: /^store\.pagination\.total-count: / })).toHaveCount(2);
  // Environment: the target and where it was, no secret.
  await expect(page.getByTestId('report-header')).toBeVisible();
  await expect(page.locator('body')).toContainText('target');
  await expect(page.locator('body')).toContainText('(twin)');
});

test('a failing test shows its category, its spec link and the request and response it sent, with the token redacted', async () => {
  await page.getByTestId('tree-leaf-title').filter({ hasText: 'sample that fails on purpose' }).click();
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

test("no failed or skipped test's page shows markup, a marker or an escaped character as text", () => {
  const built = readdirSync(join(report, 'data/test-results')).map(
    (file) => JSON.parse(readFileSync(join(report, 'data/test-results', file), 'utf8')) as BuiltResult,
  );
  const notPassed = built.filter((result) => result.status !== 'passed');
  expect(notPassed.map((result) => result.status).sort()).toEqual(['failed', 'failed', 'skipped']);
  expect(notPassed.flatMap(markupShown)).toEqual([]);
});

test("a failed status check says what the provider answered as Received and the contract's status as Expected", async () => {
  await page.getByTestId('tree-leaf-title').filter({ hasText: 'sample status check that fails on purpose' }).click();
  const message = (await page.getByTestId('test-result-error-message').innerText()).replace(/\s+/g, ' ');
  expect(message).toMatch(/^Error: \[store\.pagination\.invalid-page-400\] GET \/v1\/\d+\/products\?page=1&per_page=5 answered 200, expected 400 /);
  expect(message).toContain('Expected: 400 Received: 200');
});

test("a failed test's page lists the consumers it affects, readably, under its description", async () => {
  await page.getByTestId('tree-leaf-title').filter({ hasText: 'sample that fails on purpose' }).click();
  const description = page.frameLocator('[data-testid="test-result-description-frame"]').locator('body');
  await expect(description).toContainText('Consumers affected');
  await expect(description).toContainText('store-integration');
  await expect(description).toContainText('“a request for the first page of products, 30 per page”: not verified in this run; uses header X-Total-Count');
  expect(await description.innerText()).not.toMatch(/<!--|\\|`/);
});

test('the front page lists the consumers the failures affect, with the failed tests', async () => {
  await page.getByTestId('nav-tab-globalAttachments').click();
  await page.getByText(AFFECTED_OVERVIEW).click();
  const overview = page.frameLocator('iframe[title="Markdown attachment"]').locator('body');
  await expect(overview).toContainText('store-integration');
  await expect(overview).toContainText('store.pagination.total-count: sample that fails on purpose');
});
