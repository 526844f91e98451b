import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FullConfig, FullResult, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import VerifyReporter, { groupOf } from '../../../src/reporters/VerifyReporter.ts';
import { PACT_SOURCES } from '../../../src/reporting/affectedConsumers.ts';
import { consumerOfPactTitle } from '../../../src/reporting/affectedConsumers.ts';

const ROOT = '/repo';

interface Fake {
  title: string;
  project: string;
  file: string;
  rules?: string[];
  retries?: number;
  /** A pact interaction's describe: `consumer → provider`. */
  pact?: string;
}

function fakeTest({ title, project, file, rules = [], retries = 0, pact }: Fake, outcome: () => string): TestCase {
  const projectSuite = { type: 'project', project: () => ({ name: project }) };
  const fileSuite = { type: 'file', title: file, location: { file: `${ROOT}/${file}` }, parent: projectSuite, project: () => ({ name: project }) };
  const parent = pact ? { type: 'describe', title: pact, parent: fileSuite, project: () => ({ name: project }) } : fileSuite;
  return {
    title,
    retries,
    timeout: 60_000,
    annotations: rules.map((id) => ({ type: 'rule', description: id })),
    parent,
    // A test declared by a helper (the pact verifications) has the helper's location.
    location: { file: `${ROOT}/contracts/verification/declarePactVerification.ts`, line: 1, column: 1 },
    outcome,
  } as unknown as TestCase;
}

function result(status: TestResult['status'], extra: Partial<TestResult> = {}): TestResult {
  return { status, retry: 0, annotations: [], attachments: [], ...extra } as unknown as TestResult;
}

const exchanges = (method: string, url: string, status: number) => ({
  name: 'exchanges.json',
  contentType: 'application/json',
  body: Buffer.from(JSON.stringify([{ request: { method, url, headers: {} }, response: { status, headers: {} } }])),
});

test('a line as each area and pact finishes, never before; then the table, one line per failure, and where the rest went', () => {
  const lines: string[] = [];
  const outputLog = join(mkdtempSync(join(tmpdir(), 'verify-reporter-')), 'output.log');
  const reporter = new VerifyReporter({
    apis: ['store'],
    rules: ['store.json', 'store.pagination.total-count'],
    target: 'twin',
    outputLog,
    write: (line) => lines.push(line),
    allureResultsDir: null,
  });
  const outcomes = new Map<string, string>();
  const make = (fake: Fake) => fakeTest(fake, () => outcomes.get(fake.title) ?? 'expected');
  const rootArray = make({
    title: 'store.json.no-root-element: a bare array',
    project: 'store',
    file: 'suites/store/conventions.spec.ts',
    rules: ['store.json.no-root-element'],
  });
  const snakeCase = make({
    title: 'store.json.snake-case-keys: keys',
    project: 'store',
    file: 'suites/store/conventions.spec.ts',
    rules: ['store.json.snake-case-keys'],
  });
  const count = make({
    title: 'store.pagination.total-count: on every page',
    project: 'store',
    file: 'suites/store/pagination.spec.ts',
    rules: ['store.pagination.total-count'],
    retries: 1,
  });
  const pact = make({
    title: 'a request for one category',
    project: 'contracts-verify',
    file: 'contracts/store/verify.pact.spec.ts',
    pact: 'store-integration → store-commerce-api',
  });
  const consumer = make({ title: 'creating a product', project: 'contracts-consumer', file: 'contracts/store/products.pact.spec.ts' });
  const tests = [rootArray, snakeCase, count, pact, consumer];
  reporter.onBegin({ workers: 2, rootDir: ROOT } as FullConfig, { allTests: () => tests } as unknown as Suite);
  expect(lines).toEqual(['verify: 5 tests of rules store.json, store.pagination.total-count on twin, 2 workers; a line as each area of the spec finishes']);

  reporter.onStdOut('Verifying a pact between store-integration and store-commerce-api\n');
  reporter.onTestEnd(rootArray, result('passed'));
  expect(lines).toHaveLength(1);
  outcomes.set(snakeCase.title, 'skipped');
  reporter.onTestEnd(snakeCase, result('skipped', { annotations: [{ type: 'skip', description: "store.json.snake-case-keys needs the twin's control API" }] }));
  expect(lines.at(-1)).toBe('  store json: 1 verified, 0 failed, 1 not verified (1 twin only)');

  // A first try that fails and is retried is not the end of the test.
  outcomes.set(count.title, 'unexpected');
  reporter.onTestEnd(count, result('failed', { retry: 0 }));
  expect(lines).toHaveLength(2);
  reporter.onTestEnd(
    count,
    result('failed', {
      retry: 1,
      error: { message: 'Error: [store.pagination.total-count] X-Total-Count is the count\n\nExpected: 45' },
      attachments: [exchanges('GET', 'http://127.0.0.1:4010/v1/1/products?page=2', 200)],
    }),
  );
  expect(lines.at(-1)).toBe('  store pagination: 0 verified, 1 failed, 0 not verified');

  outcomes.set(pact.title, 'expected');
  reporter.onTestEnd(pact, result('passed'));
  expect(lines.at(-1)).toBe('  store pact: 1 passed, 0 failed, 0 skipped');

  lines.length = 0;
  reporter.onEnd({ status: 'failed' } as FullResult);
  expect(lines[0]).toBe('  pacts written and checked against the schemas: 0 passed, 0 failed, 0 skipped (1 test(s) did not finish)');
  expect(lines[2]).toMatch(/^verify on twin: 2 tests passed, 1 failed, 1 skipped in \d+\.\d s; contract and reliance rules:$/);
  expect(lines.slice(3)).toEqual([
    '  API    verified  failed  not verified     observations  pact',
    '  store  1         1       1 (1 twin only)  0             1 passed',
    '1 failed test(s):',
    '  ✗ store.pagination.total-count  GET /v1/1/products?page=2 → 200  [store.pagination.total-count] X-Total-Count is the count',
    `who the 1 failed contract and reliance rule(s) affect (the consumers whose pacts use what broke; ${outputLog.replace('output.log', 'affected-consumers.md')}):`,
    '  store.pagination.total-count → store-integration: “a request for the first page of products, 30 per page” (not verified in this run; header X-Total-Count)',
    `each rule with its tests: reports/rule-coverage.md; the tests' and twins' own output: ${outputLog}`,
  ]);
  expect(readFileSync(outputLog, 'utf8')).toContain('Verifying a pact');
});

