/**
 * `npm run breaks [-- options] [name|api|breaks|deviations|held-out ...]`: proves the
 * live-target suites fail for the right reason, and only when they should.
 * For each job it starts faithful twins as a separate process, puts a proxy that
 * changes one thing (src/testing/providerBreaks) in front of the API concerned,
 * runs that API's suites with HARNESS_TARGET=live against the proxy, then that
 * API's pact verification (--project=contracts-verify --no-deps) against it.
 * - A break is caught only when a test of a rule it names failed (the `rule`
 *   annotations of the JSON report, else the title's rule id); red tests of
 *   other rules alone are "caught by the wrong rule", which counts as survived.
 *   Pact interactions carry no rule ids: their red or green is shown beside it.
 * - A deviation (something the contract leaves open) and the pass-through
 *   control must keep both runs green.
 * - A run whose report is missing or unreadable, that exited non-zero without a
 *   failed test, or that ran nothing, is an error.
 * It exits non-zero when a break survives, a deviation goes red, or anything is
 * an error, and writes reports/breaks/report.md.
 * Options: --held-out <file> (also BREAKS_HELD_OUT): a reviewer's own set of
 * breaks and deviations, kept out of the project, run as [held out];
 * --no-control: skip the pass-through controls; --list: print the jobs and stop.
 * Environment: BREAKS_PARALLEL (jobs at once, default 2), BREAKS_FIRST_PORT
 * (default 4200; each job slot takes two ports from it). A variable set under an old
 * name (MUTANTS_*) is refused with exit 2, naming the new one (src/config/env.ts).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { runTool } from './lib/runTool.ts';
import { RECORDING_PLAN, signInOnMediaTwin, startTwinProcess, stopTwinProcess, twinAsLiveEnv } from './lib/twinProcess.ts';
import { startBreakingProxy, type BreakKind, type ProviderChange } from '../src/testing/providerBreaks/breakingProxy.ts';
import { APIS, PROJECT_SET, loadHeldOut, problemsOf, type Api, type BreakSet } from '../src/testing/providerBreaks/breakSet.ts';
import { runResult } from '../src/testing/providerBreaks/runReport.ts';
import {
  consoleReport,
  exitCodeOf,
  judgeBreak,
  judgeDeviation,
  markdownReport,
  outcomeLine,
  pactVerdict,
  type Outcome,
} from '../src/testing/providerBreaks/verdicts.ts';
import { useCompileCache } from '../src/config/compileCache.ts';
import { breaksFirstPort, breaksHeldOut, breaksParallel, renamedVariableProblems } from '../src/config/env.ts';
import { ConfigError } from '../src/config/ConfigError.ts';

useCompileCache();

const PARALLEL = breaksParallel();
const FIRST_PORT = breaksFirstPort();
const OUT = 'reports/breaks';
const USER_AGENT = 'api-contract-harness breaks (https://example.invalid/api-contract-harness)';

type Job =
  | { type: 'break'; api: Api; name: string; heldOut: boolean; change: ProviderChange; what: string; kind: BreakKind; rules: readonly string[] }
  | { type: 'deviation'; api: Api; name: string; heldOut: boolean; change: ProviderChange; what: string; control: boolean };

const PASS_THROUGH: ProviderChange = {};

function jobsOf(set: BreakSet, heldOut: boolean): Job[] {
  return APIS.flatMap((api) => [
    ...Object.entries(set[api]?.breaks ?? {}).map(([name, brk]): Job => ({
      type: 'break',
      api,
      name,
      heldOut,
      change: brk,
      what: brk.breaks,
      kind: brk.kind,
      rules: brk.rules,
    })),
    ...Object.entries(set[api]?.deviations ?? {}).map(([name, deviation]): Job => ({
      type: 'deviation',
      api,
      name,
      heldOut,
      change: deviation,
      what: deviation.allows,
      control: false,
    })),
  ]);
}

/** Runs one Playwright run of a job; returns its verdict-ready result (report deleted first, exit code checked). */
async function playwright(job: Job, slot: number, run: 'suites' | 'pact', env: Record<string, string>) {
  const base = `${OUT}/${job.api}-${job.name}.${run}`;
  const report = `${base}.json`;
  const log = `${OUT}/logs/${job.api}-${job.name}.${run}.log`;
  rmSync(report, { force: true });
  rmSync(log, { force: true });
  const args =
    run === 'suites'
      ? ['test', `--project=${job.api}`, '--reporter=json']
      : ['test', '--project=contracts-verify', '--no-deps', `contracts/${job.api}/verify.pact.spec.ts`, '--reporter=json'];
  const code = await runTool(
    'playwright',
    args,
    // A run name per slot and run: each Playwright run empties its own output folder, which a parallel job must not share.
    { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: report, HARNESS_RUN_NAME: `breaks-${slot}-${run}` },
    { log, echo: false },
  );
  const result = runResult(code, report);
  if (result.ok) slimReport(report);
  return result;
}

