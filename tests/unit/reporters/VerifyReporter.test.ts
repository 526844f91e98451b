import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FullConfig, FullResult, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import VerifyReporter, { groupOf } from '../../../src/reporters/VerifyReporter.ts';

const ROOT = '/repo';

interface Fake {
  title: string;
  project: string;
  file: string;
  rules?: string[];
  retries?: number;
}

function fakeTest({ title, project, file, rules = [], retries = 0 }: Fake, outcome: () => string): TestCase {
  const projectSuite = { type: 'project', project: () => ({ name: project }) };
  const fileSuite = { type: 'file', location: { file: `${ROOT}/${file}` }, parent: projectSuite, project: () => ({ name: project }) };
  return {
    title,
    retries,
    timeout: 60_000,
    annotations: rules.map((id) => ({ type: 'rule', description: id })),
    parent: fileSuite,
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
  const pact = make({ title: 'a request for one category', project: 'contracts-verify', file: 'contracts/store/verify.pact.spec.ts' });
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
    `each rule with its tests: reports/rule-coverage.md; the tests' and twins' own output: ${outputLog}`,
  ]);
  expect(readFileSync(outputLog, 'utf8')).toContain('Verifying a pact');
});

test('a test that names no rule counts in its pact, the pacts written, or its project', () => {
  expect(groupOf('contracts-verify', 'contracts/media/verify.pact.spec.ts')).toBe('media pact');
  expect(groupOf('contracts-publish', 'contracts/schemas.check.spec.ts')).toBe('pacts written and checked against the schemas');
  expect(groupOf('storefront', 'suites/storefront/x.spec.ts')).toBe('storefront');
});