test('a test that names no rule counts in its pact, the pacts written, or its project', () => {
  expect(groupOf('contracts-verify', 'contracts/media/verify.pact.spec.ts')).toBe('media pact');
  expect(groupOf('contracts-publish', 'contracts/schemas.check.spec.ts')).toBe('pacts written and checked against the schemas');
  expect(groupOf('storefront', 'suites/storefront/x.spec.ts')).toBe('storefront');
});

/** exchanges.json of several exchanges, with the bodies the picker reads (a create's id). */
const recorded = (...list: [method: string, url: string, status: number, body?: unknown][]) => ({
  name: 'exchanges.json',
  contentType: 'application/json',
  body: Buffer.from(
    JSON.stringify(
      list.map(([method, url, status, body]) => ({
        request: { method, url, headers: {} },
        response: { status, headers: {}, body: body === undefined ? '' : JSON.stringify(body) },
      })),
    ),
  ),
});

/** A reporter of one API's rules on live, writing into a fresh folder; the lines it printed. */
function liveReporter(extra: Partial<ConstructorParameters<typeof VerifyReporter>[0]> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'verify-affected-'));
  const lines: string[] = [];
  const reporter = new VerifyReporter({
    apis: ['store'],
    target: 'live',
    outputLog: join(dir, 'output.log'),
    write: (line) => lines.push(line),
    allureResultsDir: null,
    ...extra,
  });
  return { dir, lines, reporter };
}

test("a failed test's line shows the request its failure is about, not the clean-up the fixture sent after it", () => {
  const { lines, reporter } = liveReporter({ pactSources: [] });
  const crud = fakeTest(
    {
      title: 'store.categories.crud: create, update, delete',
      project: 'store',
      file: 'suites/store/categories.spec.ts',
      rules: ['store.categories.get-category'],
    },
    () => 'unexpected',
  );
  reporter.onBegin({ workers: 1, rootDir: ROOT } as FullConfig, { allTests: () => [crud] } as unknown as Suite);
  reporter.onTestEnd(
    crud,
    result('failed', {
      error: { message: 'Error: [store.categories.get-category] body does not satisfy store/category:\n  /parent: must be integer' },
      attachments: [
        recorded(
          ['POST', 'https://api.example/v1/1/categories', 201, { id: 7 }],
          ['GET', 'https://api.example/v1/1/categories/7', 200, { id: 7, parent: 'x' }],
          // The fixture's clean-up after the failure: what the line used to show.
          ['DELETE', 'https://api.example/v1/1/categories/7', 200, {}],
        ),
      ],
    }),
  );
  reporter.onEnd({ status: 'failed' } as FullResult);
  expect(lines.find((line) => line.startsWith('  ✗ '))).toBe(
    '  ✗ store.categories.get-category  GET /v1/1/categories/7 → 200  [store.categories.get-category] body does not satisfy store/category:',
  );
});

