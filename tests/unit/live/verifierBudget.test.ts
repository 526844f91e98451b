/**
 * Pact's Verifier on the live request budget: its requests bypass the typed
 * clients, so its request filter charges them to the worker's guard. One
 * interaction of the committed store pact is verified against a store twin in
 * this process, as a live target would be (a guard and a ledger), through a
 * proxy that counts what reaches the provider.
 */
import { createServer, request, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestInfo } from '@playwright/test';
import type { FullResult, TestCase, TestResult } from '@playwright/test/reporter';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { HARNESS_USER_AGENT } from '../../../src/config/harnessConfig.ts';
import { freePort } from '../../../src/http/freePort.ts';
import RequestBudgetReporter from '../../../src/reporters/RequestBudgetReporter.ts';
import { LiveRequestGuard } from '../../../src/testing/LiveRequestGuard.ts';
import { startStoreTwin, type RunningStoreTwin } from '../../../src/twins/store/server.ts';
import { chargeToBudget } from '../../../suites/fixtures/liveTestEnd.ts';
import { STORE_PACT } from '../../../contracts/pactNames.ts';
import { storeTwinTarget } from '../../../contracts/store/providerStates.ts';
import { readPact } from '../../../contracts/verification/pactFile.ts';
import type { PactProvider } from '../../../contracts/verification/pactProvider.ts';
import { PactMismatchError, verifyInteraction } from '../../../contracts/verification/verifyInteraction.ts';

const INTERACTION = 'a request for the first page of products, 30 per page';

let twin: RunningStoreTwin;
let proxy: Server;
let target: PactProvider;
/** What reached the provider: the Verifier's requests (states are arranged through the control API, beside the proxy). */
let reached: string[] = [];

test.beforeAll(async () => {
  twin = await startStoreTwin({ port: await freePort() });
  proxy = createServer((req, res) => {
    reached.push(`${req.method} ${req.url}`);
    const upstream = request(new URL(req.url!, twin.url), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  const port = await freePort();
  await new Promise<void>((done) => proxy.listen(port, '127.0.0.1', done));
  const twinTarget = storeTwinTarget({ mode: 'twin', twinUrl: twin.url, port: 0, userAgent: HARNESS_USER_AGENT, allowWrites: true });
  target = { ...twinTarget, baseUrl: `http://127.0.0.1:${port}` };
});

test.afterAll(async () => {
  await new Promise((done) => proxy?.close(done));
  await twin?.close();
});

test.beforeEach(() => {
  reached = [];
});

/** A guard as a live worker has it: the ledger says earlier tests of the run sent `spent`. */
function liveGuard(budget: number, spent: number): LiveRequestGuard {
  const ledger = join(mkdtempSync(join(tmpdir(), 'verifier-budget-')), 'ledger');
  writeFileSync(ledger, spent > 0 ? `${spent}\n` : '');
  return new LiveRequestGuard(budget, ledger);
}

function verify(guard: LiveRequestGuard) {
  const pact = readPact(STORE_PACT);
  const interaction = pact.interactions.find((i) => i.description === INTERACTION);
  expect(interaction, `the store pact has no interaction "${INTERACTION}"`).toBeDefined();
  return verifyInteraction({ pact, interaction: interaction!, target, budget: { guard, api: 'store' } });
}

test("the Verifier's requests are counted as the API's, and the budget line adds them up", async () => {
  test.setTimeout(60_000);
  const guard = liveGuard(100, 3);
  const outcome = await verify(guard);
  expect(outcome.status, JSON.stringify(outcome)).toBe('verified');
  expect(reached).toEqual([expect.stringMatching(/^GET \/v1\/\d+\/products\?/)]);
  expect(guard.spent()).toBe(3 + reached.length);

  // The verify test's annotation, as declarePactVerification writes it, and the reporter's line.
  const result = { status: 'passed', annotations: [] as TestResult['annotations'] };
  chargeToBudget(guard, 'store', result as unknown as TestInfo);
  expect(result.annotations).toEqual([{ type: 'live-requests', description: '1 store, 0 media' }]);
  const lines: string[] = [];
  const reporter = new RequestBudgetReporter({ budget: 100, log: (m) => lines.push(m), workerEnv: {} });
  reporter.onBegin();
  const verifyTest = {
    parent: { project: () => ({ name: 'contracts-verify' }) },
    titlePath: () => ['', 'contracts-verify', 'verify.pact.spec.ts', INTERACTION],
  };
  reporter.onTestEnd(verifyTest as unknown as TestCase, result as unknown as TestResult);
  expect(await reporter.onEnd({ status: 'passed' } as FullResult)).toBeUndefined();
  expect(lines).toEqual(['live request budget: 1 of 100 requests used (store 1, media 0)']);
});

test('with the budget spent, the Verifier is refused before it reaches the provider and the test fails naming LIVE_REQUEST_BUDGET', async () => {
  test.setTimeout(60_000);
  const guard = liveGuard(5, 5);
  const error = await verify(guard).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  expect(error).not.toBeInstanceOf(PactMismatchError);
  expect((error as Error).message).toMatch(/GET \/v1\/\d+\/products \(Pact's Verifier\) refused, the run has sent 5 of its 5 requests \(LIVE_REQUEST_BUDGET\)/);
  expect(reached, 'nothing reached the provider').toEqual([]);
  const report = guard.report('store');
  expect(report.sent).toBe(0);
  expect(report.refused).toEqual([expect.stringMatching(/^GET \/v1\/\d+\/products \(Pact's Verifier\)$/)]);
});
