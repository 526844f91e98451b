/**
 * What an outage does to a run's verdicts and reports (the whole chain in a real run:
 * tests/unit/live/providerOutage.test.ts):
 * - a rule's test whose requests met it is skipped as not verified, with the reason, whatever its body did, and
 *   carries the outage's line; without an outage a failure stays a failure;
 * - the ProviderOutageReporter says each outage once, fails the run for it, puts it on the report's front page,
 *   and names the run's file of declared outages for the workers;
 * - the report files such a test in a category of its own, never as a broken test or a broken contract.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestInfo } from '@playwright/test';
import type { FullResult, TestCase, TestResult } from '@playwright/test/reporter';
import { matchCategory, normalizeCategoriesConfig } from '@allurereport/core-api';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { STORE_RULES, type StoreRuleId } from '../../../src/rules/storeRules.ts';
import { runUnderRule, type RuleContext } from '../../../src/testing/ruleTest.ts';
import { outageLine, OUTAGE_FILE_VARIABLE, type Outage } from '../../../src/http/providerOutage.ts';
import { PROVIDER_UNREACHABLE, unreachableReason } from '../../../src/testing/providerUnreachable.ts';
import ProviderOutageReporter from '../../../src/reporters/ProviderOutageReporter.ts';
import { CATEGORY_NAMES, reportCategories } from '../../../src/reporting/categories.ts';
import { reasonClass } from '../../../src/reporting/unverifiedRules.ts';

const OUTAGE: Outage = {
  api: 'store',
  origin: 'https://api.example.test',
  host: 'api.example.test',
  since: Date.UTC(2026, 0, 2, 22, 51, 7),
  declaredAt: Date.UTC(2026, 0, 2, 22, 51, 11),
  code: 'ECONNREFUSED',
  attempts: 5,
};
const LINE = outageLine(OUTAGE);

/** runUnderRule with a test info of its own and a skip that records its reason. */
async function run(ruleId: StoreRuleId, ctx: Partial<RuleContext>, body: () => Promise<void>) {
  const testInfo = { annotations: [] as { type: string; description?: string }[], expectedStatus: 'passed', attach: async () => undefined };
  let skipped: string | undefined;
  const outcome = await runUnderRule(
    STORE_RULES[ruleId]!,
    { target: 'live', allowWrites: true, ...ctx },
    testInfo as unknown as TestInfo,
    (reason) => void (skipped = reason),
    body,
  ).then(
    () => undefined,
    (error: unknown) => error as Error,
  );
  return { skipped, error: outcome, annotations: testInfo.annotations };
}

test.describe('a rule’s test', () => {
  const refused = () => Promise.reject(new Error('[store.auth.token-validated] GET /v1/1/store got no answer'));

  test('whose requests met an outage is not verified, with the reason and the line, whether its body failed or passed', async () => {
    for (const ruleId of ['store.auth.token-validated', 'store.auth.missing-or-invalid-token-401'] as const) {
      for (const body of [refused, async () => undefined]) {
        const { skipped, error, annotations } = await run(ruleId, { providerUnreachable: () => OUTAGE }, body);
        expect(error, ruleId).toBeUndefined();
        expect(skipped).toBe(unreachableReason(OUTAGE));
        expect(annotations).toEqual([{ type: PROVIDER_UNREACHABLE, description: LINE }]);
      }
    }
    expect(unreachableReason(OUTAGE)).toBe(
      'not verified: provider unreachable: the store API at api.example.test stopped answering at 22:51:07 UTC (connection refused); an outage, not a verdict',
    );
    // The run's summary counts it apart from every other reason.
    expect(reasonClass(unreachableReason(OUTAGE))).toBe('provider unreachable');
  });

  test('without an outage keeps its verdict: a contract failure fails, a field-notes difference on live is an observation', async () => {
    const contract = await run('store.auth.token-validated', { providerUnreachable: () => undefined }, refused);
    expect(contract.error?.message).toMatch(/^\[store\.auth\.token-validated\]/);
    expect(contract.skipped).toBeUndefined();
    const fieldNotes = await run('store.auth.missing-or-invalid-token-401', { providerUnreachable: () => undefined }, refused);
    expect(fieldNotes.error).toBeUndefined();
    expect(fieldNotes.annotations.map((a) => a.type)).toEqual(['observation']);
  });
});

