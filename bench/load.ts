/**
 * `npm run bench -- load` (or `node bench/load.ts`): each twin, in a child
 * process, under 64 connections for BENCH_LOAD_SECONDS (default 30) over a mix
 * of a list, a single resource, a 404 and an update of one record. The store
 * twin serves an unmetered store (no 429s) and answers a few injected 503s on
 * purpose (control API). The child reports its memory every second over IPC;
 * nothing is forced (no GC calls). Target: no errors, no 5xx but the injected
 * ones, and memory that stays flat.
 * A benchmark, not a test: it prints figures measured in one run.
 */
import type { AutocannonRequest } from 'autocannon';
import type { ChildProcess } from 'node:child_process';
import { StoreTwinControl } from '../src/testing/StoreTwinControl.ts';
import { benchEnv } from './lib/benchEnv.ts';
import type { ChildMessage } from './lib/childMessages.ts';
import { CHILD_ENTRIES, forkServer, stopChild } from './lib/childProcesses.ts';
import { FLAT_THRESHOLD_MB, memoryTrend, type MemorySample, type MemoryTrend } from './lib/memoryTrend.ts';
import { fixed, printTable, progress, verdict } from './lib/report.ts';
import { runAutocannon, type LoadResult } from './lib/runAutocannon.ts';
import { prepareTarget, type TwinApi } from './lib/twinTargets.ts';

const CONNECTIONS = 64;
const INJECTED_503 = 50;
/** Memory "after warm-up" is read this far into the load (or a quarter into a shorter run). */
const WARM_UP_SECONDS = 5;
const MB = 1024 * 1024;
/** Statuses the mix asks for besides 2xx: the 404 on purpose, and the injected 503s. */
const MEANT_STATUSES = new Set(['404', '503']);

interface LoadOutcome {
  readonly api: TwinApi;
  readonly result: LoadResult;
  readonly injected: number;
  readonly fiveXx: number;
  readonly unexpected: string[];
  readonly trend: MemoryTrend | undefined;
  readonly warmUpS: number;
}

/** Resolves with the child's next memory report. */
function nextMemoryReport(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (message: ChildMessage): void => {
      if (message.type !== 'memory') return;
      child.off('message', onMessage);
      resolve();
    };
    child.on('message', onMessage);
  });
}

async function loadTwin(api: TwinApi, seconds: number): Promise<LoadOutcome> {
  progress(`load: starting the ${api} twin`);
  const twin = await forkServer(CHILD_ENTRIES.twin, [api]);
  const reports: { at: number; rss: number; heapUsed: number; heapTotal: number }[] = [];
  twin.child.on('message', (message: ChildMessage) => {
    if (message.type === 'memory') reports.push({ ...message, at: performance.now() });
  });
  try {
    const target = await prepareTarget(api, twin.url);
    const injected = target.storeId === undefined ? 0 : INJECTED_503;
    if (target.storeId !== undefined) await new StoreTwinControl(twin.url).injectFaults(target.storeId, { status: 503, count: injected });
    const mix: AutocannonRequest[] = [
      { method: 'GET', path: target.list, headers: target.headers },
      { method: 'GET', path: target.single, headers: target.headers },
      { method: 'GET', path: target.missing, headers: target.headers },
      target.write,
    ];
    // A memory reading taken after set-up, just before the load.
    await nextMemoryReport(twin.child);
    progress(`load: ${api} twin, ${CONNECTIONS} connections for ${seconds} s: ${mix.map((r) => `${r.method} ${r.path}`).join(', ')}`);
    const started = performance.now();
    const result = await runAutocannon({ url: twin.url, connections: CONNECTIONS, seconds, requests: mix });
    const samples: MemorySample[] = reports.map((r) => ({
      atS: (r.at - started) / 1000,
      rssMb: r.rss / MB,
      heapUsedMb: r.heapUsed / MB,
      heapTotalMb: r.heapTotal / MB,
    }));
    const warmUpS = Math.min(WARM_UP_SECONDS, seconds / 4);
    const statuses = Object.keys(result.byStatus);
    return {
      api,
      result,
      injected,
      fiveXx: statuses.filter((status) => status.startsWith('5')).reduce((sum, status) => sum + (result.byStatus[status] ?? 0), 0),
      unexpected: statuses.filter((status) => !status.startsWith('2') && !MEANT_STATUSES.has(status)),
      trend: memoryTrend(samples, seconds, warmUpS),
      warmUpS,
    };
  } finally {
    await stopChild(twin.child);
  }
}

function met(o: LoadOutcome): boolean {
  return o.result.errors === 0 && o.unexpected.length === 0 && o.fiveXx === o.injected && o.trend?.flat === true;
}

function byStatus(result: LoadResult): string {
  return Object.entries(result.byStatus)
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
}

function memoryRow(o: LoadOutcome): string[] {
  const t = o.trend;
  if (!t) return [o.api, 'too few memory samples (run longer)', '', '', '', '', '', ''];
  const pair = (s: MemorySample): string => `${fixed(s.rssMb, 1)} / ${fixed(s.heapUsedMb, 1)}`;
  return [
    o.api,
    pair(t.start),
    pair(t.afterWarmUp),
    pair(t.end),
    `${fixed(t.rssMbPer10s, 2)} / ${fixed(t.heapMbPer10s, 2)}`,
    fixed(t.heapFloorGrowthMb, 1),
    fixed(t.outsideHeapGrowthMb, 1),
    t.flat ? 'flat' : 'GROWING',
  ];
}

export async function load(): Promise<void> {
  const { loadSeconds } = benchEnv();
  const outcomes: LoadOutcome[] = [];
  for (const api of ['store', 'media'] as const) outcomes.push(await loadTwin(api, loadSeconds));

  console.log(`\n### Load: ${CONNECTIONS} connections for ${loadSeconds} s per twin, mix of list, single, 404 and update\n`);
  printTable(
    ['twin', 'requests', 'req/s', 'p99 ms (2xx)', 'errors', 'answers by status', '5xx (injected)', 'unexpected statuses', 'target'],
    outcomes.map((o) => [
      o.api,
      String(o.result.requests),
      fixed(o.result.reqPerSec, 0),
      fixed(o.result.p99Ms, 0),
      `${o.result.errors} (${o.result.timeouts} timeouts)`,
      byStatus(o.result),
      `${o.fiveXx} (${o.injected})`,
      o.unexpected.length === 0 ? 'none' : o.unexpected.join(', '),
      verdict(met(o)),
    ]),
  );
  console.log(`\nMemory of the twin's process, RSS / heapUsed in MB (warm-up: the first ${fixed(outcomes[0]?.warmUpS ?? 0, 1)} s):\n`);
  printTable(
    ['twin', 'start', 'after warm-up', 'end', 'slope MB/10 s, 2nd half', 'heapUsed floor growth MB', 'RSS − heapTotal floor growth MB', 'memory'],
    outcomes.map(memoryRow),
  );
  console.log(
    [
      `\nSlopes: least-squares fit of the raw per-second samples over the second half; they include V8 enlarging its heap (RSS steps) and the garbage between collections (heapUsed sawtooth).`,
      `flat = what the twin keeps does not grow: the lowest heapUsed (after a collection) and the lowest RSS − heapTotal (memory outside the V8 heap) each rise less than ${FLAT_THRESHOLD_MB} MB from the third quarter of the run to the last.`,
      'Target: no errors; no statuses but 2xx, the 404 asked for and the injected 503s; 5xx = injected; memory flat.',
    ].join('\n'),
  );
}

if (import.meta.main) await load();
