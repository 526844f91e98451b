/**
 * The one state-handler table of the store pacts, per target. On the twin each
 * state gets a fresh store of its own through the control API (so the pact's
 * `storeId` is whatever the twin made); on live the configured store is used
 * where the state can be read off it, and a state that cannot be arranged on a
 * real store is skipped with the reason.
 */
import type { StoreClient } from '../../src/clients/store/StoreClient.ts';
import { harnessConfig, type LiveStoreConfig, type TwinStoreConfig } from '../../src/config/harnessConfig.ts';
import { systemClock } from '../../src/clock/Clock.ts';
import { STORE_CONTRACT } from '../../src/rules/storeContract.ts';
import { liveStoreProvider, twinStoreProvider, type LiveStoreProvider, type ProviderStore } from '../../src/providers/store/storeProvider.ts';
import { unavailable, type Arranged, type ProviderTarget } from '../verification/providerTarget.ts';

/** The states the store pacts name: one source for the consumer tests and this table. */
export const STORE_STATES = {
  exists: 'store {storeId} exists',
  acceptsProducts: 'store {storeId} accepts new products',
  suspended: 'store {storeId} is suspended',
  hasProducts: 'store {storeId} has {count} products',
  hasCategory: 'store {storeId} has category {categoryId}',
  bucketFull: 'the rate-limit bucket of store {storeId} is full',
  codeApproved: 'the owner of store {storeId} approved an install: an app has a code to exchange',
} as const;

export function storeTwinTarget(config: TwinStoreConfig): ProviderTarget {
  const provider = twinStoreProvider(config, 'mock');
  const control = provider.control!;
  // Unpaced, on the wall clock: the twin store's own virtual clock never moves, so a full bucket stays full.
  const client = (store: ProviderStore) => store.client({ pace: false, clock: systemClock });
  const fresh = (products?: number): Promise<ProviderStore> => provider.openStore(products === undefined ? {} : { products });
  const arranged = (store: ProviderStore, values: Record<string, number> = {}): Arranged => ({
    values: { storeId: Number(store.storeId), ...values },
    headers: { [STORE_CONTRACT.tokenHeader]: `${STORE_CONTRACT.tokenScheme} ${store.token}` },
    teardown: () => store.close(),
  });
  return {
    name: 'store twin',
    baseUrl: config.twinUrl,
    states: {
      [STORE_STATES.exists]: async () => arranged(await fresh()),
      [STORE_STATES.acceptsProducts]: async () => arranged(await fresh()),
      [STORE_STATES.suspended]: async () => {
        const store = await fresh();
        await control.suspend(Number(store.storeId));
        return arranged(store);
      },
      [STORE_STATES.hasProducts]: async ({ count }) => arranged(await fresh(Number(count))),
      [STORE_STATES.hasCategory]: async () => {
        const store = await fresh();
        const [category] = (await client(store).listCategories({ per_page: 1 })).items;
        if (!category) throw new Error('the store twin made a store without categories: its seed changed; fix the seed or this state');
        return arranged(store, { categoryId: category.id });
      },
      [STORE_STATES.bucketFull]: async () => {
        // A virtual clock that never moves: nothing leaks, so the bucket stays full for the pact's request.
        const store = await fresh();
        const api = client(store);
        for (let i = 0; i < STORE_CONTRACT.bucketSize; i++) {
          const { status } = await api.send({ method: 'GET', path: '/products', query: { per_page: 1 }, retry: false });
          if (status !== 200) throw new Error(`filling the bucket: request ${i + 1} of ${STORE_CONTRACT.bucketSize} answered ${status}, not 200`);
        }
        return arranged(store);
      },
      [STORE_STATES.codeApproved]: async () => {
        // A fresh store and app, and the owner's approval through the control API (store.oauth.authorize-consent).
        const store = await fresh(0);
        const app = await control.call<{ appId: number; clientSecret: string }>('POST', '/apps', { redirectUrl: 'http://127.0.0.1:9/oauth/callback' });
        const { code } = await control.call<{ code: string }>('POST', `/apps/${app.appId}/approve`, { storeId: Number(store.storeId) });
        return { values: { storeId: Number(store.storeId), clientId: String(app.appId), clientSecret: app.clientSecret, code }, teardown: () => store.close() };
      },
    },
  };
}

/** This worker's live store: one pacer must see every request the verification sends to the one bucket. */
let liveProvider: { readonly key: string; readonly provider: LiveStoreProvider } | undefined;

