/**
 * Counterexamples the fuzzer found in the twins, replayed through the same
 * oracle so they stay fixed whatever a sweep's seed happens to draw.
 */
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { fuzzCase } from '../../fuzz/malformation.ts';
import { openMediaFuzzer } from '../../fuzz/media/mediaFuzzer.ts';
import { openStoreFuzzer } from '../../fuzz/store/storeFuzzer.ts';
import type { TwinFuzzer } from '../../fuzz/twinFuzzer.ts';
import type { FuzzRoute } from '../../fuzz/fuzzRoute.ts';
import { startMediaTwin } from '../../../src/twins/media/server.ts';
import { startStoreTwin } from '../../../src/twins/store/server.ts';

function route<R extends FuzzRoute>(fuzzer: TwinFuzzer<R>, key: string): R {
  const found = fuzzer.routes.find((candidate) => candidate.key === key);
  if (!found) throw new Error(`no route ${key} in the table`);
  return found;
}

test("an HTTP/1.1 request without Host gets each twin's own 400 error body, not Node's empty one", async () => {
  const store = await startStoreTwin({ port: 0 });
  const media = await startMediaTwin({ port: 0 });
  try {
    const storeFuzzer = await openStoreFuzzer(store.url);
    await storeFuzzer.runCase(fuzzCase(route(storeFuzzer, 'GET store'), { kind: 'broken-http', how: 'no-host' }));
    const mediaFuzzer = await openMediaFuzzer(media.url);
    await mediaFuzzer.runCase(fuzzCase(route(mediaFuzzer, 'GET /anime/{id}'), { kind: 'broken-http', how: 'no-host' }));
  } finally {
    await store.close();
    await media.close();
  }
});

test('a password that is not a string is a 422 on a user update too, not silently dropped', async () => {
  const internalErrors: unknown[] = [];
  const media = await startMediaTwin({ port: 0, onInternalError: (error) => internalErrors.push(error) });
  try {
    const fuzzer = await openMediaFuzzer(media.url);
    await fuzzer.runCase(fuzzCase(route(fuzzer, 'PATCH /users/{id}'), { kind: 'wrong-member-types', members: { 'attributes.password': 12345 } }));
  } finally {
    await media.close();
  }
  expect(internalErrors).toEqual([]);
});
