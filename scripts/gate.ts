/**
 * `npm test`: the project's own gate, four Playwright runs at once.
 *   gate-unit: the harness's own unit tests (no twin);
 *   gate-twins: every other project (the suites' twin-only tests, the pacts, the properties, the
 *     storefront, and the self-tests: provider breaks and twin breaks the suites, pacts and
 *     properties must go red against) on the twins;
 *   gate-record: the live-capable suites of both APIs, the properties and the pact verification
 *     with HARNESS_TARGET=record against twins started as a separate process: the live path,
 *     proven with nothing but URLs and credentials, and recorded into reports/recordings;
 *   gate-replay: the same suites and pacts replayed, with no twin, from the recordings the
 *     repository ships (recordings/): what HARNESS_TARGET=replay serves a user.
 * The suites' live-capable tests run once, in gate-record: twin processes are twins too, so their
 * verdicts join the twins' rule coverage, held to what the twins' run asserts (no observation, known
 * defect, unverified rule or skip), and then every rule of both APIs must have a test.
 * The round trip closes after the recording: the fresh recording, normalised, must equal the
 * shipped one cassette for cassette (src/recording/recordingsInStep.ts). Equal cassettes answer a
 * replay alike, so the replay need not wait for the recording: all runs start at once, and the
 * unit tests' and the replay's CPU fill the time the recording spends waiting on the store's rate
 * limit and the time the twins' run spends in its chain of one-worker projects.
 * The twins' run keeps the terminal; the others write logs under reports/logs (shown when they
 * fail). The recordings, reports and logs are then scanned for the tokens the runs were given.
 * Then one summary line. Extra arguments (e.g. a file filter) go to the twins' run, which then
 * runs every project, the unit tests included, and gate-unit does not run.
 */
import { runTool } from './lib/runTool.ts';
import { RECORDING_PLAN, SEEDED_STORE, signInOnMediaTwin, startTwinProcess, twinAsLiveEnv } from './lib/twinProcess.ts';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { summaryLine, tallyReport, type Tally } from './summarize.ts';
import { writeRecordedTarget } from '../src/recording/recordedTarget.ts';
import { leakScan } from '../src/recording/leakScan.ts';
import { recordingsInStep } from '../src/recording/recordingsInStep.ts';
import { loadConfig } from '../src/config/harnessConfig.ts';
import { ENVIRONMENT_SNAPSHOTS, writeJoinedEnvironment } from '../src/reporting/environmentInfo.ts';
import { useCompileCache } from '../src/config/compileCache.ts';
import { API_PROJECTS, GATE_PROJECTS, GATE_RUNS, projectArgs, RECORD_PROJECTS, REPLAY_PROJECTS } from './lib/gateRuns.ts';
import { gateLivePort, onCI, processEnv } from '../src/config/env.ts';
import { concludeCoverage, readCoverage } from '../src/reporting/ruleCoverage.ts';
import { joinTwinProcessCoverage, twinProcessVerdicts } from '../src/reporting/twinProcessVerdicts.ts';
import { parseRunReport, type RunReport } from '../src/testing/providerBreaks/runReport.ts';

// Before any child starts: every run, worker and twin process inherits it.
useCompileCache();

const LIVE_PATH_PORT = gateLivePort();
const LIVE_PATH_MEDIA_PORT = LIVE_PATH_PORT + 10;
/** Where the gate's own recording goes, and the log its runs write (both scanned for tokens). */
const GATE_RECORDINGS = 'reports/recordings';
const GATE_LOGS = 'reports/logs';
/** The recordings the repository ships; the gate's fresh recording must equal them. */
const SHIPPED_RECORDINGS = 'recordings';

/** Pact files under contracts/pacts that are new or differ from the last commit (none where git is not there). */
function changedPactFiles(): string[] {
  const status = spawnSync('git', ['status', '--porcelain', '--', 'contracts/pacts'], { encoding: 'utf8' });
  if (status.status !== 0) return [];
  return status.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => line.slice(3));
}

