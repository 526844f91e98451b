/**
 * Live writes clean up after themselves even when a test fails: the twins run
 * as a separate process and are used as a live target; a sample run through
 * the real store and media fixtures creates products, categories, a webhook
 * and library entries, then fails on purpose (an expect that fails, an error
 * thrown before track()); afterwards every count is what it was before. The
 * control run leaks one product behind the fixture's back, and the count
 * shows it: the comparison can fail.
 */
import { expect, test } from '../../../src/testing/harnessTest.ts';
import type { TestInfo } from '@playwright/test';
import { startLiveTwins, runSample, type LiveTwins, type ResourceCounts } from './liveSample.ts';

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

test('a run whose tests fail after writing leaves the store and the library as they were', async ({}, testInfo) => {
  const before = await twins.count();
  const run = runSample(['writes.store.sample.ts', 'writes.media.sample.ts'], twins.env);
  const after = await twins.count();
  report(testInfo, before, after);

  expect(run.status, `the sample run must fail its four deliberate failures:\n${run.output}`).toBe(1);
  expect(run.stats).toMatchObject({ expected: 0, unexpected: 4 });
  expect(run.tests.flatMap((t) => t.errors).join('\n')).toMatch(/fails on purpose[\s\S]*thrown on purpose/);
  // The samples did write: the annotations count their creates and the clean-up's deletes.
  expect(run.output).toMatch(/live request budget: \d+ of \d+ requests used \(store [1-9]\d*, media [1-9]\d*\)/);
  expect(after).toEqual(before);
});

test("control: a product created behind the fixture's back changes the count", async ({}, testInfo) => {
  const before = await twins.count();
  const run = runSample(['leak.store.sample.ts'], twins.env);
  const after = await twins.count();
  report(testInfo, before, after);

  expect(run.status, run.output).toBe(0);
  expect(after).toEqual({ ...before, products: before.products + 1 });
});
