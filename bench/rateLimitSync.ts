/**
 * `npm run bench -- sync` (or `node bench/rateLimitSync.ts`): the typed
 * StoreClient, pacing itself on the real clock, fetches every product of a
 * store through the twin's leaky bucket (twin in a child process, store on the
 * real clock), following Link headers. Elapsed time is compared with the least
 * the bucket allows for that many requests, and 429s are counted.
 * Target: within 10% of the minimum and zero 429s.
 *
 * 1,000 products at 200 a page is 5 requests, which an empty bucket never
 * limits, so each size also runs from a full bucket (filled by the same client
 * first, so its pacer knows), and the smallest size at 50 a page from full.
 * A benchmark, not a test: it prints figures measured in one run, and ratios.
 */
import { StoreClient } from '../src/clients/store/StoreClient.ts';
import type { Exchange } from '../src/clients/store/types.ts';
import { clientStack } from '../src/providers/clientStack.ts';
import { MS_PER_LEAK, STORE_CONTRACT } from '../src/rules/storeContract.ts';
import { StoreTwinControl, type TwinStoreInfo } from '../src/testing/StoreTwinControl.ts';
import { benchEnv } from './lib/benchEnv.ts';
import { CHILD_ENTRIES, forkServer, stopChild } from './lib/childProcesses.ts';
import { fixed, printTable, progress, verdict } from './lib/report.ts';
import { BENCH_USER_AGENT } from './lib/twinTargets.ts';

const SMALL_PAGE = 50;
const TOLERANCE = 0.1;

interface Plan {
  readonly perPage: number;
  readonly start: 'empty' | 'full';
}

interface Outcome extends Plan {
  readonly size: number;
  /** Requests in the bucket when the clock started. */
  readonly startLevel: number;
  /** Every attempt, 429s included. */
  readonly requests: number;
  readonly refused: number;
  readonly minimumS: number;
  readonly elapsedS: number;
  readonly products: number;
  /** Mean time from a request leaving to its answer being read. */
  readonly meanAnswerMs: number;
}

/**
 * The least time the bucket allows for `admitted` requests sent one after the
 * other from `startLevel`: the k-th fits once the level is at most capacity − 1,
 * so the last waits for max(0, startLevel + admitted − capacity) leaks.
 */
function minimumSeconds(admitted: number, startLevel: number): number {
  return Math.max(0, startLevel + admitted - STORE_CONTRACT.bucketSize) / STORE_CONTRACT.leakPerSecond;
}

function plansFor(size: number, smallest: number): Plan[] {
  const plans: Plan[] = [
    { perPage: STORE_CONTRACT.maxPerPage, start: 'empty' },
    { perPage: STORE_CONTRACT.maxPerPage, start: 'full' },
  ];
  if (size === smallest) plans.push({ perPage: SMALL_PAGE, start: 'full' });
  return plans;
}

/** The rate headers of an answer as the level it shows, in requests (X-Rate-Limit-Reset is exact, in ms). */
function levelOf(headers: Readonly<Record<string, string>> | undefined): number | undefined {
  const reset = Number(headers?.['x-rate-limit-reset']);
  return Number.isFinite(reset) ? reset / MS_PER_LEAK : undefined;
}

/** The bench's paced client, on the stack every client of the harness is sent through (src/providers/clientStack.ts). */
export function syncClient(store: Pick<TwinStoreInfo, 'baseUrl'>, token: string, onExchange: (exchange: Exchange) => void): StoreClient {
  return new StoreClient({ baseUrl: store.baseUrl, token, userAgent: BENCH_USER_AGENT, ...clientStack('store', 'twin', onExchange) });
}

