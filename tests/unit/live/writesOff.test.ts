/**
 * The write guard over a whole live run: the store and media suites, the
 * properties and the pact verification, against twins-as-live with both write
 * flags off. Each API sits behind a proxy that notes every method reaching it;
 * not one POST, PUT, PATCH or DELETE may arrive, whoever would have sent it (a
 * test, a clean-up, a pact state, Pact's Verifier, a property). The run itself
 * must stay green: what needs a write is skipped, naming the flag.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { RECORDING_PLAN, signInOnMediaTwin, startTwinProcess, twinAsLiveEnv } from '../../../scripts/lib/twinProcess.ts';
import { runTool } from '../../../scripts/lib/runTool.ts';
import { startBreakingProxy } from '../../../src/testing/providerBreaks/breakingProxy.ts';
import { freePort } from '../../../src/http/freePort.ts';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const USER_AGENT = 'api-contract-harness writes-off test (https://example.invalid/api-contract-harness)';

interface Stats {
  expected: number;
  unexpected: number;
  skipped: number;
}

let twin: ChildProcess | undefined;
const proxies: Server[] = [];

test.afterAll(() => {
  twin?.kill();
  for (const proxy of proxies) proxy.close();
});

test('with the write flags off, no POST, PUT, PATCH or DELETE reaches either provider during a whole live run, and the run is green', async () => {
  test.setTimeout(240_000);
  const [storePort, mediaPort] = [await freePort(), await freePort()];
  // The plus plan, as the gate's recording: the run is not held back by the contract's bucket.
  twin = await startTwinProcess(storePort, mediaPort, 'ignore', RECORDING_PLAN);
  const mediaToken = await signInOnMediaTwin(mediaPort);
  const arrived: string[] = [];
  const counting = (api: string) => ({
    onRequest: <R extends { method: string; path: string }>(req: R): R => (arrived.push(`${api} ${req.method} ${req.path}`), req),
  });
  const store = await startBreakingProxy(`http://127.0.0.1:${storePort}`, counting('store'));
  const media = await startBreakingProxy(`http://127.0.0.1:${mediaPort}`, counting('media'));
  proxies.push(store.server, media.server);

  const {
    STORE_ALLOW_WRITES: _s,
    KITSU_ALLOW_WRITES: _k,
    ...flagsOff
  } = twinAsLiveEnv({
    storeUrl: store.url,
    mediaUrl: `${media.url}/api/edge`,
    mediaToken,
    userAgent: USER_AGENT,
  });
  const dir = mkdtempSync(join(tmpdir(), 'writes-off-'));
  const report = join(dir, 'report.json');
  const code = await runTool(
    'playwright',
    ['test', '--project=store', '--project=media', '--project=properties', '--project=contracts-verify', '--reporter=json', '--workers=1'],
    // One worker: a second per project is one more start for no earlier end (the unit tests fill the other core).
    // The properties on the gate recording's small budget: every sender still runs, in fewer requests.
    // The pacts as committed: writing them again reaches no provider.
    {
      ...flagsOff,
      HARNESS_TARGET: 'live',
      LIVE_RATE_BUDGET: '20',
      HARNESS_PACTS: 'committed',
      PLAYWRIGHT_JSON_OUTPUT_NAME: report,
      HARNESS_RUN_NAME: 'writes-off-self-test',
    },
    { log: join(dir, 'run.log'), echo: false },
  );
  const writes = arrived.filter((line) => WRITES.has(line.split(' ')[1]!));
  expect(writes, 'requests that could write reached a provider although STORE_ALLOW_WRITES and KITSU_ALLOW_WRITES were off').toEqual([]);
  const stats = (JSON.parse(readFileSync(report, 'utf8')) as { stats: Stats }).stats;
  expect(arrived.length, 'the run reached both providers').toBeGreaterThan(100);
  expect(new Set(arrived.map((line) => line.split(' ')[0])), 'both APIs were verified').toEqual(new Set(['store', 'media']));
  expect({ code, unexpected: stats.unexpected }, `the live run with the flags off is green (log: ${join(dir, 'run.log')})`).toEqual({ code: 0, unexpected: 0 });
  expect(stats.skipped, 'what needs a write was skipped').toBeGreaterThan(0);
  // The read-only tests of both suites, each route-table group one test: far more than a run that skipped all.
  expect(stats.expected, 'and the rest verified').toBeGreaterThan(80);
  // A failure keeps the run's log for reading (its path is in the message).
  rmSync(dir, { recursive: true, force: true });
});
