/**
 * The safety of live runs, proved in real live runs: the twins run as a
 * separate process (one for the file) and are used as the live target, and
 * small sample runs (sample/) go through the real store and media fixtures.
 *
 * Clean-up: the samples create products, categories, a webhook and library
 * entries, then fail on purpose (an expect that fails, an error thrown before
 * track()), marked as failing so that Playwright keeps their worker. In the
 * same run a control leaks one product behind the fixture's back. Afterwards
 * every count is what it was, but for that one product: the failing tests
 * left nothing, and the count can see what a test does leave.
 *
 * Budget: LIVE_REQUEST_BUDGET=6 and a sample whose first test reads until the
 * budget is spent. The guard refuses the request that would go over, the
 * clean-up still deletes what the test made, the next test (in the worker
 * Playwright starts after the failure) is refused before it sends anything,
 * and the reporter fails the run naming LIVE_REQUEST_BUDGET.
 */
import { expect, test } from '../../../src/testing/harnessTest.ts';
import type { TestInfo } from '@playwright/test';
import { startLiveTwins, runSample, type LiveTwins, type ResourceCounts } from './liveSample.ts';

const BUDGET = 6;

let twins: LiveTwins;

function report(testInfo: TestInfo, before: ResourceCounts, after: ResourceCounts): void {
  const counts = `resource counts before ${JSON.stringify(before)}, after ${JSON.stringify(after)}`;
  console.log(`${testInfo.title}: ${counts}`);
  testInfo.annotations.push({ type: 'resource counts', description: counts });
}

test.beforeAll(async () => {
  twins = await startLiveTwins();
});

test.afterAll(() => twins?.stop());

test.describe.configure({ mode: 'serial', timeout: 60_000 });

test("a run whose tests fail after writing leaves the store and the library as they were; a product made behind the fixture's back shows", async ({}, testInfo) => {
  const before = await twins.count();
  const run = runSample(['writes.store.sample.ts', 'writes.media.sample.ts', 'leak.store.sample.ts'], twins.env);
  const after = await twins.count();
  report(testInfo, before, after);

  // The four failures are marked (test.fail), so the run passes and keeps its workers; each of them did fail.
  expect(run.status, `the sample run must fail its four deliberate failures, as marked:\n${run.output}`).toBe(0);
  expect(run.stats).toMatchObject({ expected: 5, unexpected: 0 });
  expect(run.tests.filter((t) => t.status === 'failed').map((t) => t.title)).toHaveLength(4);
  expect(run.tests.flatMap((t) => t.errors).join('\n')).toMatch(/fails on purpose[\s\S]*thrown on purpose/);
  // The samples did write: the annotations count their creates and the clean-up's deletes.
  expect(run.output).toMatch(/live request budget: \d+ of \d+ requests used \(store [1-9]\d*, media [1-9]\d*\)/);
  // The control's one product, and nothing of the four failing tests.
  expect(after).toEqual({ ...before, products: before.products + 1 });
});

test('a live run stops sending once its budget is spent, still cleans up, and fails naming LIVE_REQUEST_BUDGET', async () => {
  const before = await twins.count();
  const run = runSample(['budget.store.sample.ts'], { ...twins.env, LIVE_REQUEST_BUDGET: String(BUDGET) });
  expect(await twins.count(), 'the clean-up is never refused').toEqual(before);

  expect(run.status, run.output).toBe(1);
  const [spender, next] = run.tests;
  expect(spender?.status).toBe('failed');
  expect(spender?.errors.join('\n')).toMatch(/GET \/v1\/\d+\/products refused, the run has sent 6 of its 6 requests \(LIVE_REQUEST_BUDGET\)/);
  // Store languages (1), create (1), reads up to the budget (4), then the clean-up's delete (1), which goes anyway.
  expect(spender?.annotations).toContainEqual({ type: 'live-requests', description: '7 store, 0 media, 1 refused' });
  // A fresh worker: only the ledger the reporter keeps tells it the run's budget is spent.
  expect(next?.status).toBe('failed');
  // Refused too: the new worker's own setup (the store's languages) and the test's read.
  expect(next?.annotations).toContainEqual({ type: 'live-requests', description: '0 store, 0 media, 3 refused' });
  expect(next?.errors.join('\n')).toMatch(/3 store request\(s\) of this test \(first: GET \/v1\/\d+\/store\) refused, the run has sent 7 of its 6 requests/);
  expect(run.output).toContain(`live request budget: 7 of ${BUDGET} requests used (store 7, media 0)`);
  expect(run.output).toMatch(
    /live request budget exceeded: over by 1\. The tests that used the most:\n\s+7 {2}store › budget\.store\.sample\.ts › spends the budget/,
  );
  expect(run.output).toContain('raise LIVE_REQUEST_BUDGET');
});