function liveStoreClient(config: LiveStoreConfig): StoreClient {
  const target = harnessConfig().target;
  const key = JSON.stringify([config.apiUrl, config.storeId, config.token, config.userAgent, target]);
  if (liveProvider?.key !== key) liveProvider = { key, provider: liveStoreProvider(config, target) };
  // Arranging a state spends live requests too: counted and refused like the fixtures' (the provider's guard).
  return liveProvider.provider.client();
}

export function storeLiveTarget(config: LiveStoreConfig): ProviderTarget {
  const api = liveStoreClient(config);
  const store: Arranged = { values: { storeId: Number(config.storeId) } };
  const productNamed = async (name: string) => {
    const ids: number[] = [];
    for await (const product of api.iterateProducts({ q: name, per_page: 200 })) ids.push(product.id);
    return ids;
  };
  return {
    name: 'live store',
    baseUrl: config.apiUrl,
    headers: { [STORE_CONTRACT.tokenHeader]: `${STORE_CONTRACT.tokenScheme} ${config.token}`, 'User-Agent': config.userAgent },
    // The Verifier's request is not paced like the clients': it waits for room, and the pacer counts it until its
    // answer, so the pact is not refused for the rate (store.ratelimit.bucket-429), nor the teardown after it.
    // Nothing is sent to look, so a recording of the verification does not depend on timing.
    beforeRequest: () => api.holdRoom(),
    states: roomFirst(api, {
      [STORE_STATES.exists]: async () => store,
      [STORE_STATES.acceptsProducts]: async ({ name }) => {
        if (!config.allowWrites)
          return unavailable('it creates a product on the real store: set STORE_ALLOW_WRITES=1 to allow it (the product is deleted afterwards)');
        if (name === '') return blankNameCleanUp(api, store);
        // What the pact creates is found again by its name and deleted; products of that name from before are left alone.
        const before = new Set(await productNamed(String(name)));
        return {
          ...store,
          teardown: async () => void (await Promise.all((await productNamed(String(name))).filter((id) => !before.has(id)).map((id) => api.deleteProduct(id)))),
        };
      },
      [STORE_STATES.suspended]: async () => unavailable('a real store cannot be suspended on demand; the twin verifies this interaction'),
      [STORE_STATES.hasProducts]: async ({ count }) => {
        const total = (await api.listProducts({ per_page: 1 })).totalCount ?? 0;
        return total >= Number(count)
          ? store
          : unavailable(`the store has ${total} products and the pact needs at least ${count}: add products to the sandbox store`);
      },
      [STORE_STATES.hasCategory]: async () => {
        const [category] = (await api.listCategories({ per_page: 1 })).items;
        return category ? { values: { ...store.values, categoryId: category.id } } : unavailable('the store has no category: create one in the sandbox store');
      },
      [STORE_STATES.codeApproved]: async () =>
        unavailable(
          'an authorization code exists only once a store owner clicks Install on the real consent page, and the token endpoint is on www.tiendanube.com, not the API base; the twin verifies this interaction',
        ),
      [STORE_STATES.bucketFull]: async () =>
        unavailable(
          "filling a real store's bucket spends 40 requests and holds every other client of the store back for 20 s; the twin verifies it, and the store suites observe 429s on live",
        ),
    }),
  };
}

/**
 * A create the pact expects refused (a blank name) that a provider breaking the contract carries out:
 * a blank name cannot be searched for, so the count is read before and after, and when it grew the
 * newest products with a blank name are deleted. Two requests when nothing was created.
 */
async function blankNameCleanUp(api: StoreClient, store: Arranged): Promise<Arranged> {
  const before = (await api.listProducts({ per_page: 1 })).totalCount ?? 0;
  return {
    ...store,
    teardown: async () => {
      const after = (await api.listProducts({ per_page: 1 })).totalCount ?? 0;
      if (after <= before) return;
      const newest = (await api.listProducts({ per_page: Math.min(200, after - before), sort_by: 'created-at-descending' })).items;
      const blank = newest.filter((product) => Object.values(product.name ?? {}).every((text) => !String(text ?? '').trim()));
      await Promise.all(blank.map((product) => api.deleteProduct(product.id)));
    },
  };
}

/**
 * Each state waits for room before it sends anything. Before its first answer this worker's client
 * cannot know the level, and the store suites and properties (another worker, just before) may have
 * left the bucket full: the wait is one leak then, and follows the provider's count afterwards.
 * Without it the first state's request could meet a 429, and a recording would depend on timing.
 */
function roomFirst(api: StoreClient, states: ProviderTarget['states']): ProviderTarget['states'] {
  return Object.fromEntries(
    Object.entries(states).map(([name, arrange]) => [
      name,
      async (params: Record<string, unknown>) => {
        await api.waitForRoom(1);
        return arrange(params);
      },
    ]),
  );
}
