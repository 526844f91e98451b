import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import type { FullConfig, FullResult, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import RuleCoverageReporter from '../../../src/reporters/RuleCoverageReporter.ts';
import { STORE_RULES } from '../../../src/rules/storeRules.ts';

function fakeTest(title: string, rule: string, skip?: string): TestCase {
  return {
    title,
    annotations: [{ type: 'rule', description: rule }, ...(skip ? [{ type: 'skip', description: skip }] : [])],
    parent: { project: () => ({ name: 'store' }) },
  } as unknown as TestCase;
}

function run(tests: TestCase[], statuses: { status: TestResult['status']; observation?: boolean }[], gate: string) {
  const dir = join(mkdtempSync(join(tmpdir(), 'coverage-')), 'rule-coverage');
  process.env.HARNESS_RULE_GATE = gate;
  const reporter = new RuleCoverageReporter({ outputDir: dir, log: () => undefined, allureResultsDir: null });
  reporter.onBegin({} as FullConfig, { allTests: () => tests } as unknown as Suite);
  tests.forEach((t, i) =>
    reporter.onTestEnd(t, {
      status: statuses[i]!.status,
      annotations: statuses[i]!.observation ? [{ type: 'observation', description: 'x' }] : [],
    } as unknown as TestResult),
  );
  return { dir, outcome: reporter.onEnd({ status: 'passed' } as FullResult) };
}

test.afterEach(() => {
  delete process.env.HARNESS_RULE_GATE;
});

test('the gate fails the run when a rule of a gated API has no test, and lists it', async () => {
  const { outcome, dir } = run([fakeTest('one', 'store.json.no-root-element')], [{ status: 'passed' }], 'store');
  expect(await outcome).toEqual({ status: 'failed' });
  expect(readFileSync(join(dir, '..', 'rule-coverage.md'), 'utf8')).toContain('| `store.json.snake-case-keys` | contract | any | **no test** |');
});

test('with a test for every rule the gate passes, and an observation is reported as such', async () => {
  const ids = Object.keys(STORE_RULES);
  const { outcome, dir } = run(
    ids.map((id) => fakeTest(id, id)),
    ids.map((_, i) => ({ status: 'passed' as const, observation: i === 0 })),
    'store',
  );
  expect(await outcome).toBeUndefined();
  const file = JSON.parse(readFileSync(join(dir, 'twin.json'), 'utf8')) as { rules: Record<string, { status: string }[]> };
  expect(file.rules[ids[0]!]![0]!.status).toBe('observation');
});

test('a test naming a rule the catalogue lacks fails the run', async () => {
  const { outcome } = run([fakeTest('typo', 'store.json.no-rot-element')], [{ status: 'passed' }], '');
  expect(await outcome).toEqual({ status: 'failed' });
});

test("a run that names no rule (npm test's unit run) leaves the coverage the same target's other run wrote", async () => {
  const { dir } = run([fakeTest('one', 'store.json.no-root-element')], [{ status: 'passed' }], '');
  const written = readFileSync(join(dir, 'twin.json'), 'utf8');
  const unitTest = { title: 'unit', annotations: [], parent: { project: () => ({ name: 'unit' }) } } as unknown as TestCase;
  const reporter = new RuleCoverageReporter({ outputDir: dir, log: () => undefined, allureResultsDir: null });
  reporter.onBegin({} as FullConfig, { allTests: () => [unitTest] } as unknown as Suite);
  reporter.onTestEnd(unitTest, { status: 'passed', annotations: [] } as unknown as TestResult);
  expect(await reporter.onEnd({ status: 'passed' } as FullResult)).toBeUndefined();
  expect(readFileSync(join(dir, 'twin.json'), 'utf8')).toBe(written);
  // Gated, the same empty run still fails: no API's rules were verified.
  process.env.HARNESS_RULE_GATE = 'store';
  expect(await reporter.onEnd({ status: 'passed' } as FullResult)).toEqual({ status: 'failed' });
});

test('skipped is never green: contract and reliance rules whose tests all skipped are listed with the reason, in the last lines, rule-coverage.md and Allure', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'coverage-')), 'rule-coverage');
  const allure = join(dir, '..', 'allure-results');
  const lines: string[] = [];
  const reporter = new RuleCoverageReporter({ outputDir: dir, log: (m) => lines.push(m), allureResultsDir: allure });
  const writeSkip = 'store.products.create creates, changes or deletes data; set STORE_ALLOW_WRITES=1 to check it on live.';
  const tests = [
    fakeTest('verified', 'store.json.no-root-element'),
    fakeTest('skipped for the flag', 'store.products.create', writeSkip),
    fakeTest('field notes skipped', 'store.products.crud', 'whatever'),
    fakeTest('failed', 'store.json.snake-case-keys'),
  ];
  reporter.onBegin({} as FullConfig, { allTests: () => tests } as unknown as Suite);
  const statuses: TestResult['status'][] = ['passed', 'skipped', 'skipped', 'failed'];
  tests.forEach((t, i) => reporter.onTestEnd(t, { status: statuses[i]!, annotations: [] } as unknown as TestResult));
  await reporter.onEnd({ status: 'failed' } as FullResult);
  const text = lines.join('\n');
  expect(text).toMatch(/1 contract\/reliance rule\(s\) verified, 1 failed, \d+ NOT verified/);
  expect(text).toContain(`not verified: store.products.create (contract): ${writeSkip}`);
  // A field-notes rule is an observation on live: not in the list.
  expect(text).not.toContain('store.products.crud');
  // Rules with no test in this run are not verified either.
  // The console shows the first of them (the catalogue's order) and counts the rest.
  expect(text).toMatch(/not verified: store\.versioning\.v1-path \(contract\): no test of it ran/);
  const markdown = readFileSync(join(dir, '..', 'rule-coverage.md'), 'utf8');
  expect(text, 'the rest are counted, not dropped').toMatch(/… and \d+ more in /);
  expect(markdown).toContain('## Not verified on twin');
  expect(markdown).toContain('| `store.products.create` | contract |');
  const results = readdirSync(allure).filter((f) => f.endsWith('-result.json'));
  expect(results).toHaveLength(1);
  const result = JSON.parse(readFileSync(join(allure, results[0]!), 'utf8')) as { status: string; name: string };
  expect(result).toMatchObject({ status: 'skipped', name: 'rules not verified on twin' });
});

