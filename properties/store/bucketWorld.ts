/**
 * The real side of the rate-limit model: stores and tokens whose buckets the
 * commands fill, and a clock the commands move. On the twin there are two
 * stores with two tokens each and time is virtual (every store's clock moves
 * together); on live there is the configured store and token, and time is the
 * wall clock.
 */
import type { StoreClient } from '../../src/clients/store/StoreClient.ts';
import type { ArenaStore, StoreArena } from '../support/storeArena.ts';
import type { RequestBudget } from '../support/liveBudget.ts';
import type { StorePlan } from '../../src/rules/storeContract.ts';

/** One answer as the model needs it; times in ms since the world opened. */
export interface BucketObservation {
  readonly status: number;
  readonly limit: number | undefined;
  readonly remaining: number | undefined;
  readonly resetMs: number | undefined;
  readonly sentAt: number;
  readonly receivedAt: number;
}

export interface BucketWorld {
  /** Twin: virtual time, so the model must agree to the millisecond. */
  readonly exact: boolean;
  readonly stores: number;
  readonly tokensPerStore: number;
  /** Live only: requests still allowed. */
  readonly budget: RequestBudget | undefined;
  now(): number;
  send(store: number, token: number): Promise<BucketObservation>;
  wait(ms: number): Promise<void>;
  close(): Promise<void>;
}

async function observe(client: StoreClient, now: () => number): Promise<BucketObservation> {
  const sentAt = now();
  const res = await client.send({ method: 'GET', path: '/products', query: { per_page: 1 }, pace: false, retry: false });
  const receivedAt = now();
  return { status: res.status, limit: res.rate?.limit, remaining: res.rate?.remaining, resetMs: res.rate?.reset, sentAt, receivedAt };
}

/** Two fresh twin stores on this plan with two tokens each, on virtual clocks moved together. */
export async function openTwinBucketWorld(arena: StoreArena, plan: StorePlan = 'standard'): Promise<BucketWorld> {
  const stores: ArenaStore[] = [];
  const clients: StoreClient[][] = [];
  try {
    for (let i = 0; i < 2; i++) {
      const store = await arena.openTwinStore({ products: 1, plan });
      stores.push(store);
      const second = await store.addToken!();
      clients.push([store.client(), store.client({ token: second })]);
    }
  } catch (error) {
    await Promise.all(stores.map((s) => s.close()));
    throw error;
  }
  let elapsed = 0;
  return {
    exact: true,
    stores: 2,
    tokensPerStore: 2,
    budget: undefined,
    now: () => elapsed,
    send: (store, token) => observe(clients[store]![token]!, () => elapsed),
    wait: async (ms) => {
      if (ms <= 0) return;
      await Promise.all(stores.map((s) => s.clock.sleep(ms)));
      elapsed += ms;
    },
    close: async () => void (await Promise.all(stores.map((s) => s.close()))),
  };
}

/** The configured live store and token, on the wall clock, within a request budget. */
export async function openLiveBucketWorld(arena: StoreArena, budget: RequestBudget): Promise<BucketWorld> {
  const store = await arena.openStore();
  const client = store.client();
  const start = Date.now();
  const now = () => Date.now() - start;
  return {
    exact: false,
    stores: 1,
    tokensPerStore: 1,
    budget,
    now,
    send: () => observe(client, now),
    wait: (ms) => store.clock.sleep(ms),
    close: () => store.close(),
  };
}