/**
 * Drops the attachment bodies (HTTP exchanges, Allure metadata) of the tests that passed or skipped:
 * a store run's report is some 7 MB, and a full run writes 228 of them. A failed test keeps its own.
 */
function slimReport(path: string): void {
  interface Suite {
    suites?: Suite[];
    specs?: { tests?: { status?: string; results?: { attachments?: { name: string; contentType: string; body?: string }[] }[] }[] }[];
  }
  const json = JSON.parse(readFileSync(path, 'utf8')) as { suites?: Suite[] };
  const walk = (suite: Suite) => {
    suite.suites?.forEach(walk);
    for (const test of (suite.specs ?? []).flatMap((spec) => spec.tests ?? [])) {
      if (test.status === 'unexpected' || test.status === 'flaky') continue;
      for (const result of test.results ?? []) result.attachments = result.attachments?.map(({ name, contentType }) => ({ name, contentType }));
    }
  };
  json.suites?.forEach(walk);
  writeFileSync(path, JSON.stringify(json));
}

/** A live run's environment with the job's API reached through the breaking proxy and the other API directly. */
function liveEnvThrough(api: Job['api'], proxyUrl: string, ports: { storePort: number; mediaPort: number }, mediaToken: string) {
  return {
    HARNESS_TARGET: 'live',
    ...twinAsLiveEnv({
      storeUrl: api === 'store' ? proxyUrl : `http://127.0.0.1:${ports.storePort}`,
      mediaUrl: `${api === 'media' ? proxyUrl : `http://127.0.0.1:${ports.mediaPort}`}/api/edge`,
      mediaToken,
      userAgent: USER_AGENT,
    }),
  };
}

async function runOne(job: Job, slot: number): Promise<Outcome> {
  const began = Date.now();
  const storePort = FIRST_PORT + 2 * slot;
  const mediaPort = storePort + 1;
  let runs: { suites: ReturnType<typeof runResult>; pact: ReturnType<typeof runResult> };
  try {
    // The recording's plan: each job runs the live-capable suites without waiting on the contract's bucket.
    const twin = await startTwinProcess(storePort, mediaPort, 'ignore', RECORDING_PLAN);
    try {
      const token = await signInOnMediaTwin(mediaPort);
      const upstream = `http://127.0.0.1:${job.api === 'store' ? storePort : mediaPort}`;
      const proxy = await startBreakingProxy(upstream, job.change, { signedInToken: token });
      try {
        const env = liveEnvThrough(job.api, proxy.url, { storePort, mediaPort }, token);
        // One after the other: on live the suites and the store pacts share the store's one bucket.
        const suites = await playwright(job, slot, 'suites', env);
        const pact = await playwright(job, slot, 'pact', env);
        runs = { suites, pact };
      } finally {
        proxy.server.close();
      }
    } finally {
      await stopTwinProcess(twin);
    }
  } catch (error) {
    const failed = { ok: false as const, error: `the job could not run: ${error instanceof Error ? error.message : String(error)}` };
    runs = { suites: failed, pact: failed };
  }
  const seconds = (Date.now() - began) / 1000;
  const { api, name, heldOut, what } = job;
  return job.type === 'break'
    ? { type: 'break', api, name, heldOut, what, kind: job.kind, rules: job.rules, verdict: judgeBreak(job.rules, runs), pact: pactVerdict(runs.pact), seconds }
    : { type: 'deviation', api, name, heldOut, what, control: job.control, verdict: judgeDeviation(runs), seconds };
}

interface Options {
  heldOut: string[];
  control: boolean;
  list: boolean;
  wanted: string[];
}

function parseArgs(argv: string[]): Options {
  const options: Options = { heldOut: breaksHeldOut() ? [breaksHeldOut()!] : [], control: true, list: false, wanted: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--held-out') options.heldOut.push(argv[++i] ?? '');
    else if (arg.startsWith('--held-out=')) options.heldOut.push(arg.slice('--held-out='.length));
    else if (arg === '--no-control') options.control = false;
    else if (arg === '--list') options.list = true;
    else options.wanted.push(arg);
  }
  return options;
}

/**
 * Which jobs the words select. Kind words narrow across axes and widen within one: `store media` is
 * either API, `store deviations` the store's deviations, `held-out` the held-out set. Names (or
 * api:name) add their jobs to what the kind words select. No words: every job.
 */
function selects(wanted: readonly string[], job: Job): boolean {
  const axes: [string[], string[]][] = [
    [['store', 'media'], [job.api]],
    [['breaks', 'deviations'], [job.type === 'break' ? 'breaks' : 'deviations']],
    [['held-out'], job.heldOut ? ['held-out'] : []],
  ];
  const keywords = axes.flatMap(([words]) => words);
  const names = wanted.filter((w) => !keywords.includes(w));
  if (names.some((w) => w === job.name || w === `${job.api}:${job.name}`)) return true;
  if (names.length > 0 && names.length === wanted.length) return false;
  return axes.every(([words, values]) => {
    const asked = wanted.filter((w) => words.includes(w));
    return asked.length === 0 || asked.some((w) => values.includes(w));
  });
}

