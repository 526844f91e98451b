/**
 * `npm run bench -- nightly-teams`: the nightly's verification of every team's pact (`pact:verify --broker` on live)
 * at scale, against K sandboxes verified side by side, one bucket each. A hundred generated team pacts (teamPacts.ts)
 * are published to the Pact Broker stand-in; each sandbox is a store twin process on the plus plan (a bucket of 400
 * leaking 20/s) with one app installed, holding the scopes its teams' pacts need, and the teams are spread over the
 * sandboxes in turn (STORE_TEAM_SANDBOXES, each with the apiUrl of its twin). One more team's app is installed without
 * write_products on a twin of its own: its pact must be red naming the scope, every other team's green. For each K
 * (fresh twins, so every bucket starts empty) it prints the wall time, the Store API requests each bucket answered
 * (counted by the twins) and the busiest one's ratio to its bucket bound.
 *
 *   npm run bench -- nightly-teams
 *   BENCH_TEAMS=20 BENCH_TEAM_SANDBOXES=1,2 npm run bench -- nightly-teams
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpus } from 'node:os';
import { bucketOfPlan } from '../src/rules/storeContract.ts';
import { STORE_PACT } from '../contracts/pactNames.ts';
import { runScript } from '../scripts/lib/runScript.ts';
import { benchEnv } from './lib/benchEnv.ts';
import { startBrokerProcess, type BrokerProcess } from './lib/brokerProcess.ts';
import type { BenchRequest, ChildMessage, RequestCount } from './lib/childMessages.ts';
import { CHILD_ENTRIES, forkServer, stopChild, type ForkedServer } from './lib/childProcesses.ts';
import { childrenCpuSeconds, machineSeconds } from './lib/cpuSeconds.ts';
import { installedApp } from './lib/installedApp.ts';
import { fixed, printTable, progress, ratio, verdict } from './lib/report.ts';
import { TEAM_STORE_ID, teamPacts, teamPool, writingTeamPact, type TeamPact } from './lib/teamPacts.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The runs' reports, and each run's whole output (pact-verify-k<K>.log): where to look for where the time went. */
const REPORTS_DIR = 'reports/bench-nightly-teams';
const FIRST_PORT = 5100;
/** `npm run pact:verify`, as package.json runs it (without npm's own start). */
const PACT_VERIFY = ['--import', './src/config/compileCacheHook.mjs', 'scripts/pactVerify.ts'];
const PLAN = bucketOfPlan('plus');
/** The team whose app lacks a scope its pact needs. */
const REFUSED_TEAM = 'team-missing-scope';
const MISSING_SCOPE = 'write_products';
const GOALS = { withinBound: 1.15, fourToOne: 0.3 } as const;
const SANDBOX_LINE = /^\s+store \d+, as (.+?): (\d+) verified, (\d+) failed, (\d+) not verified in ([\d.]+) s$/gm;
const BUDGET_LINE = /live request budget: (\d+) of (\d+) requests used/;
/** What this shell may hold for a real live run, blanked for the bench's (verifyEnv). */
const BLANKED = [
  'KITSU_API_URL',
  'KITSU_ACCESS_TOKEN',
  'STORE_SECOND_ID',
  'STORE_SECOND_ACCESS_TOKEN',
  'STORE_APP_ID',
  'STORE_APP_SECRET',
  'STOREFRONT_URL',
  'PACT_BROKER_TOKEN',
  'PACT_BROKER_USERNAME',
  'PACT_BROKER_PASSWORD',
  'HARNESS_RUN_NAME',
];
/** One interaction's verdict line: ✓ verified, ✘ failed, - not verified; then the consumer. */
const VERDICT_LINE = /^ {2}([✓✘-]) (team-[\w-]+) \(/gm;

/** The least time a client needs to send `requests` through a bucket that starts empty: all it holds at once, then one per leak. */
function bucketBoundSeconds(requests: number, capacity: number = PLAN.bucketSize, leakPerSecond: number = PLAN.leakPerSecond): number {
  return Math.max(0, (requests - capacity) / leakPerSecond);
}

interface Sandbox {
  readonly twin: ForkedServer;
  readonly token: string;
  readonly teams: readonly TeamPact[];
}

/** One run of pact:verify --broker against K sandboxes, and what the twins saw of it. */
interface Run {
  readonly k: number;
  readonly code: number | null;
  readonly wall: number;
  /** The busiest sandbox's own time, from the run's table. */
  readonly sandboxSeconds: number;
  /** Store API requests per team sandbox's bucket, in sandbox order. */
  readonly perBucket: readonly number[];
  readonly rateRefused: number;
  /** What the harness's budget line says the run sent, both APIs. */
  readonly harnessCount: number | undefined;
  /** CPU seconds while pact:verify ran: its process tree's (undefined off Linux), and the twins'. */
  readonly verifyCpu: number | undefined;
  readonly twinsCpu: number;
  /** The whole machine's CPU seconds meanwhile: what is not the run's is other work beside it. */
  readonly machineCpu: number | undefined;
  /** What failed the checks of the verdicts (every team green, the refused team red naming the scope); empty when none. */
  readonly problems: readonly string[];
}

export async function nightlyTeams(): Promise<void> {
  const { teams: count, teamSandboxes } = benchEnv();
  const pool = teamPool(ROOT);
  const drawable = pool.families.reduce((sum, family) => sum + family.interactions.length, 0);
  progress(`drawing from ${drawable} committed store interactions; left out, as they cannot verify green on a live sandbox:`);
  for (const { file, description, reason } of pool.leftOut) progress(`  ${file} › ${description}: ${reason}`);
  const teams = teamPacts(count, pool);
  const refused = writingTeamPact(REFUSED_TEAM, pool);
  const interactions = teams.reduce((sum, team) => sum + team.interactions, 0);
  // Each run's reports only: a directory of every earlier run's results would slow writing them.
  rmSync(join(ROOT, REPORTS_DIR), { recursive: true, force: true });
  mkdirSync(join(ROOT, REPORTS_DIR), { recursive: true });
  const broker = await startBrokerProcess(ROOT);
  const runs: Run[] = [];
  try {
    for (const team of [...teams, refused])
      await broker.publish({ consumer: team.consumer, provider: STORE_PACT.provider, version: '1.0.0', branch: 'main', content: team.content });
    progress(`${teams.length} team pacts (${interactions} interactions) and ${REFUSED_TEAM}'s published to the broker stand-in at ${broker.origin}`);
    for (const k of teamSandboxes) runs.push(await verifyAgainst(k, teams, refused, broker));
  } finally {
    await broker.close();
  }
  report(runs, teams.length, interactions);
}

async function verifyAgainst(k: number, teams: readonly TeamPact[], refused: TeamPact, broker: BrokerProcess): Promise<Run> {
  progress(`K = ${k}: starting ${k} sandbox twin(s) and ${REFUSED_TEAM}'s, plus plan, ports ${FIRST_PORT}–${FIRST_PORT + k}`);
  const twins = await Promise.all(Array.from({ length: k + 1 }, (_, i) => forkServer(CHILD_ENTRIES.sandboxTwin, [String(FIRST_PORT + i)])));
  try {
    const sandboxes: Sandbox[] = [];
    for (let i = 0; i < k; i++) {
      const own = teams.filter((_, n) => n % k === i);
      const scopes = [...new Set(own.flatMap((team) => team.scopes))].sort();
      sandboxes.push({ twin: twins[i]!, token: await installedApp(twins[i]!.url, TEAM_STORE_ID, scopes), teams: own });
    }
    const lacking = refused.scopes.filter((scope) => scope !== MISSING_SCOPE);
    const refusedSandbox: Sandbox = { twin: twins[k]!, token: await installedApp(twins[k]!.url, TEAM_STORE_ID, lacking), teams: [refused] };
    const entries = Object.fromEntries(
      [...sandboxes, refusedSandbox].flatMap(({ twin, token, teams: own }) =>
        own.map((team) => [team.consumer, { storeId: String(TEAM_STORE_ID), token, apiUrl: twin.url }]),
      ),
    );
    // The twins' CPU while the run lasts, not their start.
    const twinsBefore = await Promise.all(twins.map(requestsOf));
    const [cpuBefore, machineBefore] = [childrenCpuSeconds(), machineSeconds()];
    progress(`K = ${k}: pact:verify --broker on live, ${teams.length + 1} teams over ${k + 1} sandboxes…`);
    const started = performance.now();
    // What the nightly publishes is not this bench's to measure: the verdicts are read from the run's own lines.
    const run = await runScript(
      [...PACT_VERIFY, '--broker', '--main-branch', '--provider-name', STORE_PACT.provider, '--no-publish'],
      verifyEnv(twins[0]!.url, entries, teams.length + 1, broker.origin),
    );
    const wall = (performance.now() - started) / 1000;
    writeFileSync(join(ROOT, REPORTS_DIR, `pact-verify-k${k}.log`), run.output);
    const [cpuAfter, machineAfter] = [childrenCpuSeconds(), machineSeconds()];
    const counted = await Promise.all(twins.map(requestsOf));
    const bucketOf = (sandbox: Sandbox, i: number): RequestCount =>
      counted[i]!.byToken[sandbox.token] ?? { answered: 0, admitted: 0, rateRefused: 0, scopeRefused: 0 };
    const perBucket = sandboxes.map((sandbox, i) => bucketOf(sandbox, i).admitted);
    const allBuckets = [...sandboxes.map(bucketOf), bucketOf(refusedSandbox, k)];
    const sandboxSeconds = Math.max(0, ...[...run.output.matchAll(SANDBOX_LINE)].map((m) => Number(m[5])));
    const harnessCount = BUDGET_LINE.exec(run.output)?.[1];
    progress(`K = ${k}: exit ${run.code} in ${wall.toFixed(1)} s; busiest bucket ${Math.max(...perBucket)} requests`);
    return {
      k,
      code: run.code,
      wall,
      sandboxSeconds,
      perBucket,
      rateRefused: allBuckets.reduce((sum, bucket) => sum + bucket.rateRefused, 0),
      harnessCount: harnessCount === undefined ? undefined : Number(harnessCount),
      verifyCpu: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
      twinsCpu: counted.reduce((sum, c, i) => sum + c.cpuSeconds - twinsBefore[i]!.cpuSeconds, 0),
      machineCpu: machineBefore === undefined || machineAfter === undefined ? undefined : machineAfter.busy - machineBefore.busy,
      problems: verdictProblems(run, teams, allBuckets.at(-1)!),
    };
  } finally {
    await Promise.all(twins.map(({ child }) => stopChild(child)));
  }
}

/**
 * The live variables of the nightly's run: every team has its sandbox, so the harness's own store is never used. What
 * this shell may hold for a real run (the media API, a broker's credentials, the run's name) is blanked: unset for the harness.
 */
function verifyEnv(storeUrl: string, sandboxes: Record<string, unknown>, teams: number, broker: string): Record<string, string> {
  return {
    HARNESS_TARGET: 'live',
    HARNESS_REPORTS_DIR: REPORTS_DIR,
    STORE_API_URL: storeUrl,
    STORE_ID: String(TEAM_STORE_ID),
    STORE_ACCESS_TOKEN: `twin-token-${TEAM_STORE_ID}`,
    STORE_USER_AGENT: 'api-contract-harness nightly-teams bench (https://example.invalid)',
    STORE_ALLOW_WRITES: '1',
    LIVE_STORE_ALLOWLIST: String(TEAM_STORE_ID),
    STORE_TEAM_SANDBOXES: JSON.stringify(sandboxes),
    // Far above what the teams send (a few requests per interaction): the bench measures the buckets, not the budget.
    LIVE_REQUEST_BUDGET: String(teams * 200),
    PACT_BROKER_BASE_URL: broker,
    PACT_DO_NOT_TRACK: 'true',
    ...Object.fromEntries(BLANKED.map((name) => [name, ''])),
  };
}

function requestsOf({ child }: ForkedServer): Promise<Extract<ChildMessage, { type: 'requests' }>> {
  return new Promise((resolve) => {
    const onMessage = (message: ChildMessage): void => {
      if (message.type !== 'requests') return;
      child.off('message', onMessage);
      resolve(message);
    };
    child.on('message', onMessage);
    child.send({ type: 'count-requests' } satisfies BenchRequest);
  });
}

/**
 * store.oauth.scopes-enforced, as the nightly reports it: every interaction of every team verified, but the refused
 * team's that write, each red naming the scope its app lacks; its twin refused them (403) before its bucket.
 */
function verdictProblems(run: { code: number | null; output: string }, teams: readonly TeamPact[], refusedBucket: RequestCount): string[] {
  const problems: string[] = [];
  const lines = Map.groupBy([...run.output.matchAll(VERDICT_LINE)], (m) => m[2]!);
  const marks = (consumer: string) => (lines.get(consumer) ?? []).map((m) => m[1]);
  const notGreen = teams.filter((team) => marks(team.consumer).filter((mark) => mark === '✓').length !== team.interactions).map((team) => team.consumer);
  if (notGreen.length > 0)
    problems.push(`not all verified: ${notGreen.slice(0, 3).join(', ')}${notGreen.length > 3 ? ` and ${notGreen.length - 3} more` : ''}`);
  const refusedRed = marks(REFUSED_TEAM).filter((mark) => mark === '✘').length;
  if (refusedRed === 0) problems.push(`${REFUSED_TEAM} is not red`);
  const named = run.output.split(`${REFUSED_TEAM}'s app was not granted ${MISSING_SCOPE}`).length - 1;
  if (named < refusedRed) problems.push(`${refusedRed - named} of ${REFUSED_TEAM}'s failures do not name ${MISSING_SCOPE}`);
  if (refusedBucket.scopeRefused === 0) problems.push(`${REFUSED_TEAM}'s twin refused nothing for a scope`);
  if (run.code !== 1) problems.push(`pact:verify exited ${run.code}, not 1 (one team red)`);
  return problems;
}

function report(runs: readonly Run[], teams: number, interactions: number): void {
  console.log(`\n## The nightly's team pacts at scale (\`pact:verify --broker\` on live, K sandboxes side by side)\n`);
  console.log(
    `${teams} generated team pacts (${interactions} interactions) plus ${REFUSED_TEAM}'s, from the broker stand-in; each sandbox a store twin process on the plus plan ` +
      `(a bucket of ${PLAN.bucketSize} leaking ${PLAN.leakPerSecond}/s) with one app; the sandboxes verified in min(cpus, sandboxes) processes; ${cpus().length} cpus.`,
  );
  console.log(
    `Bucket bound of R requests = max(0, (R − ${PLAN.bucketSize}) / ${PLAN.leakPerSecond}) s: the least time any client needs to send them through a bucket that starts empty ` +
      `(the ${PLAN.bucketSize} it holds at once, then one per leak). R is what the busiest bucket admitted, as its twin counted: a request refused before the bucket (its User-Agent, token or scopes) costs it nothing. ` +
      `CPU ÷ cpus is the least wall time the run's work allows on this machine: a run above its bound and near it is bound by the CPU, not the bucket. Other work is the CPU the rest of the machine used meanwhile, which such a run waits for.\n`,
  );
  const cores = cpus().length;
  printTable(
    ['K', 'wall', 'busiest sandbox', 'requests each bucket admitted', 'bound', 'wall / bound', 'CPU: verify + twins, ÷ cpus', 'other work', '429s', 'teams'],
    runs.map((run) => {
      const busiest = Math.max(...run.perBucket);
      const bound = bucketBoundSeconds(busiest);
      const cpu = (run.verifyCpu ?? NaN) + run.twinsCpu;
      return [
        String(run.k),
        `${fixed(run.wall, 1)} s`,
        `${fixed(run.sandboxSeconds, 1)} s`,
        `${run.perBucket.join(' / ')}${run.harnessCount === undefined ? '' : ` (harness: ${run.harnessCount} in all)`}`,
        `${fixed(bound, 1)} s`,
        bound > 0 ? `${ratio(run.wall, bound)} ${verdict(run.wall <= GOALS.withinBound * bound)}` : `— ${verdict(false)} (within the burst)`,
        `${fixed(run.verifyCpu ?? NaN, 0)} + ${fixed(run.twinsCpu, 0)} s, ${fixed(cpu / cores, 1)} s`,
        `${fixed(Math.max(0, (run.machineCpu ?? NaN) - cpu), 0)} s`,
        String(run.rateRefused),
        run.problems.length === 0 ? `every team green, ${REFUSED_TEAM} red naming ${MISSING_SCOPE}: MET` : `MISSED: ${run.problems.join('; ')}`,
      ];
    }),
  );
  const one = runs.find((run) => run.k === 1);
  const four = runs.find((run) => run.k === 4);
  console.log(
    `\nGoals: wall within ×${GOALS.withinBound} of the busiest bucket's bound for every K (above); ` +
      (one && four
        ? `K = 4 at most ×${GOALS.fourToOne} of K = 1: ${ratio(four.wall, one.wall)} ${verdict(four.wall <= GOALS.fourToOne * one.wall)}.`
        : 'K = 4 against K = 1: not measured (BENCH_TEAM_SANDBOXES leaves one out).'),
  );
}