async function syncOnce(control: StoreTwinControl, store: TwinStoreInfo, size: number, plan: Plan): Promise<Outcome> {
  // A token of its own: a bucket of its own, empty (store.ratelimit.per-store-and-token).
  const { token } = await control.addToken(store.storeId);
  let measuring = false;
  let requests = 0;
  let refused = 0;
  let answerMs = 0;
  // The fullest reading of the fill, and when it was read.
  let fill = { level: 0, at: performance.now() };
  const client = syncClient(store, token, (exchange) => {
    if (!measuring) {
      const level = levelOf(exchange.response?.headers);
      if (level !== undefined && level >= fill.level) fill = { level, at: performance.now() };
      return;
    }
    requests += 1;
    answerMs += exchange.durationMs;
    if (exchange.response?.status === 429) refused += 1;
  });
  if (plan.start === 'full') {
    await Promise.all(Array.from({ length: STORE_CONTRACT.bucketSize }, () => client.send({ method: 'GET', path: '/products', query: { per_page: 1 } })));
  }
  measuring = true;
  const started = performance.now();
  const startLevel = plan.start === 'full' ? Math.max(0, fill.level - ((started - fill.at) / 1000) * STORE_CONTRACT.leakPerSecond) : 0;
  const ids = new Set<number>();
  for await (const product of client.iterateProducts({ per_page: plan.perPage })) ids.add(product.id);
  const elapsedS = (performance.now() - started) / 1000;
  return {
    ...plan,
    size,
    startLevel,
    requests,
    refused,
    minimumS: minimumSeconds(requests - refused, startLevel),
    elapsedS,
    products: ids.size,
    meanAnswerMs: requests > 0 ? answerMs / requests : 0,
  };
}

function tableRow(o: Outcome): string[] {
  const limited = o.minimumS > 0;
  const met = o.refused === 0 && o.products === o.size && (!limited || o.elapsedS <= o.minimumS * (1 + TOLERANCE));
  return [
    o.size.toLocaleString('en'),
    String(o.perPage),
    `${o.start} (${fixed(o.startLevel, 1)})`,
    String(o.requests),
    fixed(o.minimumS, 1),
    fixed(o.elapsedS, 2),
    limited ? `×${fixed(o.elapsedS / o.minimumS, 3)}` : 'n/a: not limited',
    String(o.refused),
    o.products === o.size ? String(o.products) : `${o.products} of ${o.size}`,
    fixed(o.meanAnswerMs, 1),
    verdict(met),
  ];
}

export async function rateLimitSync(): Promise<void> {
  const sizes = benchEnv().syncSizes;
  progress('sync: starting the store twin');
  const twin = await forkServer(CHILD_ENTRIES.twin, ['store']);
  const outcomes: Outcome[] = [];
  try {
    const control = new StoreTwinControl(twin.url);
    for (const size of sizes) {
      progress(`sync: creating a store of ${size.toLocaleString('en')} products (real clock)`);
      const store = await control.createStore({ products: size, clock: 'real' });
      for (const plan of plansFor(size, sizes[0]!)) {
        const pages = Math.ceil(size / plan.perPage);
        progress(
          `sync: ${size.toLocaleString('en')} products, per_page=${plan.perPage}, ${pages} pages from ${plan.start === 'empty' ? 'an empty' : 'a full'} bucket`,
        );
        outcomes.push(await syncOnce(control, store, size, plan));
      }
    }
  } finally {
    await stopChild(twin.child);
  }

  const { bucketSize, leakPerSecond } = STORE_CONTRACT;
  console.log(`\n### Sync at the rate limit: bucket ${bucketSize}, leaking ${leakPerSecond}/s, real clock\n`);
  printTable(
    ['store size', 'per_page', 'start level', 'requests', 'minimum s', 'elapsed s', 'elapsed/minimum', '429s', 'products', 'mean answer ms', 'target'],
    outcomes.map(tableRow),
  );
  console.log(
    `\nminimum = max(0, start level + requests − ${bucketSize}) / ${leakPerSecond} s. Target: within ${TOLERANCE * 100}% of it (rows the bucket never limits: zero 429s only), zero 429s, every product once.`,
  );
}

if (import.meta.main) await rateLimitSync();
