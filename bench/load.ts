/**
 * `npm run bench -- load` (or `node bench/load.ts`): each twin, in a child
 * process, under 64 connections over a mix of a list, a single resource, a
 * 404 and an update of one record: first a warm-up of WARM_UP_SECONDS, then
 * the measured load of BENCH_LOAD_SECONDS (default 30). The store twin serves
 * an unmetered store (no 429s) and answers a few injected 503s on purpose
 * (control API) during the measured load. What the twin retains is read after
 * full collections, at quiet points before and after the measured load (see
 * retainedMemory.ts). Target: no errors, no 5xx but the injected ones, and
 * retained memory that stays flat.
 * A benchmark, not a test: it prints figures measured in one run.
 */
import type { AutocannonRequest } from 'autocannon';
import type { ChildProcess } from 'node:child_process';
import { StoreTwinControl } from '../src/testing/StoreTwinControl.ts';
import { benchEnv } from './lib/benchEnv.ts';
import type { BenchRequest, ChildMessage } from './lib/childMessages.ts';
import { CHILD_ENTRIES, forkServer, stopChild } from './lib/childProcesses.ts';
import { fixed, printTable, progress, verdict } from './lib/report.ts';
import { RETAINED_GROWTH_LIMIT_MB, retainedVerdict, toRetainedSample, type RetainedSample, type RetainedVerdict } from './lib/retainedMemory.ts';
import { runAutocannon, type LoadResult } from './lib/runAutocannon.ts';
import { prepareTarget, type TwinApi } from './lib/twinTargets.ts';

const CONNECTIONS = 64;
const INJECTED_503 = 50;
/**
 * Load before the first reading, so the reading is taken once V8 has sized its
 * heap and compiled the hot paths: growth after it is what the twin keeps.
 */
const WARM_UP_SECONDS = 10;
/** Statuses the mix asks for besides 2xx: the 404 on purpose, and the injected 503s. */
const MEANT_STATUSES = new Set(['404', '503']);

interface LoadOutcome {
  readonly api: TwinApi;
  readonly warmUp: LoadResult;
  readonly result: LoadResult;
  readonly injected: number;
  readonly fiveXx: number;
  readonly unexpected: string[];
  readonly before: RetainedSample;
  readonly afterWarmUp: RetainedSample;
  readonly end: RetainedSample;
  readonly memory: RetainedVerdict;
}

/** Asks the child to collect all garbage, and resolves with what it retains. */
function measureRetained(child: ChildProcess): Promise<RetainedSample> {
  return new Promise((resolve) => {
    const onMessage = (message: ChildMessage): void => {
      if (message.type !== 'retained') return;
      child.off('message', onMessage);
      resolve(toRetainedSample(message));
    };
    child.on('message', onMessage);
    child.send({ type: 'measure-retained' } satisfies BenchRequest);
  });
}

/** Statuses of both phases together: a 5xx in the warm-up counts as much as one in the load. */
function statusCounts(...results: LoadResult[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const result of results) for (const [status, count] of Object.entries(result.byStatus)) counts[status] = (counts[status] ?? 0) + count;
  return counts;
}