test.describe('the ProviderOutageReporter', () => {
  const testCase = (title: string) => ({ title, annotations: [] }) as unknown as TestCase;
  const ended = (annotations: { type: string; description?: string }[], status: TestResult['status'] = 'skipped') =>
    ({ status, annotations }) as unknown as TestResult;

  test('says each outage once, as its first test ends, fails the run for it, and puts it on the report’s front page', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outage-report-'));
    try {
      const lines: string[] = [];
      const workerEnv: Record<string, string | undefined> = {};
      const reporter = new ProviderOutageReporter({ live: true, log: (line) => lines.push(line), workerEnv, allureResultsDir: dir });
      reporter.onBegin();
      const shared = workerEnv[OUTAGE_FILE_VARIABLE];
      expect(shared, 'the workers learn where the run’s outages are').toBeDefined();
      reporter.onTestEnd(testCase('a passed before'), ended([], 'passed'));
      expect(lines).toEqual([]);
      const kept = [{ type: PROVIDER_UNREACHABLE, description: LINE }];
      reporter.onTestEnd(testCase('the one that met it'), ended(kept));
      reporter.onTestEnd(testCase('a later one'), ended(kept));
      expect(lines, 'once, when the first test it kept ends').toEqual([LINE]);
      // Declared by a worker whose test said nothing of it (another origin): said at the end, once too.
      const other: Outage = { ...OUTAGE, api: 'media', origin: 'https://media.example.test', host: 'media.example.test' };
      writeFileSync(shared!, `${JSON.stringify(OUTAGE)}\n${JSON.stringify(other)}\n`);
      expect(await reporter.onEnd({ status: 'passed' } as FullResult)).toEqual({ status: 'failed' });
      expect(lines).toEqual([LINE, outageLine(other), expect.stringMatching(/^provider unreachable: 2 test\(s\) not verified \(skipped with the reason/)]);
      expect(workerEnv[OUTAGE_FILE_VARIABLE]).toBeUndefined();
      const globals = JSON.parse(readFileSync(join(dir, 'provider-outage-globals.json'), 'utf8')) as { errors: { message: string }[] };
      expect(globals.errors.map((e) => e.message)).toEqual([LINE, outageLine(other)]);
      expect(readFileSync(join(dir, 'provider-outage-attachment.md'), 'utf8')).toContain('2 test(s) not verified:\n\n- the one that met it\n- a later one');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a run without an outage, and a run on the twins, are left as they are', async () => {
    const lines: string[] = [];
    const workerEnv: Record<string, string | undefined> = {};
    for (const live of [true, false]) {
      const reporter = new ProviderOutageReporter({ live, log: (line) => lines.push(line), workerEnv, allureResultsDir: null });
      reporter.onBegin();
      reporter.onTestEnd(testCase('a'), ended([], 'failed'));
      expect(await reporter.onEnd({ status: 'failed' } as FullResult)).toBeUndefined();
    }
    expect(lines).toEqual([]);
    expect(workerEnv).toEqual({});
  });
});

test('the report files a test an outage kept from verifying in a category of its own: not a broken test, not a broken contract', () => {
  const rules = normalizeCategoriesConfig({ rules: reportCategories() });
  const categorise = (status: string, message: string, target: string) =>
    matchCategory(rules, { status: status as 'skipped', labels: [{ name: 'target', value: target }], message, flaky: false })?.name;
  for (const target of ['live', 'record']) expect(categorise('skipped', unreachableReason(OUTAGE), target)).toBe(CATEGORY_NAMES.providerUnreachable);
  expect(CATEGORY_NAMES.providerUnreachable).toBe('Provider unreachable (an outage, not a verdict)');
  // Any other skip is no outage; a failure that merely mentions one is still the failure it is.
  expect(categorise('skipped', 'store.x needs the twin', 'live')).toBeUndefined();
  expect(categorise('failed', `Error: ${unreachableReason(OUTAGE)}`, 'twin')).toBe(CATEGORY_NAMES.brokenTest);
});
