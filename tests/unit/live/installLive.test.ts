/**
 * The install flow's live check (store.oauth.bad-code-refused), run as a live
 * run runs it: against a twin process reached with nothing but URLs and
 * credentials, the token endpoint named by STORE_AUTH_URL and the app by
 * STORE_APP_ID / STORE_APP_SECRET; the secret is never printed. Without the
 * app's credentials it is skipped naming them: shown from the settings to the
 * reason the test skips with (tokenEndpointSkipReason), without a second
 * Playwright run for it, which cost a runner and a worker. That a token endpoint answering
 * otherwise is an observation, not a failure, holds for every field-notes rule
 * on live and is shown once for all of them (tests/unit/testing/liveVerdicts.test.ts).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { RECORDING_PLAN, signInOnMediaTwin, startTwinProcess, stopTwinProcess, twinAsLiveEnv } from '../../../scripts/lib/twinProcess.ts';
import { runTool } from '../../../scripts/lib/runTool.ts';
import { freePort } from '../../../src/http/freePort.ts';
import { SEEDED_APP } from '../../../src/twins/store/install/apps.ts';
import { loadConfig } from '../../../src/config/harnessConfig.ts';
import { tokenEndpointSkipReason } from '../../../suites/fixtures/installFlow.ts';

const RULE = 'store.oauth.bad-code-refused';

const USER_AGENT = 'api-contract-harness install live test (https://example.invalid/api-contract-harness)';

interface Result {
  status: string;
  annotations: { type: string; description?: string }[];
}

let twin: ChildProcess | undefined;
let env: Record<string, string>;

test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.beforeAll(async () => {
  const [storePort, mediaPort] = [await freePort(), await freePort()];
  twin = await startTwinProcess(storePort, mediaPort, 'ignore', RECORDING_PLAN);
  const storeUrl = `http://127.0.0.1:${storePort}`;
  const mediaToken = await signInOnMediaTwin(mediaPort);
  // Without the app's credentials the live path sets: each test adds them or not.
  const {
    STORE_APP_ID: _id,
    STORE_APP_SECRET: _secret,
    ...live
  } = twinAsLiveEnv({
    storeUrl,
    mediaUrl: `http://127.0.0.1:${mediaPort}/api/edge`,
    mediaToken,
    userAgent: USER_AGENT,
  });
  env = { ...live, HARNESS_TARGET: 'live', STORE_AUTH_URL: storeUrl };
});

test.afterAll(async () => {
  if (twin) await stopTwinProcess(twin);
});

/** Runs the bad-code test alone on live with these extra variables; its one result and what the run printed. */
async function badCodeOnLive(extra: Record<string, string>): Promise<{ result: Result; log: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'install-live-'));
  try {
    const report = join(dir, 'report.json');
    await runTool(
      'playwright',
      ['test', '--project=store', '--no-deps', 'suites/store/install.spec.ts', '-g', 'bad-code-refused', '--reporter=json'],
      { ...env, ...extra, PLAYWRIGHT_JSON_OUTPUT_NAME: report, HARNESS_RUN_NAME: 'install-live-self-test' },
      { log: join(dir, 'run.log'), echo: false },
    );
    const json = JSON.parse(readFileSync(report, 'utf8')) as { suites: { specs: { tests: { results: Result[] }[] }[] }[] };
    const results = json.suites.flatMap((s) => s.specs.flatMap((spec) => spec.tests.flatMap((t) => t.results)));
    expect(results, 'one result: the bad-code test').toHaveLength(1);
    return { result: results[0]!, log: readFileSync(join(dir, 'run.log'), 'utf8') + readFileSync(report, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("with the app's credentials, the token endpoint's answer to a code it never issued is verified on live, and the secret is never written", async () => {
  const { result, log } = await badCodeOnLive({ STORE_APP_ID: String(SEEDED_APP.id), STORE_APP_SECRET: SEEDED_APP.secret });
  expect(result.status).toBe('passed');
  // A field-notes rule: on live a different answer is an observation, so "passed" alone would not say it agreed.
  expect(result.annotations.filter((a) => a.type === 'observation')).toEqual([]);
  expect(log).not.toContain(SEEDED_APP.secret);
});

test("without the app's credentials it is skipped, naming STORE_APP_ID and STORE_APP_SECRET; with them it runs", () => {
  const installOf = (extra: Record<string, string>) => {
    const { store } = loadConfig({ ...env, ...extra });
    return store.mode === 'live' ? store.install : undefined;
  };
  expect(tokenEndpointSkipReason(RULE, installOf({}))).toMatch(/^store\.oauth\.bad-code-refused needs .*STORE_APP_ID and STORE_APP_SECRET/);
  expect(tokenEndpointSkipReason(RULE, installOf({ STORE_APP_ID: String(SEEDED_APP.id), STORE_APP_SECRET: SEEDED_APP.secret }))).toBeUndefined();
});
