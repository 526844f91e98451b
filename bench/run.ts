/**
 * `npm run bench [-- part ...]`: the twins' benchmarks in one run, in the
 * order named (default: every part). Prints the machine, progress while it
 * runs (stderr) and each part's tables (stdout). A target a part misses is
 * printed as MISSED; the exit code is non-zero only when a part could not run.
 *
 *   npm run bench -- throughput load sync
 *   BENCH_SECONDS=2 BENCH_LOAD_SECONDS=5 BENCH_SYNC_SIZES=1000 npm run bench
 */
import { cpus, loadavg } from 'node:os';
import { BenchEnvError, benchEnv } from './lib/benchEnv.ts';

interface Part {
  /** What the part measures, for the progress line. */
  readonly title: string;
  /** Loaded only when the part runs. */
  readonly run: () => Promise<void>;
}

// One entry per part; a new bench is one more line here.
const PARTS: Readonly<Record<string, Part>> = {
  throughput: {
    title: 'twin throughput vs a bare Node server and Prism',
    run: () => import('./twinThroughput.ts').then((bench) => bench.twinThroughput()),
  },
  load: { title: 'sustained load: errors, 5xx and memory', run: () => import('./load.ts').then((bench) => bench.load()) },
  sync: { title: 'sync at the rate limit with the typed client', run: () => import('./rateLimitSync.ts').then((bench) => bench.rateLimitSync()) },
  gate: { title: 'the gate itself: npm test, per run and project', run: () => import('./gateTime.ts').then((bench) => bench.gateTime()) },
  'break-cost': {
    title: 'a live verify behind a break that fails most tests, against its clean run',
    run: () => import('./breakCost.ts').then((bench) => bench.breakCost()),
  },
  'pact-verify': {
    title: "npx api-contract-harness pact-verify cold vs Pact's own verifier on running twins",
    run: () => import('./pactVerifySpeed.ts').then((bench) => bench.pactVerifySpeed()),
  },
  nightly: {
    title: "the nightly's sequence on a twin process behind one break per API",
    run: () => import('./nightlyTime.ts').then((bench) => bench.nightlyTime()),
  },
  'nightly-teams': {
    title: "every team's pact from the broker on live, against 1, 2 and 4 sandboxes side by side, one bucket each",
    run: () => import('./nightlyTeams.ts').then((bench) => bench.nightlyTeams()),
  },
};

function fail(message: string): never {
  console.error(`[bench] ${message}`);
  process.exit(2);
}

const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !Object.hasOwn(PARTS, name));
if (unknown.length > 0) fail(`no part named ${unknown.join(', ')}. The parts: ${Object.keys(PARTS).join(', ')} (none named: all of them).`);
try {
  benchEnv();
} catch (error) {
  if (!(error instanceof BenchEnvError)) throw error;
  fail(error.message);
}

const names = requested.length > 0 ? requested : Object.keys(PARTS);
const cores = cpus();
console.log(`# Bench: ${names.join(', ')}\n`);
console.log(
  `${new Date().toISOString()}, node ${process.version} on ${process.platform}/${process.arch}, ${cores.length} cpus (${cores[0]?.model.trim() ?? 'unknown'}), load average ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}`,
);
console.log('Figures come from one run on this machine: compare the ratios within it, not the figures across machines.');

const failed: string[] = [];
for (const name of names) {
  const part = PARTS[name]!;
  const started = performance.now();
  console.error(`\n[bench] ${name}: ${part.title}`);
  try {
    await part.run();
    console.error(`[bench] ${name}: done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } catch (error) {
    failed.push(name);
    console.error(`[bench] ${name} could not run:`, error);
  }
}
if (failed.length > 0) {
  console.log(`\nCOULD NOT RUN: ${failed.join(', ')} (the error is above, on stderr).`);
  process.exitCode = 1;
}
