/**
 * The request budget's parts: the annotation a test carries, the reporter that
 * adds them up across workers and fails an over-budget run, and the guard that
 * refuses a request before it leaves once the run's ledger says the budget is
 * spent. The whole chain in a real run: liveRunSafety.test.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FullResult, TestCase, TestResult } from '@playwright/test/reporter';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import RequestBudgetReporter from '../../../src/reporters/RequestBudgetReporter.ts';
import { liveRequestsAnnotation, liveRequestsOf } from '../../../src/testing/liveRequestCount.ts';
import { BUDGET_SPENT_CODE, LEDGER_VARIABLE, LiveBudgetSpentError, LiveRequestGuard } from '../../../src/testing/LiveRequestGuard.ts';
import { StoreClient } from '../../../src/clients/store/StoreClient.ts';
import { budgetAnnotation, RequestBudget } from '../../../properties/support/liveBudget.ts';

type Annotation = { type: string; description?: string };

function fakeTest(project: string, title: string): TestCase {
  return { parent: { project: () => ({ name: project }) }, titlePath: () => ['', project, `${project}.spec.ts`, title] } as unknown as TestCase;
}

/** A reporter fed the given test ends, as the main process would see them from any worker. */
function reporterRun(budget: number | undefined, ends: { project: string; title: string; annotations: Annotation[]; status?: TestResult['status'] }[]) {
  const lines: string[] = [];
  const workerEnv: Record<string, string | undefined> = {};
  const reporter = new RequestBudgetReporter({ budget, log: (m) => lines.push(m), workerEnv });
  reporter.onBegin();
  for (const end of ends) {
    reporter.onTestEnd(fakeTest(end.project, end.title), { status: end.status ?? 'passed', annotations: end.annotations } as unknown as TestResult);
  }
  const outcome = reporter.onEnd({ status: 'passed' } as FullResult);
  return { lines, outcome, ledger: workerEnv[LEDGER_VARIABLE] };
}

const propertySpent = (used: number) => {
  const budget = new RequestBudget(60);
  budget.take(used);
  return budgetAnnotation(budget, 'live');
};

test('a test annotation says what it sent per API, and reads back summed', () => {
  expect(liveRequestsAnnotation({ store: 5 })).toEqual({ type: 'live-requests', description: '5 store, 0 media' });
  expect(liveRequestsAnnotation({ media: 2, refused: 1 })).toEqual({ type: 'live-requests', description: '0 store, 2 media, 1 refused' });
  // A test with both fixtures carries two annotations.
  expect(
    liveRequestsOf([liveRequestsAnnotation({ store: 5 }), liveRequestsAnnotation({ media: 2, refused: 1 }), { type: 'rule', description: '9 store' }]),
  ).toEqual({
    store: 5,
    media: 2,
    refused: 1,
  });
  expect(liveRequestsOf([{ type: 'rule', description: 'store.x' }])).toBeUndefined();
});

test('on a live run the reporter adds up every test, whichever worker ran it, and prints one line', async () => {
  const { lines, outcome } = reporterRun(2000, [
    { project: 'store', title: 'a', annotations: [liveRequestsAnnotation({ store: 500 })] },
    { project: 'store', title: 'b', annotations: [liveRequestsAnnotation({ store: 30 })] },
    { project: 'media', title: 'c', annotations: [liveRequestsAnnotation({ media: 282 })] },
    // The properties count their own requests (LIVE_RATE_BUDGET); their annotation is read as it is written.
    { project: 'properties', title: 'd', annotations: [propertySpent(41)] },
  ]);
  expect(await outcome).toBeUndefined();
  expect(lines).toEqual(['live request budget: 853 of 2000 requests used (store 530, media 282, properties 41)']);
});

