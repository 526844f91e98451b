/**
 * The fuzzer finds a crash planted in each twin (twinBreaks.ts): the same sweep
 * passes on the healthy twin, fails on the one with the break, and its shrunk
 * counterexample is the request the break needs. Each sweep walks the routes
 * the break lives on, with enough cases that any seed finds it.
 */
import { expect, test } from '../../../src/testing/harnessTest.ts';
import type { FuzzRoute } from '../../fuzz/fuzzRoute.ts';
import type { FuzzCase } from '../../fuzz/malformation.ts';
import { openMediaFuzzer } from '../../fuzz/media/mediaFuzzer.ts';
import type { MediaFuzzRoute } from '../../fuzz/media/mediaRouteTable.ts';
import { openStoreFuzzer } from '../../fuzz/store/storeFuzzer.ts';
import { STORE_TWIN_BREAKS, type StoreTwinBreak } from '../../../src/twins/store/twinBreaks.ts';
import { MEDIA_TWIN_BREAKS, type MediaTwinBreak } from '../../../src/twins/media/twinBreaks.ts';
import { startMediaTwin } from '../../../src/twins/media/server.ts';
import { startStoreTwin } from '../../../src/twins/store/server.ts';
import { runFuzzer, type FuzzRun, type FuzzRunOptions } from './fuzzRun.ts';
import type { TwinFuzzer } from '../../fuzz/twinFuzzer.ts';
import type { TestInfo } from '@playwright/test';

const STORE_CRASH: StoreTwinBreak = 'crash-on-array-name';
const MEDIA_CRASH: MediaTwinBreak = 'crash-on-repeated-filter';

/** Product creates and updates, 150 cases each. */
const productWrites = { numRuns: 150, routes: (route: FuzzRoute) => ['POST', 'PUT'].includes(route.method) && /^products(\/:id)?$/.test(route.path) };
/** Every standard and read-only index, 8 cases each. */
const indexes = { numRuns: 8, routes: (route: MediaFuzzRoute) => route.kind !== 'special' && route.operation === 'index' };

/** A twin started for one sweep, logging what reached its 500 fallback. */
type StartTwin = (onInternalError: (error: unknown) => void) => Promise<{ readonly url: string; close(): Promise<void> }>;

/** One sweep of `options` over a twin `start` gives, closed afterwards; what its 500 fallback logged meanwhile. */
async function sweep<R extends FuzzRoute>(
  testInfo: TestInfo,
  start: StartTwin,
  open: (url: string) => Promise<TwinFuzzer<R>>,
  options: FuzzRunOptions<R>,
): Promise<{ run: FuzzRun<R>; internalErrors: unknown[] }> {
  const internalErrors: unknown[] = [];
  const twin = await start((error) => internalErrors.push(error));
  try {
    return { run: await runFuzzer(testInfo, await open(twin.url), options), internalErrors };
  } finally {
    await twin.close();
  }
}

const fuzzStore = (testInfo: TestInfo, twinBreak?: StoreTwinBreak) =>
  sweep(testInfo, (onInternalError) => startStoreTwin({ port: 0, ...(twinBreak ? { twinBreak } : {}), onInternalError }), openStoreFuzzer, productWrites);

const fuzzMedia = (testInfo: TestInfo, twinBreak?: MediaTwinBreak) =>
  sweep(testInfo, (onInternalError) => startMediaTwin({ port: 0, ...(twinBreak ? { twinBreak } : {}), onInternalError }), openMediaFuzzer, indexes);

function counterexampleOf(run: FuzzRun<FuzzRoute>): FuzzCase {
  const failure = run.outcome.failure;
  if (!failure) throw new Error('the fuzzer passed: it did not find the planted crash');
  return failure.counterexample;
}

test('the product-write fuzz sweep passes on the healthy store twin', async ({}, testInfo) => {
  const { run, internalErrors } = await fuzzStore(testInfo);
  expect(run.report === undefined, run.report).toBe(true);
  expect(internalErrors).toEqual([]);
});

test(`the same sweep finds the store's planted crash: ${STORE_TWIN_BREAKS[STORE_CRASH]}`, async ({}, testInfo) => {
  const { run, internalErrors } = await fuzzStore(testInfo, STORE_CRASH);
  const found = counterexampleOf(run);
  expect(run.report, 'the failure names the broken rule').toContain('never 5xx: the twin answered 500');
  expect(['POST products', 'PUT products/:id'], 'a product write').toContain(found.route.key);
  expect(found.malformation.kind, run.report).toBe('wrong-member-types');
  const members = found.malformation.kind === 'wrong-member-types' ? found.malformation.members : {};
  expect(Array.isArray(members['name']), `the shrunk body names an array: ${JSON.stringify(members)}`).toBe(true);
  expect(
    internalErrors.some((error) => error instanceof TypeError),
    'the twin logged the TypeError it answered 500 for',
  ).toBe(true);
});

test('the index fuzz sweep passes on the healthy media twin', async ({}, testInfo) => {
  const { run, internalErrors } = await fuzzMedia(testInfo);
  expect(run.report === undefined, run.report).toBe(true);
  expect(internalErrors).toEqual([]);
});

test(`the same sweep finds the media twin's planted crash: ${MEDIA_TWIN_BREAKS[MEDIA_CRASH]}`, async ({}, testInfo) => {
  const { run, internalErrors } = await fuzzMedia(testInfo, MEDIA_CRASH);
  const found = counterexampleOf(run);
  expect(run.report, 'the failure names the broken rule').toContain('never 5xx: the twin answered 500');
  expect(found.route.key, 'an index').toMatch(/^GET \/[a-z-]+$/);
  expect(found.malformation.kind, run.report).toBe('bad-query');
  const keys = found.malformation.kind === 'bad-query' ? found.malformation.params.map(([key]) => key) : [];
  const repeated = keys.filter((key, i) => key.startsWith('filter[') && keys.indexOf(key) !== i);
  expect(repeated, `the shrunk query repeats a filter: ${keys.join('&')}`).not.toEqual([]);
  expect(
    internalErrors.some((error) => error instanceof TypeError),
    'the twin logged the TypeError it answered 500 for',
  ).toBe(true);
});
