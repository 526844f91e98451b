/**
 * `npm test`: the project's own gate.
 *   1. every project (the harness's unit tests, the store suites) against the twins,
 *      with the rule-coverage gate on;
 *   2. the live-capable suites of both APIs, the properties and the pact verification with
 *      HARNESS_TARGET=record against twins started as a separate process: the live path,
 *      proven with nothing but URLs and credentials, and recorded into reports/recordings;
 *   3. the same suites and pacts replayed from that recording with the twins stopped;
 *   4. the same again from the recordings the repository ships (recordings/), so they
 *      stay in step with the suites.
 * The recordings, reports and logs are then scanned for the tokens the runs were given.
 * Then one summary line. Extra arguments go to the first run (e.g. a file filter).
 */
import { runTool } from './lib/runTool.ts';
import { SEEDED_STORE, signInOnMediaTwin, startTwinProcess, twinAsLiveEnv } from './lib/twinProcess.ts';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { summaryLine, tallyReport, type Tally } from './summarize.ts';
import { writeRecordedTarget } from '../src/recording/recordedTarget.ts';
import { leakScan } from '../src/recording/leakScan.ts';
import { loadConfig } from '../src/config/harnessConfig.ts';

const LIVE_PATH_PORT = Number(process.env.GATE_LIVE_PORT ?? 4110);
const LIVE_PATH_MEDIA_PORT = LIVE_PATH_PORT + 10;
/** Where the gate's own recording goes, and the log its runs write (both scanned for tokens). */
const GATE_RECORDINGS = 'reports/recordings';
const GATE_LOG = 'reports/logs/gate.log';
const RUNS = ['gate-mock', 'gate-record', 'gate-replay', 'gate-replay-seeds'];

/** Pact files under contracts/pacts that are new or differ from the last commit (none where git is not there). */
function changedPactFiles(): string[] {
  const status = spawnSync('git', ['status', '--porcelain', '--', 'contracts/pacts'], { encoding: 'utf8' });
  if (status.status !== 0) return [];
  return status.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => line.slice(3));
}

async function main(): Promise<number> {
  // Results of earlier runs would mix into this run's report; the Allure history (reports/history) stays.
  for (const dir of ['reports/results', 'reports/allure-results', 'reports/junit', GATE_RECORDINGS, 'reports/logs'])
    rmSync(dir, { recursive: true, force: true });
  const started = Date.now();

  console.log('gate 1/4: unit tests and the suites of both APIs against the twins');
  const first = await runTool('playwright', ['test', ...process.argv.slice(2)], {
    HARNESS_TARGET: 'mock',
    HARNESS_RUN_NAME: 'gate-mock',
    HARNESS_RULE_GATE: process.argv.length > 2 ? '' : 'store,media',
  });

  console.log(`gate 2/4: live-capable suites, HARNESS_TARGET=record, against twin processes on ports ${LIVE_PATH_PORT} and ${LIVE_PATH_MEDIA_PORT}`);
  const twin = await startTwinProcess(LIVE_PATH_PORT, LIVE_PATH_MEDIA_PORT, 'inherit');
  let second: number;
  let mediaToken: string | undefined;
  try {
    mediaToken = await signInOnMediaTwin(LIVE_PATH_MEDIA_PORT);
    const liveEnv = {
      ...twinAsLiveEnv({
        storeUrl: `http://127.0.0.1:${LIVE_PATH_PORT}`,
        mediaUrl: `http://127.0.0.1:${LIVE_PATH_MEDIA_PORT}/api/edge`,
        mediaToken,
        userAgent: 'api-contract-harness gate (https://example.invalid/api-contract-harness)',
      }),
      RECORDINGS_DIR: GATE_RECORDINGS,
    };
    const recorded = loadConfig({ ...process.env, ...liveEnv, HARNESS_TARGET: 'record' });
    if (recorded.store.mode === 'live' && recorded.media.mode === 'live') writeRecordedTarget(GATE_RECORDINGS, recorded.store, recorded.media);
    second = await runTool(
      'playwright',
      ['test', '--project=store', '--project=media', '--project=properties', '--project=contracts-verify'],
      {
        ...liveEnv,
        HARNESS_TARGET: 'record',
        HARNESS_RUN_NAME: 'gate-record',
        // The properties on a real clock: a small budget proves the live path without minutes of pacing.
        LIVE_RATE_BUDGET: '30',
      },
      false,
      GATE_LOG,
    );
  } finally {
    twin.kill();
  }

  // Replays: no twin runs now, and nock refuses any request that was not recorded.
  const replay = (runName: string, recordings: string) =>
    runTool(
      'playwright',
      ['test', '--project=store', '--project=media', '--project=contracts-verify', '--no-deps'],
      { HARNESS_TARGET: 'replay', HARNESS_RUN_NAME: runName, RECORDINGS_DIR: recordings },
      false,
      GATE_LOG,
    );
  console.log(`gate 3/4: the same suites and pacts replayed from ${GATE_RECORDINGS}/, with the twins stopped`);
  const third = await replay('gate-replay', GATE_RECORDINGS);
  console.log('gate 4/4: the same suites and pacts replayed from the recordings the repository ships (recordings/)');
  const fourth = await replay('gate-replay-seeds', 'recordings');

  // The tokens the runs were given must be nowhere: not in a recording, a report or the log.
  const leaks = leakScan(['reports'], [SEEDED_STORE.token, mediaToken ?? ''].filter(Boolean));
  if (leaks.length > 0)
    console.error(`gate: a token the runs were given is written in ${leaks.join(', ')}: secrets must be redacted before anything is written.`);
  else console.log('gate: no recording, report or log holds the tokens the runs were given');

  const stalePacts = changedPactFiles();
  if (stalePacts.length > 0) {
    const what = `the consumer tests wrote pact files that differ from the committed ones (${stalePacts.join(', ')})`;
    // In CI that is a contract change nobody reviewed; on a laptop it is the change to commit.
    if (process.env.CI) console.error(`gate: ${what}. Fix: run npm test locally and commit contracts/pacts, so the change shows in review.`);
    else console.log(`gate: ${what}: review them (git diff contracts/pacts) and commit them with the change.`);
  }

  const total: Tally = { passed: 0, failed: 0, skipped: 0 };
  for (const name of RUNS) {
    try {
      const t = tallyReport(`reports/results/${name}.json`);
      console.log(`  ${name}: ${summaryLine(t)}`);
      total.passed += t.passed;
      total.failed += t.failed;
      total.skipped += t.skipped;
    } catch {
      console.log(`  ${name}: no report (the run did not finish)`);
      total.failed += 1;
    }
  }
  // A run that exited non-zero without a failed test (a twin that did not start) still failed.
  for (const [name, code] of [
    ['gate-mock', first],
    ['gate-record', second],
    ['gate-replay', third],
    ['gate-replay-seeds', fourth],
  ] as const) {
    if (code !== 0 && total.failed === 0) {
      console.log(`  ${name}: the run exited ${code} without a failed test; see its output above`);
      total.failed += 1;
    }
  }
  const pactsOk = !process.env.CI || stalePacts.length === 0;
  if (!pactsOk) total.failed += 1;
  console.log(`gate finished in ${((Date.now() - started) / 1000).toFixed(1)} s; npm run report builds the Allure report of all four runs`);
  console.log(summaryLine(total));
  return [first, second, third, fourth].every((c) => c === 0) && total.failed === 0 && leaks.length === 0 && pactsOk ? 0 : 1;
}

process.exit(await main());