interface Finished {
  readonly name: string;
  readonly code: number;
  readonly seconds: number;
}

/** Runs one Playwright run of the gate, announcing its start and end; a run beside another logs to its own file only. */
async function run(name: string, what: string, args: string[], env: NodeJS.ProcessEnv, log?: string): Promise<Finished> {
  const began = Date.now();
  console.log(`gate: ${name} started: ${what}${log ? ` (output in ${log})` : ''}`);
  const code = await runTool('playwright', ['test', ...args], { ...env, HARNESS_RUN_NAME: name }, log ? { log, echo: false } : 'inherit');
  const seconds = (Date.now() - began) / 1000;
  let outcome: string;
  try {
    outcome = summaryLine(tallyReport(`reports/results/${name}.json`));
  } catch {
    outcome = 'no report';
  }
  console.log(`gate: ${name} finished in ${seconds.toFixed(1)} s: ${outcome}${code === 0 ? '' : ` (exit ${code})`}`);
  return { name, code, seconds };
}

/** The live path: a recording against twin processes, stopped afterwards. */
async function recordRun(): Promise<{ record: Finished; mediaToken: string | undefined }> {
  const twin = await startTwinProcess(LIVE_PATH_PORT, LIVE_PATH_MEDIA_PORT, 'inherit', RECORDING_PLAN);
  let record: Finished;
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
    const recorded = loadConfig({ ...processEnv(), ...liveEnv, HARNESS_TARGET: 'record' });
    writeRecordedTarget(GATE_RECORDINGS, recorded.store, recorded.media);
    record = await run(
      'gate-record',
      `the live-capable suites, the properties and the pacts, HARNESS_TARGET=record, against twin processes on ports ${LIVE_PATH_PORT} and ${LIVE_PATH_MEDIA_PORT} (a ${RECORDING_PLAN}-plan store)`,
      projectArgs(RECORD_PROJECTS),
      // The properties on a real clock: a small budget proves the live path without minutes of pacing.
      // The pacts as committed: the twins' run beside this one writes them again, and fails on a difference.
      { ...liveEnv, HARNESS_TARGET: 'record', LIVE_RATE_BUDGET: '20', HARNESS_PACTS: 'committed' },
      logOf('gate-record'),
    );
  } finally {
    twin.kill();
  }
  return { record, mediaToken };
}

/**
 * The twins' run and the replay on one worker each: four runs already share two cores, and a second
 * worker per project is one more Node and Playwright start (about 0.4 s of CPU) for no earlier end
 * (docs/speed.md, "The gate's budget", has the measurement).
 */
const ONE_WORKER = '--workers=1';

// A replay: no twin runs, and nock refuses any request that was not recorded.
const replayRun = () =>
  run(
    'gate-replay',
    `the same suites and pacts replayed from ${SHIPPED_RECORDINGS}/, no twin running`,
    [...projectArgs(REPLAY_PROJECTS), '--no-deps', ONE_WORKER],
    { HARNESS_TARGET: 'replay', RECORDINGS_DIR: SHIPPED_RECORDINGS },
    logOf('gate-replay'),
  );

const logOf = (name: string) => `${GATE_LOGS}/${name}.log`;
const RULE_COVERAGE = 'reports/rule-coverage';
/** The APIs whose live-capable suites run once, in the recording against twin processes. */
const TWIN_PROCESS_APIS = ['store', 'media'];