test('tests that ran without a count are named by project, so the figure claims no more than it covers', async () => {
  const { lines } = reporterRun(2000, [
    { project: 'store', title: 'a', annotations: [liveRequestsAnnotation({ store: 12 })] },
    { project: 'contracts-verify', title: 'pact 1', annotations: [] },
    { project: 'contracts-verify', title: 'pact 2', annotations: [] },
    { project: 'contracts-verify', title: 'skipped on live', annotations: [], status: 'skipped' },
  ]);
  expect(lines[1]).toMatch(/^ {2}not counted: tests that ran with no count of their own \(contracts-verify 2\); .*Pact's Verifier/);
});

test('over the budget the reporter names the heaviest tests and LIVE_REQUEST_BUDGET, and fails the run', async () => {
  const { lines, outcome } = reporterRun(100, [
    { project: 'store', title: 'light', annotations: [liveRequestsAnnotation({ store: 10 })] },
    { project: 'store', title: 'heavy', annotations: [liveRequestsAnnotation({ store: 90 })] },
    { project: 'media', title: 'middle', annotations: [liveRequestsAnnotation({ media: 20 })] },
  ]);
  expect(await outcome).toEqual({ status: 'failed' });
  expect(lines[0]).toBe('live request budget: 120 of 100 requests used (store 100, media 20)');
  expect(lines[1]).toMatch(
    /^live request budget exceeded: over by 20\. The tests that used the most:\n\s+90 {2}store › store\.spec\.ts › heavy\n\s+20 {2}media › media\.spec\.ts › middle\n\s+10 {2}store/,
  );
  expect(lines[1]).toMatch(/raise LIVE_REQUEST_BUDGET/);
});

test('a run the guard refused requests fails even when what it sent fits the budget', async () => {
  const { lines, outcome } = reporterRun(100, [{ project: 'store', title: 'refused', annotations: [liveRequestsAnnotation({ store: 100, refused: 2 })] }]);
  expect(await outcome).toEqual({ status: 'failed' });
  expect(lines[1]).toMatch(/^live request budget exceeded: 2 request\(s\) refused once it was spent/);
});

test('on the twins and replays the reporter prints nothing and keeps no ledger', async () => {
  const { lines, outcome, ledger } = reporterRun(undefined, [{ project: 'store', title: 'a', annotations: [] }]);
  expect(await outcome).toBeUndefined();
  expect(lines).toEqual([]);
  expect(ledger).toBeUndefined();
});

test("the reporter's ledger is what the workers' guards read, and it is gone after the run", async () => {
  const lines: string[] = [];
  const workerEnv: Record<string, string | undefined> = {};
  const reporter = new RequestBudgetReporter({ budget: 10, log: (m) => lines.push(m), workerEnv });
  reporter.onBegin();
  const guard = new LiveRequestGuard(10, workerEnv[LEDGER_VARIABLE]);
  expect(guard.spent()).toBe(0);
  reporter.onTestEnd(fakeTest('store', 'a'), { status: 'failed', annotations: [liveRequestsAnnotation({ store: 7 })] } as unknown as TestResult);
  reporter.onTestEnd(fakeTest('properties', 'b'), { status: 'passed', annotations: [propertySpent(2)] } as unknown as TestResult);
  expect(guard.spent()).toBe(9);
  await reporter.onEnd({ status: 'failed' } as FullResult);
  expect(existsSync(workerEnv[LEDGER_VARIABLE]!)).toBe(false);
});

test.describe('the guard', () => {
  let server: Server;
  let hits = 0;
  let client: StoreClient;
  let guard: LiveRequestGuard;

  test.beforeEach(async () => {
    hits = 0;
    server = createServer((_req, res) => {
      hits += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":1,"languages":["es"],"main_language":"es"}');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const ledger = join(mkdtempSync(join(tmpdir(), 'guard-')), 'ledger');
    // Earlier tests of the run spent 3, as the reporter wrote them down.
    writeFileSync(ledger, '1\n2\n');
    // Writes allowed here: the budget, not the write flag, is under test (the write guard has its own tests).
    guard = new LiveRequestGuard(5, ledger, { store: true, media: true });
    client = new StoreClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/1`,
      token: 't',
      userAgent: 'guard test (https://example.invalid)',
      pace: false,
      dispatcher: guard.dispatcher('store'),
      onExchange: (e) => guard.sent('store', e),
    });
  });

  test.afterEach(() => server.close());

  test('refuses the request that would go over the budget before it leaves, and says which variable to raise', async () => {
    await client.getStore();
    await client.getStore();
    expect(guard.spent()).toBe(5);
    const refused = await client.getStore().catch((error: unknown) => error);
    expect(hits, 'the refused request never reached the service').toBe(2);
    expect((refused as Error).cause).toBeInstanceOf(LiveBudgetSpentError);
    expect((refused as { causeCode?: string }).causeCode).toBe(BUDGET_SPENT_CODE);
    expect(String((refused as Error).cause)).toMatch(/GET \/v1\/1\/store refused, the run has sent 5 of its 5 requests \(LIVE_REQUEST_BUDGET\)/);
    // Counted as sent: the two that left; refused: the one that did not.
    expect(guard.report('store')).toMatchObject({ sent: 2, refused: ['GET /v1/1/store'], runSpent: 5 });
  });

  test('never refuses a clean-up, and counts it', async () => {
    await client.getStore();
    await client.getStore();
    await guard.cleaningUp(async () => void (await client.send({ method: 'DELETE', path: '/products/1' })));
    expect(hits).toBe(3);
    // Outside the clean-up the budget holds again.
    await expect(client.getStore()).rejects.toThrow(/LIVE_REQUEST_BUDGET/);
    expect(guard.report('store')).toMatchObject({ sent: 3, refused: ['GET /v1/1/store'], runSpent: 6 });
  });

  test('without a ledger a worker guards what it has sent itself', async () => {
    const alone = new LiveRequestGuard(2);
    alone.sent('media', { attempt: 0, startedAt: 0, durationMs: 0, request: { method: 'GET', url: 'http://x/a', headers: {} } });
    alone.report('media');
    alone.sent('store', { attempt: 0, startedAt: 0, durationMs: 0, request: { method: 'GET', url: 'http://x/b', headers: {} } });
    expect(alone.spent()).toBe(2);
    expect(() => alone.admit('store', 'GET /c')).toThrow(LiveBudgetSpentError);
  });
});