test('a failed rule names the consumers whose pacts use what broke (and only those), in the summary, a file and its Allure result', () => {
  const pacts = mkdtempSync(join(tmpdir(), 'verify-pacts-'));
  for (const file of ['contracts/pacts/store-integration-store-commerce-api.json', 'tests/fixtures/pacts/storefront-menu-store-commerce-api.json'])
    copyFileSync(file, join(pacts, file.split('/').pop()!));
  const allure = mkdtempSync(join(tmpdir(), 'verify-allure-'));
  const ruleTitle = 'store.pagination.total-count: on every page';
  writeFileSync(
    join(allure, 'r1-result.json'),
    JSON.stringify({
      name: ruleTitle,
      status: 'failed',
      description: '**store.pagination.total-count**',
      labels: [{ name: 'story', value: 'store.pagination.total-count' }],
      attachments: [],
    }),
  );
  writeFileSync(
    join(allure, 'r2-result.json'),
    JSON.stringify({ name: 'another', status: 'passed', labels: [{ name: 'story', value: 'store.pagination.total-count' }] }),
  );
  const { dir, lines, reporter } = liveReporter({ pactSources: [pacts], allureResultsDir: allure });
  const count = fakeTest(
    { title: ruleTitle, project: 'store', file: 'suites/store/pagination.spec.ts', rules: ['store.pagination.total-count'] },
    () => 'unexpected',
  );
  const firstPage = fakeTest(
    {
      title: 'a request for the first page of products, 30 per page',
      project: 'contracts-verify',
      file: 'contracts/store/verify.pact.spec.ts',
      pact: 'store-integration → store-commerce-api',
    },
    () => 'unexpected',
  );
  const tree = fakeTest(
    {
      title: 'a request for the categories of a store with a tree',
      project: 'contracts-outside',
      file: 'contracts/verification/outsidePacts.verify.spec.ts',
      pact: 'storefront-menu → store-commerce-api',
    },
    () => 'expected',
  );
  reporter.onBegin({ workers: 1, rootDir: ROOT } as FullConfig, { allTests: () => [count, firstPage, tree] } as unknown as Suite);
  reporter.onTestEnd(
    count,
    result('failed', {
      error: { message: 'Error: [store.pagination.total-count] GET /v1/1/products?per_page=30 has no X-Total-Count' },
      attachments: [recorded(['GET', 'https://api.example/v1/1/products?per_page=30', 200, []])],
    }),
  );
  reporter.onTestEnd(
    firstPage,
    result('failed', { error: { message: "Error: The live store breaks the pact interaction … Expected header 'X-Total-Count'" } }),
  );
  reporter.onTestEnd(tree, result('passed'));
  reporter.onEnd({ status: 'failed' } as FullResult);

  const affected = lines.slice(lines.findIndex((line) => line.startsWith('who the')) + 1, -1);
  expect(affected).toEqual([
    '  store.pagination.total-count → store-integration: “a request for the first page of products, 30 per page” (failed in this run; header X-Total-Count)',
  ]);
  // The menu reads categories, not X-Total-Count: not named anywhere.
  const markdown = readFileSync(join(dir, 'affected-consumers.md'), 'utf8');
  expect(markdown).toContain('**store-integration**');
  expect(markdown).not.toContain('storefront-menu');
  const written = JSON.parse(readFileSync(join(dir, 'affected-consumers.json'), 'utf8')) as { breaks: { id: string; failingRequests: string[] }[] };
  expect(written.breaks).toEqual([expect.objectContaining({ id: 'store.pagination.total-count', failingRequests: ['GET /v1/1/products?per_page=30 → 200'] })]);

  const amended = JSON.parse(readFileSync(join(allure, 'r1-result.json'), 'utf8')) as { description: string; labels: { name: string; value: string }[] };
  expect(amended.description).toMatch(/^\*\*store\.pagination\.total-count\*\*\n\n#### Consumers affected\n\n- \*\*store-integration\*\*\n/);
  expect(amended.description).toContain('“a request for the first page of products, 30 per page”: failed in this run');
  expect(amended.labels).toContainEqual({ name: 'consumers affected', value: 'store-integration' });
  expect(JSON.parse(readFileSync(join(allure, 'r2-result.json'), 'utf8'))).not.toHaveProperty('description');
});

test("the pacts a failed rule is judged against are the harness's own and the outside consumers' the gate verifies", async () => {
  const { PACT_DIR, OUTSIDE_PACT_SOURCES } = await import('../../../contracts/pactNames.ts');
  expect([...PACT_SOURCES]).toEqual([PACT_DIR, ...OUTSIDE_PACT_SOURCES]);
  expect(consumerOfPactTitle('store-product-sync (latest from branch main) → store-commerce-api')).toBe('store-product-sync');
  expect(consumerOfPactTitle('storefront-menu → store-commerce-api (menu.json)')).toBe('storefront-menu');
});