async function loadTwin(api: TwinApi, seconds: number): Promise<LoadOutcome> {
  progress(`load: starting the ${api} twin`);
  const twin = await forkServer(CHILD_ENTRIES.twin, [api], { exposeGc: true });
  try {
    const target = await prepareTarget(api, twin.url);
    const mix: AutocannonRequest[] = [
      { method: 'GET', path: target.list, headers: target.headers },
      { method: 'GET', path: target.single, headers: target.headers },
      { method: 'GET', path: target.missing, headers: target.headers },
      target.write,
    ];
    const before = await measureRetained(twin.child);
    progress(`load: ${api} twin, warm-up: ${CONNECTIONS} connections for ${WARM_UP_SECONDS} s: ${mix.map((r) => `${r.method} ${r.path}`).join(', ')}`);
    const warmUp = await runAutocannon({ url: twin.url, connections: CONNECTIONS, seconds: WARM_UP_SECONDS, requests: mix });
    const afterWarmUp = await measureRetained(twin.child);
    const injected = target.storeId === undefined ? 0 : INJECTED_503;
    if (target.storeId !== undefined) await new StoreTwinControl(twin.url).injectFaults(target.storeId, { status: 503, count: injected });
    progress(`load: ${api} twin, measured: ${CONNECTIONS} connections for ${seconds} s`);
    const result = await runAutocannon({ url: twin.url, connections: CONNECTIONS, seconds, requests: mix });
    const end = await measureRetained(twin.child);
    const counts = statusCounts(warmUp, result);
    const statuses = Object.keys(counts);
    return {
      api,
      warmUp,
      result,
      injected,
      fiveXx: statuses.filter((status) => status.startsWith('5')).reduce((sum, status) => sum + (counts[status] ?? 0), 0),
      unexpected: statuses.filter((status) => !status.startsWith('2') && !MEANT_STATUSES.has(status)),
      before,
      afterWarmUp,
      end,
      memory: retainedVerdict(afterWarmUp, end, result.requests),
    };
  } finally {
    await stopChild(twin.child);
  }
}

function met(o: LoadOutcome): boolean {
  return o.warmUp.errors + o.result.errors === 0 && o.unexpected.length === 0 && o.fiveXx === o.injected && o.memory.flat;
}

function byStatus(result: LoadResult): string {
  return Object.entries(result.byStatus)
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
}

function memoryRow(o: LoadOutcome): string[] {
  const three = (value: (sample: RetainedSample) => number): string => [o.before, o.afterWarmUp, o.end].map((sample) => fixed(value(sample), 1)).join(' / ');
  return [
    o.api,
    three((sample) => sample.heapUsedMb),
    three((sample) => sample.externalMb),
    three((sample) => sample.rssMb),
    `${fixed(o.memory.heapGrowthMb, 2)} / ${fixed(o.memory.externalGrowthMb, 2)}`,
    fixed(o.memory.bytesPerRequest, 1),
    o.memory.flat ? 'flat' : 'GROWING',
  ];
}

export async function load(): Promise<void> {
  const { loadSeconds } = benchEnv();
  const outcomes: LoadOutcome[] = [];
  for (const api of ['store', 'media'] as const) outcomes.push(await loadTwin(api, loadSeconds));

  console.log(
    `\n### Load: ${CONNECTIONS} connections for ${loadSeconds} s per twin (after ${WARM_UP_SECONDS} s of warm-up), mix of list, single, 404 and update\n`,
  );
  printTable(
    ['twin', 'requests', 'req/s', 'p99 ms (2xx)', 'errors', 'answers by status', '5xx (injected)', 'unexpected statuses', 'target'],
    outcomes.map((o) => [
      o.api,
      String(o.result.requests),
      fixed(o.result.reqPerSec, 0),
      fixed(o.result.p99Ms, 0),
      `${o.result.errors} (${o.result.timeouts} timeouts); warm-up ${o.warmUp.errors} (${o.warmUp.timeouts})`,
      byStatus(o.result),
      `${o.fiveXx} (${o.injected})`,
      o.unexpected.length === 0 ? 'none' : o.unexpected.join(', '),
      verdict(met(o)),
    ]),
  );
  console.log('\nMemory the twin retains after full collections, in MB, before the warm-up / after it / after the measured load:\n');
  printTable(
    ['twin', 'heap', 'external', 'RSS (not judged)', 'growth during the load: heap / external MB', 'bytes kept per request', 'memory'],
    outcomes.map(memoryRow),
  );
  console.log(
    [
      `\nflat = the retained heap and the retained external memory (Buffers, ArrayBuffers) each grow less than ${RETAINED_GROWTH_LIMIT_MB} MB over the measured load.`,
      'RSS is shown, not judged: it steps up while V8 sizes its heap and compiles hot code, and the allocator keeps freed pages.',
      'Target: no errors; no statuses but 2xx, the 404 asked for and the injected 503s; 5xx = injected; memory flat.',
    ].join('\n'),
  );
}

if (import.meta.main) await load();