async function main(): Promise<number> {
  // Results of earlier runs would mix into this run's report; the Allure history (reports/history) stays.
  for (const dir of ['reports/results', 'reports/allure-results', 'reports/junit', RULE_COVERAGE, GATE_RECORDINGS, GATE_LOGS, ENVIRONMENT_SNAPSHOTS])
    rmSync(dir, { recursive: true, force: true });
  const started = Date.now();

  const filtered = process.argv.length > 2;
  const [twinsRun, unitRun, live, replay] = await allRuns(filtered);
  const finished = [twinsRun, ...(unitRun ? [unitRun] : []), live.record, replay];
  const runs = GATE_RUNS.filter((name) => finished.some((f) => f.name === name));
  const recordingsInStepOk = live.record.code === 0 ? checkShippedRecordings() : true;
  const coverageOk = filtered || concludeTwinCoverage();
  for (const failed of finished.filter((f) => f.code !== 0 && f.name !== 'gate-twins')) {
    console.log(`\n--- the end of ${logOf(failed.name)} ---\n${tail(logOf(failed.name), 60)}`);
  }
  writeJoinedEnvironment('reports/allure-results', runs);
  const leaks = scanForTokens(live.mediaToken);
  const stalePacts = reportStalePacts();

  const total = tallyRuns(runs, finished);
  const pactsOk = !onCI() || stalePacts.length === 0;
  if (!pactsOk) total.failed += 1;
  if (!recordingsInStepOk) total.failed += 1;
  if (!coverageOk) total.failed += 1;
  console.log(`gate finished in ${((Date.now() - started) / 1000).toFixed(1)} s; npm run report builds the Allure report of all ${runs.length} runs`);
  console.log(summaryLine(total));
  return finished.every((f) => f.code === 0) && total.failed === 0 && leaks.length === 0 && pactsOk && recordingsInStepOk && coverageOk ? 0 : 1;
}

/**
 * The four runs at once. The recording mostly waits on the store's rate limit: the twins' run (which keeps
 * the terminal), the unit tests and the replay beside it. Filtered, the twins' run runs everything and there is no gate-unit.
 */
function allRuns(filtered: boolean) {
  return Promise.all([
    run(
      'gate-twins',
      filtered ? 'every project, unit tests included, against the twins' : 'every project of both APIs against the twins',
      filtered ? process.argv.slice(2) : [...projectArgs(API_PROJECTS), ONE_WORKER],
      // Unfiltered, the suites' live-capable tests run once, in the recording; the gate then concludes the rule coverage.
      filtered
        ? { HARNESS_TARGET: 'twin', HARNESS_RULE_GATE: '' }
        : { HARNESS_TARGET: 'twin', HARNESS_RULE_GATE: '', HARNESS_TWIN_ONLY: TWIN_PROCESS_APIS.join(',') },
    ),
    filtered
      ? undefined
      : run(
          'gate-unit',
          "the harness's own unit tests",
          projectArgs(GATE_PROJECTS['gate-unit']),
          { HARNESS_TARGET: 'twin', HARNESS_RULE_GATE: '' },
          logOf('gate-unit'),
        ),
    recordRun().catch((error: unknown) => {
      console.error(`gate: the live path could not run: ${error instanceof Error ? error.message : String(error)}`);
      return { record: { name: 'gate-record', code: 1, seconds: 0 }, mediaToken: undefined };
    }),
    replayRun(),
  ]);
}

/** The tokens the runs were given must be nowhere: not in a recording, a report or the log. Gives the files that hold one. */
function scanForTokens(mediaToken: string | undefined): string[] {
  const leaks = leakScan(['reports'], [SEEDED_STORE.token, mediaToken ?? ''].filter(Boolean));
  if (leaks.length > 0)
    console.error(`gate: a token the runs were given is written in ${leaks.join(', ')}: secrets must be redacted before anything is written.`);
  else console.log('gate: no recording, report or log holds the tokens the runs were given');
  return leaks;
}

/** Pact files the consumer tests rewrote differently: an error in CI, a reminder to commit on a laptop. */
function reportStalePacts(): string[] {
  const stalePacts = changedPactFiles();
  if (stalePacts.length > 0) {
    const what = `the consumer tests wrote pact files that differ from the committed ones (${stalePacts.join(', ')})`;
    // In CI that is a contract change nobody reviewed; on a laptop it is the change to commit.
    if (onCI()) console.error(`gate: ${what}. Fix: run npm test locally and commit contracts/pacts, so the change shows in review.`);
    else console.log(`gate: ${what}: review them (git diff contracts/pacts) and commit them with the change.`);
  }
  return stalePacts;
}

