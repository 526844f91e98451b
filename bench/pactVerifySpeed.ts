/**
 * `npm run bench -- pact-verify`: what a team waits for. Side by side in one run, on the same pacts:
 *
 *  - the harness cold: `api-contract-harness pact-verify --pact <file>`, the bin as a team's project runs it (compiled,
 *    dist/scripts/bin.js, built first), which starts the twins itself and arranges every state;
 *  - the twins' start: `api-contract-harness twins` until both twins listen;
 *  - Pact's own verifier (pact_verifier_cli, @pact-foundation/pact-cli) on the same pact, against those twins
 *    already running: its whole process, without states (it has no state handler to call, so it sends each
 *    request to the seeded store 100001 with that store's token) and without the harness's guards.
 *
 * The pacts: the two examples' (2 interactions each) and one of 13 store interactions (the harness's own store
 * pact, the held-out menu's and the product sync's, joined). The goal (issue 39): the harness cold within 3 s for
 * 13 interactions, and within 1.5 times the bare verifier's process plus the twins' start. A benchmark, not a
 * test: it asserts nothing; a missed goal prints MISSED.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { processEnv } from '../src/config/env.ts';
import { DEFAULT_KITSU_TWIN_PORT, DEFAULT_STORE_TWIN_PORT } from '../src/config/harnessConfig.ts';
import { tokenOf } from '../src/twins/store/seed.ts';
import { startTwinProcess, stopTwinProcess } from '../scripts/lib/twinProcess.ts';
import { buildPackage } from '../scripts/buildPackage.ts';

const STATES = resolve('tests/fixtures/pact-states.ts');
const GOAL_SECONDS = 3;
const GOAL_RATIO = 1.5;

interface Case {
  readonly name: string;
  readonly pact: string;
  readonly api: 'store' | 'media';
  readonly states?: string;
  readonly interactions: number;
}

/** One store pact of 13 interactions: the harness's own (9), the held-out menu's (2) and the product sync's (2). */
function thirteenInteractions(dir: string): string {
  const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { interactions: unknown[]; metadata: unknown };
  const own = read('contracts/pacts/store-integration-store-commerce-api.json');
  const interactions = [
    ...own.interactions,
    ...read('tests/fixtures/pacts/storefront-menu-store-commerce-api.json').interactions,
    ...read('examples/pacts/store-product-sync-store-commerce-api.json').interactions,
  ];
  const path = join(dir, 'bench-13-store-commerce-api.json');
  writeFileSync(path, JSON.stringify({ consumer: { name: 'bench-13' }, provider: { name: 'store-commerce-api' }, interactions, metadata: own.metadata }));
  return path;
}

const env = (extra: Record<string, string> = {}) => ({ ...processEnv(), PACT_DO_NOT_TRACK: 'true', CI: '1', ...extra });
const ports = () => ({
  store: Number(processEnv()['STORE_TWIN_PORT'] || DEFAULT_STORE_TWIN_PORT),
  media: Number(processEnv()['KITSU_TWIN_PORT'] || DEFAULT_KITSU_TWIN_PORT),
});

/** The harness cold: the bin from a team's point of view, twins started by it. */
function harnessCold(c: Case, out: string): { seconds: number; code: number | null; verdict: string } {
  const started = performance.now();
  const run = spawnSync(process.execPath, ['dist/scripts/bin.js', 'pact-verify', '--pact', c.pact, ...(c.states ? ['--states', c.states] : []), '--out', out], {
    encoding: 'utf8',
    env: env({ HARNESS_RUN_NAME: `bench-pact-verify-${c.interactions}` }),
  });
  const seconds = (performance.now() - started) / 1000;
  const verdict = /\d+ verified, \d+ failed, \d+ not verified/.exec(run.stdout ?? '')?.[0] ?? `exit ${run.status}`;
  return { seconds, code: run.status, verdict };
}

/** The twins as a process of their own, timed until both answer their health check; `stop` ends that process. */
async function startTwinsProcess(): Promise<{ seconds: number; stop: () => Promise<void> }> {
  const { store, media } = ports();
  const started = performance.now();
  const twins = await startTwinProcess(store, media);
  return { seconds: (performance.now() - started) / 1000, stop: () => stopTwinProcess(twins) };
}

