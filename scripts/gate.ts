/**
 * `npm test`: the project's own gate.
 *   1. every project (the harness's unit tests, the store suites) against the twins,
 *      with the rule-coverage gate on;
 *   2. the live-capable suites of both APIs, the properties and the pact verification with
 *      HARNESS_TARGET=live against twins started as a separate process, so the live
 *      path is proven with nothing but URLs and credentials.
 * Then one summary line. Extra arguments go to the first run (e.g. a file filter).
 */
import { runTool } from './lib/runTool.ts';
import { SEEDED_STORE, signInOnMediaTwin, startTwinProcess } from './lib/twinProcess.ts';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { summaryLine, tallyReport, type Tally } from './summarize.ts';

const LIVE_PATH_PORT = Number(process.env.GATE_LIVE_PORT ?? 4110);
const LIVE_PATH_MEDIA_PORT = LIVE_PATH_PORT + 10;

/** Files under `dir` that contain `secret`: a report must never hold the live token. */
function filesHolding(dir: string, secret: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else if (stat.size < 64 * 1024 * 1024 && readFileSync(path).includes(secret)) found.push(path);
    }
  };
  walk(dir);
  return found;
}

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
  rmSync('reports/results', { recursive: true, force: true });
  const started = Date.now();

  console.log('gate 1/2: unit tests and the suites of both APIs against the twins');
  const first = await runTool('playwright', ['test', ...process.argv.slice(2)], {
    HARNESS_TARGET: 'mock',
    HARNESS_RUN_NAME: 'gate-mock',
    HARNESS_RULE_GATE: process.argv.length > 2 ? '' : 'store,media',
  });

  console.log(`gate 2/2: live-capable suites, HARNESS_TARGET=live, against twin processes on ports ${LIVE_PATH_PORT} and ${LIVE_PATH_MEDIA_PORT}`);
  const twin = await startTwinProcess(LIVE_PATH_PORT, LIVE_PATH_MEDIA_PORT, 'inherit');
  let second: number;
  let mediaToken: string | undefined;
  try {
    mediaToken = await signInOnMediaTwin(LIVE_PATH_MEDIA_PORT);
    second = await runTool('playwright', ['test', '--project=store', '--project=media', '--project=properties', '--project=contracts-verify'], {
      KITSU_API_URL: `http://127.0.0.1:${LIVE_PATH_MEDIA_PORT}/api/edge`,
      KITSU_ACCESS_TOKEN: mediaToken,
      KITSU_ALLOW_WRITES: '1',
      HARNESS_TARGET: 'live',
      HARNESS_RUN_NAME: 'gate-live-path',
      STORE_API_URL: `http://127.0.0.1:${LIVE_PATH_PORT}`,
      STORE_ID: SEEDED_STORE.id,
      STORE_ACCESS_TOKEN: SEEDED_STORE.token,
      STORE_USER_AGENT: 'api-contract-harness gate (https://example.invalid/api-contract-harness)',
      STORE_ALLOW_WRITES: '1',
      // The properties on a real clock: a small budget proves the live path without minutes of pacing.
      LIVE_RATE_BUDGET: '30',
    });
  } finally {
    twin.kill();
  }

  const leaks = [SEEDED_STORE.token, mediaToken ?? ''].filter(Boolean).flatMap((secret) => filesHolding('reports', secret));
  if (leaks.length > 0) console.error(`gate: the live token was written to ${leaks.join(', ')}: secrets must be redacted before anything is reported.`);
  else console.log('gate: no report holds the live token');

  const stalePacts = changedPactFiles();
  if (stalePacts.length > 0) {
    const what = `the consumer tests wrote pact files that differ from the committed ones (${stalePacts.join(', ')})`;
    // In CI that is a contract change nobody reviewed; on a laptop it is the change to commit.
    if (process.env.CI) console.error(`gate: ${what}. Fix: run npm test locally and commit contracts/pacts, so the change shows in review.`);
    else console.log(`gate: ${what}: review them (git diff contracts/pacts) and commit them with the change.`);
  }

  const total: Tally = { passed: 0, failed: 0, skipped: 0 };
  for (const name of ['gate-mock', 'gate-live-path']) {
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
    ['gate-live-path', second],
  ] as const) {
    if (code !== 0 && total.failed === 0) {
      console.log(`  ${name}: the run exited ${code} without a failed test; see its output above`);
      total.failed += 1;
    }
  }
  const pactsOk = !process.env.CI || stalePacts.length === 0;
  if (!pactsOk) total.failed += 1;
  console.log(`gate finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(summaryLine(total));
  return first === 0 && second === 0 && total.failed === 0 && leaks.length === 0 && pactsOk ? 0 : 1;
}

process.exit(await main());