test('a passing test of several rules that could not verify one of them leaves that rule unverified, with the reason', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'coverage-')), 'rule-coverage');
  const lines: string[] = [];
  const reporter = new RuleCoverageReporter({ outputDir: dir, log: (m) => lines.push(m), allureResultsDir: null });
  const walk = {
    title: 'walk',
    annotations: [
      { type: 'rule', description: 'store.pagination.follow-links' },
      { type: 'rule', description: 'store.pagination.default-page-size' },
    ],
    parent: { project: () => ({ name: 'properties' }) },
  } as unknown as TestCase;
  reporter.onBegin({} as FullConfig, { allTests: () => [walk] } as unknown as Suite);
  reporter.onTestEnd(walk, {
    status: 'passed',
    annotations: [{ type: 'not-verified', description: 'store.pagination.default-page-size: not verified: it needs at least 31 products' }],
  } as unknown as TestResult);
  await reporter.onEnd({ status: 'passed' } as FullResult);
  const file = JSON.parse(readFileSync(join(dir, 'twin.json'), 'utf8')) as { rules: Record<string, { status: string }[]> };
  expect(file.rules['store.pagination.follow-links']![0]!.status).toBe('passed');
  expect(file.rules['store.pagination.default-page-size']![0]!.status).toBe('skipped');
  // The console lists the first of the rules not verified; the file lists them all, each with its reason.
  const markdown = readFileSync(join(dir, '..', 'rule-coverage.md'), 'utf8');
  expect(markdown).toMatch(/`store\.pagination\.default-page-size`.*not verified: it needs at least 31 products/);
});
