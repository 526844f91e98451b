import { expect, test } from '../../../src/testing/harnessTest.ts';
import { openMediaFuzzer } from '../../fuzz/media/mediaFuzzer.ts';
import { startMediaTwin, type RunningMediaTwin } from '../../../src/twins/media/server.ts';
import { runFuzzer } from './fuzzRun.ts';

let twin: RunningMediaTwin;
const internalErrors: string[] = [];

test.beforeAll(async () => {
  twin = await startMediaTwin({ port: 0, onInternalError: (error, request) => internalErrors.push(`${request}: ${String(error)}`) });
});
test.afterAll(async () => {
  await twin.close();
});

test('malformed requests to every media route get the documented answer, never a 5xx', async ({}, testInfo) => {
  const fuzzer = await openMediaFuzzer(twin.url);
  const { report, unvisited } = await runFuzzer(testInfo, fuzzer, { numRuns: 2 });

  expect(report === undefined, report).toBe(true);
  expect(unvisited, 'every route of the table got cases').toEqual([]);
  expect(internalErrors, 'no request reached the 500 fallback').toEqual([]);
});