/** Pact's own verifier, its whole process, on the pact against the running twin of its API. */
function bareVerifier(c: Case, dir: string): { seconds: number; verdict: string } {
  const { store, media } = ports();
  const report = join(dir, `bare-${c.interactions}-${c.api}.json`);
  const args = ['node_modules/@pact-foundation/pact-cli/bin/pact-verifier.js', '--file', c.pact, '--hostname', '127.0.0.1', '--no-colour', '--json', report];
  if (c.api === 'store') args.push('--port', String(store), '--header', `Authentication=bearer ${tokenOf(100001)}`);
  else args.push('--port', String(media));
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { encoding: 'utf8', env: env() });
  const seconds = (performance.now() - started) / 1000;
  let verdict = `exit ${run.status}`;
  try {
    const json = JSON.parse(readFileSync(report, 'utf8')) as { errors?: unknown[] };
    const failed = json.errors?.length ?? 0;
    verdict = `${c.interactions - failed} matched, ${failed} did not (no states arranged)`;
  } catch {
    // No report: the exit code says what happened.
  }
  return { seconds, verdict };
}

export async function pactVerifySpeed(): Promise<void> {
  // What a team installs: the harness compiled, as npm pack writes it.
  if (buildPackage() !== 0) throw new Error('pact-verify bench: the package did not build (above)');
  const dir = mkdtempSync(join(tmpdir(), 'bench-pact-verify-'));
  const cases: Case[] = [
    {
      name: 'store-product-sync (example)',
      pact: resolve('examples/pacts/store-product-sync-store-commerce-api.json'),
      api: 'store',
      states: STATES,
      interactions: 2,
    },
    { name: 'media-library-reader (example)', pact: resolve('examples/pacts/media-library-reader-media-tracking-api.json'), api: 'media', interactions: 2 },
    { name: '13 store interactions', pact: thirteenInteractions(dir), api: 'store', states: STATES, interactions: 13 },
  ];
  try {
    // Cold first, while no twin listens on this run's ports: the harness starts its own.
    const cold = cases.map((c) => {
      console.error(`[bench] pact-verify: the harness cold on ${c.name}`);
      return harnessCold(c, join(dir, `reports-${c.interactions}-${c.api}`));
    });
    console.error('[bench] pact-verify: the twins, then the bare verifier against them');
    const twins = await startTwinsProcess();
    let bare: ReturnType<typeof bareVerifier>[];
    try {
      bare = cases.map((c) => bareVerifier(c, dir));
    } finally {
      await twins.stop();
    }

    console.log("\n## pact-verify: the harness cold vs Pact's own verifier on running twins\n");
    console.log(`The twins' start (a process of their own, until both listen): ${twins.seconds.toFixed(2)} s\n`);
    console.log("| pact | interactions | harness cold | its verdict | bare verifier | its verdict | bare + twins' start | harness ÷ (bare + start) | goal |");
    console.log('|---|---|---|---|---|---|---|---|---|');
    cases.forEach((c, i) => {
      const h = cold[i]!;
      const b = bare[i]!;
      const base = b.seconds + twins.seconds;
      const ratio = h.seconds / base;
      const met = ratio <= GOAL_RATIO && (c.interactions < 13 || h.seconds <= GOAL_SECONDS);
      console.log(
        `| ${c.name} | ${c.interactions} | ${h.seconds.toFixed(2)} s | ${h.verdict} | ${b.seconds.toFixed(2)} s | ${b.verdict} | ${base.toFixed(2)} s | ×${ratio.toFixed(2)} | ${met ? 'met' : 'MISSED'} |`,
      );
    });
    console.log(
      `\nGoal: the harness cold within ${GOAL_SECONDS} s for 13 interactions, and within ×${GOAL_RATIO} of the bare verifier's process plus the twins' start. ` +
        'The bare verifier arranges no state and checks no guard: it is the floor, not the same work.',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) await pactVerifySpeed();
