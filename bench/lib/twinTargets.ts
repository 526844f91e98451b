/**
 * What the throughput and load benches send to each twin: a list and a
 * single-resource endpoint with the headers the API requires, and for the
 * load mix a 404 and a write that leaves the twin holding what it held
 * (an update of one record: a create would grow the store on purpose).
 */
import type { AutocannonRequest } from 'autocannon';
import { MEDIA_CONTRACT } from '../../src/rules/mediaContract.ts';
import { STORE_CONTRACT } from '../../src/rules/storeContract.ts';
import { StoreTwinControl } from '../../src/testing/StoreTwinControl.ts';
import { MEDIA_SEED } from '../../src/twins/media/seedFacts.ts';
import { signInOnMediaTwin } from '../../scripts/lib/twinProcess.ts';

export type TwinApi = 'store' | 'media';

export interface TwinTarget {
  readonly api: TwinApi;
  /** Headers every request carries. */
  readonly headers: Record<string, string>;
  /** Paths with their query, on the twin's origin. */
  readonly list: string;
  readonly single: string;
  readonly missing: string;
  readonly write: AutocannonRequest;
  /** The store to inject faults into (store twin only). */
  readonly storeId?: number;
}

export const BENCH_USER_AGENT = 'Harness bench (https://example.test/bench)';
/** Products of the benches' store: a page of the list is a page of a real-sized catalogue. */
const STORE_PRODUCTS = 1_000;
/** The list page size asked for: the documented default, written out so every server sees the parameter. */
const STORE_PER_PAGE = STORE_CONTRACT.defaultPerPage;

/** An unmetered store (no 429s: see CreateStoreOptions.metered) of the store twin at `twinUrl`. */
async function storeTarget(twinUrl: string): Promise<TwinTarget> {
  const store = await new StoreTwinControl(twinUrl).createStore({ products: STORE_PRODUCTS, clock: 'real', metered: false });
  const base = new URL(store.baseUrl).pathname;
  const headers = { 'User-Agent': BENCH_USER_AGENT, Authentication: `${STORE_CONTRACT.tokenScheme} ${store.token}` };
  const first = await fetch(`${store.baseUrl}/products?per_page=1`, { headers });
  const [product] = (await first.json()) as { id: number }[];
  if (!first.ok || product === undefined) throw new Error(`store twin: GET ${base}/products answered ${first.status} without a product`);
  return {
    api: 'store',
    headers,
    list: `${base}/products?per_page=${STORE_PER_PAGE}`,
    single: `${base}/products/${product.id}`,
    missing: `${base}/products/1`,
    write: {
      method: 'PUT',
      path: `${base}/products/${product.id}`,
      headers: { ...headers, 'Content-Type': STORE_CONTRACT.jsonContentType },
      body: JSON.stringify({ name: 'Bench product' }),
    },
    storeId: store.storeId,
  };
}

/** The media twin's seeded catalogue, read anonymously; the write is the seeded user's own library entry. */
async function mediaTarget(twinUrl: string): Promise<TwinTarget> {
  const edge = MEDIA_CONTRACT.edgePrefix;
  const headers = { Accept: MEDIA_CONTRACT.mediaType };
  const token = await signInOnMediaTwin(Number(new URL(twinUrl).port));
  const entry = MEDIA_SEED.adultLibraryEntry.id;
  return {
    api: 'media',
    headers,
    list: `${edge}/anime`,
    single: `${edge}/anime/${MEDIA_SEED.animeWithEpisodes.id}`,
    missing: `${edge}/anime/${MEDIA_SEED.animeCount + 1_000}`,
    write: {
      method: 'PATCH',
      path: `${edge}/library-entries/${entry}`,
      headers: { ...headers, Authorization: `Bearer ${token}`, 'Content-Type': MEDIA_CONTRACT.mediaType },
      body: JSON.stringify({ data: { id: entry, type: 'libraryEntries', attributes: { progress: 1 } } }),
    },
  };
}

export function prepareTarget(api: TwinApi, twinUrl: string): Promise<TwinTarget> {
  return api === 'store' ? storeTarget(twinUrl) : mediaTarget(twinUrl);
}
