import { expect, test } from '../../../src/testing/harnessTest.ts';
import { openStoreFuzzer } from '../../fuzz/store/storeFuzzer.ts';
import { startStoreTwin, type RunningStoreTwin } from '../../../src/twins/store/server.ts';
import { runFuzzer } from './fuzzRun.ts';

let twin: RunningStoreTwin;
const internalErrors: string[] = [];

test.beforeAll(async () => {
  twin = await startStoreTwin({ port: 0, onInternalError: (error, request) => internalErrors.push(`${request}: ${String(error)}`) });
});
test.afterAll(async () => {
  await twin.close();
});

test('malformed requests to every store route get the documented answer, never a 5xx', async ({}, testInfo) => {
  const fuzzer = await openStoreFuzzer(twin.url);
  const { report, unvisited } = await runFuzzer(testInfo, fuzzer, { numRuns: 12 });

  expect(report === undefined, report).toBe(true);
  expect(unvisited, 'every route of the table got cases').toEqual([]);
  expect(internalErrors, 'no request reached the 500 fallback').toEqual([]);
});
