/**
 * The store the fuzzer works in: a store of its own from the control API,
 * the ids its routes are called with, and the bookkeeping between cases. The
 * bucket is emptied on the store's virtual clock before it can refuse a case
 * (a 429 would hide the answer under test), and a store whose resource a case
 * deleted is replaced, so an id the oracle counts on always exists.
 */
import { request } from 'undici';
import { MS_PER_LEAK, STORE_CONTRACT } from '../../../src/rules/storeContract.ts';
import { StoreTwinControl } from '../../../src/testing/StoreTwinControl.ts';
import type { Exchange } from '../exchange.ts';
import type { FuzzRoute } from '../fuzzRoute.ts';
import type { RawRequest } from '../rawRequest.ts';
import { paramResource } from './storeRouteTable.ts';

export const FUZZ_USER_AGENT = 'Twin fuzzer (https://example.test/fuzz)';

export interface StoreWorldState {
  readonly storeId: number;
  readonly token: string;
  /** A token of another store of the twin: valid, but not here. */
  readonly otherToken: string;
  readonly languages: readonly string[];
  /** Ids the routes are called with, by the literal before the parameter: products, categories, webhooks, sku. */
  readonly ids: Readonly<Record<string, string>>;
  readonly categoryIds: readonly number[];
}

// Below this many requests left, the bucket is emptied: the fuzzer never meets a 429 it did not ask for.
const LOW_WATER = 10;

export class StoreWorld {
  readonly #control: StoreTwinControl;
  readonly #url: string;
  #state: StoreWorldState;
  /** Paths of the GET routes that answer a collection (a JSON array): their page parameters are read. */
  readonly collections: ReadonlySet<string>;

  private constructor(url: string, control: StoreTwinControl, state: StoreWorldState, collections: ReadonlySet<string>) {
    this.#url = url;
    this.#control = control;
    this.#state = state;
    this.collections = collections;
  }

  /** A fresh store on the twin at `url`, with a product, a category and a webhook to name. */
  static async open(url: string, routes: readonly FuzzRoute[]): Promise<StoreWorld> {
    const control = new StoreTwinControl(url);
    const state = await newStore(url, control);
    const collections = new Set<string>();
    for (const route of routes.filter((candidate) => candidate.method === 'GET')) {
      const answer = await api(url, state, 'GET', `/${fillPath(route, state)}`);
      if (Array.isArray(answer)) collections.add(route.path);
    }
    await control.advanceClock(state.storeId, STORE_CONTRACT.bucketSize * MS_PER_LEAK);
    return new StoreWorld(url, control, state, collections);
  }

  get state(): StoreWorldState {
    return this.#state;
  }

  /** After a case: a new store if the case deleted something, else an empty bucket when it runs low. */
  async afterCase(sent: RawRequest, outcome: Exchange): Promise<void> {
    if (outcome.kind !== 'answer') return;
    const { status, headers } = outcome.answer;
    if (sent.method === 'DELETE' && status >= 200 && status < 300) {
      this.#state = await newStore(this.#url, this.#control);
      await this.#control.advanceClock(this.#state.storeId, STORE_CONTRACT.bucketSize * MS_PER_LEAK);
      return;
    }
    const remaining = headers.get('x-rate-limit-remaining');
    if (remaining !== undefined && Number(remaining) < LOW_WATER) {
      await this.#control.advanceClock(this.#state.storeId, STORE_CONTRACT.bucketSize * MS_PER_LEAK);
    }
  }
}

function fillPath(route: FuzzRoute, state: StoreWorldState): string {
  return route.segments
    .map((segment, i) => {
      if ('literal' in segment) return segment.literal;
      return state.ids[paramResource(route, i)] ?? '1';
    })
    .join('/');
}

async function api(url: string, state: Pick<StoreWorldState, 'storeId' | 'token'>, method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  const res = await request(`${url}/${STORE_CONTRACT.version}/${state.storeId}${path}`, {
    method,
    headers: {
      'user-agent': FUZZ_USER_AGENT,
      authentication: `bearer ${state.token}`,
      ...(body === undefined ? {} : { 'content-type': STORE_CONTRACT.jsonContentType }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`store twin fuzzer: setting up the store, ${method} ${path} answered ${res.statusCode}: ${text}`);
  return JSON.parse(text);
}

async function newStore(url: string, control: StoreTwinControl): Promise<StoreWorldState> {
  const created = await control.createStore({ products: 3 });
  const stores = await control.call<{ storeId: number; token: string }[]>('GET', '/stores');
  const other = stores.find((store) => store.storeId !== created.storeId);
  if (!other) throw new Error('store twin fuzzer: the twin has no second store, so "another store\'s token" cannot be sent');
  const reach = { storeId: created.storeId, token: created.token };
  const [product] = (await api(url, reach, 'GET', '/products?per_page=1')) as { id: number; variants: { sku: string | null }[] }[];
  const categories = (await api(url, reach, 'GET', `/categories?per_page=${STORE_CONTRACT.maxPerPage}`)) as { id: number }[];
  const webhook = (await api(url, reach, 'POST', '/webhooks', { event: 'product/updated', url: 'https://fuzz.example.test/hook' })) as { id: number };
  if (!product || categories.length === 0) throw new Error('store twin fuzzer: a new store should hold seeded products and categories');
  return {
    ...reach,
    otherToken: other.token,
    languages: created.languages,
    ids: {
      products: String(product.id),
      categories: String(categories[0]?.id),
      webhooks: String(webhook.id),
      sku: product.variants[0]?.sku ?? 'fuzz-no-such-sku',
    },
    categoryIds: categories.map((category) => category.id),
  };
}