async function main(): Promise<number> {
  const renamed = renamedVariableProblems();
  if (renamed.length > 0) {
    console.error(new ConfigError(renamed).message);
    return 2;
  }
  const options = parseArgs(process.argv.slice(2));
  const heldOutSets = await loadHeldOutSets(options.heldOut);
  if (typeof heldOutSets === 'number') return heldOutSets;
  const selected = selectJobs(options, heldOutSets);
  if (typeof selected === 'number') return selected;
  const { jobs, chosen, controls } = selected;
  if (options.list) {
    for (const j of jobs)
      console.log(`${j.type === 'break' ? 'break    ' : j.control ? 'control  ' : 'deviation'} ${j.api}:${j.name}${j.heldOut ? ' [held out]' : ''}: ${j.what}`);
    return 0;
  }
  if (jobs.length === 0) {
    console.error('breaks: no job selected');
    return 2;
  }

  mkdirSync(`${OUT}/logs`, { recursive: true });
  rmSync(`${OUT}/report.md`, { force: true });
  const command = `npm run breaks${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  console.log(
    `breaks: ${jobs.length} jobs (${chosen.filter((j) => j.type === 'break').length} breaks, ${chosen.filter((j) => j.type === 'deviation').length} deviations, ${controls.length} controls), ${Math.min(PARALLEL, jobs.length)} at a time; logs in ${OUT}/logs`,
  );
  const started = Date.now();
  const outcomes = await runAll(jobs);
  const seconds = (Date.now() - started) / 1000;
  console.log(consoleReport(outcomes, seconds));
  writeFileSync(`${OUT}/report.md`, markdownReport(outcomes, { seconds, command }));
  console.log(`report: ${OUT}/report.md`);
  return exitCodeOf(outcomes);
}

/** The held-out sets named on the command line, checked for consistency with the project's set and each other; exit 2 (printed) when not. */
async function loadHeldOutSets(files: readonly string[]): Promise<BreakSet[] | number> {
  const heldOutSets: BreakSet[] = [];
  for (const file of files) {
    if (!file) {
      console.error('breaks: --held-out needs a file');
      return 2;
    }
    heldOutSets.push(await loadHeldOut(file));
  }
  const problems = [
    ...problemsOf(PROJECT_SET).map((p) => `project set: ${p}`),
    ...heldOutSets.flatMap((set, i) => problemsOf(set, undefined, [PROJECT_SET, ...heldOutSets.filter((_, j) => j !== i)]).map((p) => `${files[i]}: ${p}`)),
  ];
  if (problems.length > 0) {
    console.error(`breaks: the sets are not consistent:\n  ${problems.join('\n  ')}`);
    return 2;
  }
  return heldOutSets;
}

/** The jobs the words select, led by a pass-through control per API involved; exit 2 (printed) for a word that names nothing. */
function selectJobs(options: Options, heldOutSets: readonly BreakSet[]): { jobs: Job[]; chosen: Job[]; controls: Job[] } | number {
  const all = [...jobsOf(PROJECT_SET, false), ...heldOutSets.flatMap((set) => jobsOf(set, true))];
  const keywords = ['store', 'media', 'breaks', 'deviations', 'held-out'];
  const unknown = options.wanted.filter((w) => !keywords.includes(w) && !all.some((j) => j.name === w || `${j.api}:${j.name}` === w));
  if (unknown.length > 0) {
    console.error(`breaks: nothing named ${unknown.join(', ')}. Known: ${keywords.join(', ')}, ${all.map((j) => `${j.api}:${j.name}`).join(', ')}`);
    return 2;
  }
  const chosen = all.filter((j) => selects(options.wanted, j));
  const controls: Job[] = options.control
    ? APIS.filter((api) => chosen.some((j) => j.api === api)).map((api) => ({
        type: 'deviation',
        api,
        name: 'pass-through',
        heldOut: false,
        change: PASS_THROUGH,
        what: 'nothing: the faithful twin behind a pass-through proxy',
        control: true,
      }))
    : [];
  return { jobs: [...controls, ...chosen], chosen, controls };
}

/** PARALLEL workers take the jobs in turn, each on its own ports; the outcomes come back in the order of the jobs, not of their ends. */
async function runAll(jobs: readonly Job[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let next = 0;
  const worker = async (slot: number) => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      const outcome = await runOne(job, slot);
      outcomes.push(outcome);
      console.log(`[${outcomes.length}/${jobs.length}] ${outcomeLine(outcome)} (${outcome.seconds.toFixed(0)} s)`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, jobs.length) }, (_, i) => worker(i)));
  outcomes.sort((a, b) => jobs.findIndex((j) => j.api === a.api && j.name === a.name) - jobs.findIndex((j) => j.api === b.api && j.name === b.name));
  return outcomes;
}

process.exit(await main());