/** One line per run and their sum; a run without a report, or one that exited non-zero without a failed test, counts as a failure. */
function tallyRuns(runs: readonly string[], finished: readonly Finished[]): Tally {
  const total: Tally = { passed: 0, failed: 0, skipped: 0 };
  for (const name of runs) {
    try {
      const t = tallyReport(`reports/results/${name}.json`);
      const seconds = finished.find((f) => f.name === name)?.seconds ?? 0;
      console.log(`  ${name}: ${summaryLine(t)} (${seconds.toFixed(1)} s)`);
      total.passed += t.passed;
      total.failed += t.failed;
      total.skipped += t.skipped;
    } catch {
      console.log(`  ${name}: no report (the run did not finish)`);
      total.failed += 1;
    }
  }
  // A run that exited non-zero without a failed test (a twin that did not start) still failed.
  for (const { name, code } of finished) {
    if (code !== 0 && total.failed === 0) {
      console.log(`  ${name}: the run exited ${code} without a failed test; see its output above or ${logOf(name)}`);
      total.failed += 1;
    }
  }
  return total;
}

/**
 * The twins' rule coverage: the twins' run's own tests and the live-capable tests the recording verified on
 * twin processes, held to what the twins' run asserts (src/reporting/twinProcessVerdicts.ts); then every rule
 * of both APIs must have a test.
 */
function concludeTwinCoverage(): boolean {
  const [twin, record] = [readCoverage(RULE_COVERAGE, 'twin'), readCoverage(RULE_COVERAGE, 'record')];
  let report: RunReport | undefined;
  try {
    report = parseRunReport(readFileSync('reports/results/gate-record.json', 'utf8'));
  } catch {
    report = undefined;
  }
  if (!twin || !record || !report) {
    console.error("gate: the twins' rule coverage cannot be concluded: the twins' run or the recording did not finish (see above).");
    return false;
  }
  const { verified, problems } = twinProcessVerdicts(report, TWIN_PROCESS_APIS);
  if (problems.length > 0)
    console.error(
      [
        `gate: ${problems.length} live-capable test(s) fell short on the twin processes, where they stand for the twins' run (a twin must not need a real provider's leniency):`,
        ...problems.slice(0, 20).map((line) => `  ${line}`),
        `Fix: the twin left its documented choice or its seed: see ${logOf('gate-record')}.`,
      ].join('\n'),
    );
  const joined = joinTwinProcessCoverage(twin, record, verified);
  const ok = concludeCoverage({
    dir: RULE_COVERAGE,
    target: 'twin',
    rules: joined.rules,
    gate: TWIN_PROCESS_APIS,
    log: (line) => console.log(`gate: ${line}`),
    allureResults: 'reports/allure-results',
  });
  return ok && problems.length === 0;
}

/** The shipped recordings against the gate's fresh one; prints what differs and the fix. */
function checkShippedRecordings(): boolean {
  let report: ReturnType<typeof recordingsInStep>;
  try {
    report = recordingsInStep(SHIPPED_RECORDINGS, GATE_RECORDINGS);
  } catch (error) {
    console.error(`gate: could not compare ${SHIPPED_RECORDINGS}/ with ${GATE_RECORDINGS}/: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
  if (report.differences.length === 0) {
    console.log(`gate: the shipped recordings are in step with the suites (${report.compared} cassettes equal the fresh recording, normalised)`);
    return true;
  }
  const shown = report.differences.slice(0, 10).map((line) => `  ${line}`);
  if (report.differences.length > shown.length) shown.push(`  … and ${report.differences.length - shown.length} more`);
  console.error(
    [
      `gate: the shipped recordings (${SHIPPED_RECORDINGS}/) are out of step with the suites: ${report.differences.length} cassette(s) differ from this run's recording, so replaying them would fail.`,
      ...shown,
      `Fix: npm run record:seed, review git diff ${SHIPPED_RECORDINGS}, and commit it with the change.`,
    ].join('\n'),
  );
  return false;
}

/** The last lines of a log, where Playwright lists what failed. */
function tail(file: string, lines: number): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

process.exit(await main());
