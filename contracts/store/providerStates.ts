/**
 * The one state-handler table of the store pacts, per target. On the twin each
 * state gets a fresh store of its own through the control API (so the pact's
 * `storeId` is whatever the twin made); on live the configured store is used
 * where the state can be read off it, and a state that cannot be arranged on a
 * real store is skipped with the reason.
 */
import type { StoreClient } from '../../src/clients/store/StoreClient.ts';
import { harnessConfig, usesRecordings, type LiveStoreConfig, type TwinStoreConfig } from '../../src/config/harnessConfig.ts';
import { systemClock } from '../../src/clock/Clock.ts';
import { STORE_CONTRACT } from '../../src/rules/storeContract.ts';
import { requiredScope } from '../../src/rules/storeScopes.ts';
import type { CreateStoreOptions } from '../../src/testing/StoreTwinControl.ts';
import { liveStoreProvider, twinStoreProvider, type LiveStoreProvider, type ProviderStore } from '../../src/providers/store/storeProvider.ts';
import { unavailable, type Arranged, type ArrangeSession, type PactProvider } from '../verification/pactProvider.ts';
import type { StateEntry } from '../verification/stateVocabulary.ts';

/**
 * The store's provider-state vocabulary: the harness's own pacts and any outside consumer's name these.
 * A state is declared in three places, each checked against the others by tests/unit/contracts/stateVocabulary.test.ts:
 * its template here, its entry in STORE_VOCABULARY (what it does, for docs/provider-states.md), and its
 * handler in both tables below (twin and live).
 */
export const STORE_STATES = {
  exists: 'store {storeId} exists',
  acceptsProducts: 'store {storeId} accepts new products',
  suspended: 'store {storeId} is suspended',
  hasProducts: 'store {storeId} has {count} products',
  hasProduct: 'store {storeId} has product {productId}',
  hasProductNamed: 'store {storeId} has a product named {name}',
  hasProductWithVariants: 'store {storeId} has a product with variants',
  hasProductWithImages: 'store {storeId} has a product with images',
  hasCategory: 'store {storeId} has category {categoryId}',
  hasCategoryTree: 'store {storeId} has a category tree',
  hasLeafCategory: 'store {storeId} has a leaf category',
  hasTopLevelCategory: 'store {storeId} has a top-level category',
  oneLanguage: 'store {storeId} has one language',
  bucketFull: 'the rate-limit bucket of store {storeId} is full',
  codeApproved: 'the owner of store {storeId} approved an install: an app has a code to exchange',
} as const;

const STORE_ID = {
  storeId:
    "the store's id as the pact names it (in the state, or its literal path): on the twin a copy of that store, its seeded records under their ids; given when the pact names none (the path reads it with fromProviderState)",
};
const WRITES = 'without STORE_ALLOW_WRITES=1 (it writes to the real store)';

export const STORE_VOCABULARY: readonly StateEntry[] = [
  { name: STORE_STATES.exists, params: STORE_ID, twin: 'a fresh store with its seed catalogue', live: 'the configured store, as it is' },
  {
    name: STORE_STATES.acceptsProducts,
    params: { ...STORE_ID, name: 'optional: the name the interaction creates a product with (found again on live, and deleted)' },
    twin: 'a fresh store (deleted afterwards, with what the interaction created)',
    live: 'the configured store; products the interaction creates with that name are deleted afterwards',
    skippedOnLive: WRITES,
  },
  {
    name: STORE_STATES.suspended,
    params: STORE_ID,
    twin: 'a fresh store, suspended through the control API (402 on every request)',
    live: 'nothing: a real store cannot be suspended on demand',
    skippedOnLive: 'always',
  },
  {
    name: STORE_STATES.hasProducts,
    params: { ...STORE_ID, count: 'how many products (exactly on the twin, at least on live)' },
    twin: 'a fresh store with exactly {count} products',
    live: 'reads the total count off the store',
    skippedOnLive: 'when the store has fewer than {count} products',
  },
  {
    name: STORE_STATES.hasProduct,
    params: {
      ...STORE_ID,
      productId:
        "given: that product's id when the store has it or the literal path names it (not verified where the store lacks it), else the first product's (use fromProviderState)",
    },
    twin: 'a fresh store with its seed catalogue; {productId} is the first product unless the store holds the one named',
    live: 'reads product {productId}, else the first product',
    skippedOnLive: 'when the store has no product, or not the one the literal path names',
  },
  {
    name: STORE_STATES.hasProductNamed,
    params: { ...STORE_ID, name: 'the name (in the main language)', productId: 'given: its id' },
    twin: 'a fresh store where a product of that name is created',
    live: 'searches the store for the name',
    skippedOnLive: 'when no product has that name',
  },
  {
    name: STORE_STATES.hasProductWithVariants,
    params: { ...STORE_ID, productId: 'given: a product with at least two variants' },
    twin: 'a fresh store where a product with two variants is created',
    live: 'looks through the first 200 products for one with two or more variants',
    skippedOnLive: 'when none of them has',
  },
  {
    name: STORE_STATES.hasProductWithImages,
    params: { ...STORE_ID, productId: 'given: a product with at least one image' },
    twin: 'a fresh store; the seed gives every sixth product two images',
    live: 'looks through the first 200 products for one with an image',
    skippedOnLive: 'when none of them has',
  },
  {
    name: STORE_STATES.hasCategory,
    params: { ...STORE_ID, categoryId: "given: the category the literal path names (not verified where the store lacks it), else the first one's" },
    twin: 'a fresh store with its seed category tree',
    live: 'reads the category the literal path names, else the first one',
    skippedOnLive: 'when the store has no category, or not the one the literal path names',
  },
  {
    name: STORE_STATES.hasCategoryTree,
    params: { ...STORE_ID, categoryId: 'given: a top-level category that has subcategories' },
    twin: 'a fresh store with a three-level category tree',
    live: 'looks through the first 200 categories for a top-level one with subcategories',
    skippedOnLive: 'when the categories are flat',
  },
  {
    name: STORE_STATES.hasLeafCategory,
    params: { ...STORE_ID, categoryId: 'given: a category without subcategories, under a parent' },
    twin: 'a fresh store with a three-level category tree',
    live: 'looks through the first 200 categories for a leaf under a parent',
    skippedOnLive: 'when there is none',
  },
  {
    name: STORE_STATES.hasTopLevelCategory,
    params: { ...STORE_ID, categoryId: 'given: a category whose parent is null' },
    twin: 'a fresh store with its seed category tree',
    live: 'reads the first 200 categories for one whose parent is null',
    skippedOnLive: 'when the store has no category',
  },
  {
    name: STORE_STATES.oneLanguage,
    params: { ...STORE_ID, language: 'given: its one language' },
    twin: 'a fresh single-language store (pt)',
    live: "reads the store's languages",
    skippedOnLive: 'when the store has more than one language',
  },
  {
    name: STORE_STATES.bucketFull,
    params: STORE_ID,
    twin: 'a fresh store whose bucket is filled with 40 requests; its clock stands still, so it stays full',
    live: 'nothing: filling a real bucket spends 40 requests and holds every client of the store back for 20 s',
    skippedOnLive: 'always',
  },
  {
    name: STORE_STATES.codeApproved,
    params: STORE_ID,
    twin: 'a fresh store and a registered app, approved by the owner through the control API: the app id, its secret and a code to exchange',
    live: "nothing: a code needs a store owner's click on the consent page, and the token endpoint is not on the API's host",
    skippedOnLive: 'always',
  },
];

/**
 * The store's provider states on the twin: one entry per state, arranged through the control API.
 * One function because it is the state table (its helpers share the control API and a fresh store), read against the vocabulary above.
 */
export function storeTwinTarget(config: TwinStoreConfig): PactProvider {
  const provider = twinStoreProvider(config, 'twin');
  const control = provider.control!;
  // Unpaced, on the wall clock: the twin store's own virtual clock never moves, so a full bucket stays full.
  const client = (store: ProviderStore) => store.client({ pace: false, clock: systemClock });
  /**
   * The store a state arranges: under the id the pact names (the state's, else its literal path's), its seeded records
   * keeping their ids, so a literal path reaches it with the token injected; a new id where the pact names none (the
   * path then reads it with fromProviderState). The states of one interaction that name one id share one store.
   */
  const fresh = (params: Params, session: ArrangeSession | undefined, options: CreateStoreOptions = {}): Promise<ProviderStore> => {
    const storeId = literalStoreId(params['storeId']) ?? storeIdInPath(session?.literalPath);
    if (storeId === undefined) return provider.openStore(options);
    const key = `store ${storeId}`;
    const open = (session?.shared.get(key) as Promise<ProviderStore> | undefined) ?? provider.openStore({ ...options, storeId });
    session?.shared.set(key, open);
    return open;
  };
  /** The first page of a fresh store's categories (the seed's are fewer than 200). */
  const categories = async (store: ProviderStore) => (await client(store).listCategories({ per_page: 200 })).items;
  const pick = <T extends { id: number }>(found: T | undefined, what: string, values: (item: T) => Record<string, number>) => {
    if (!found) throw new Error(`the store twin made a store without ${what}: its seed changed; fix the seed or this state`);
    return values(found);
  };
  const arranged = (store: ProviderStore, values: Record<string, number | string> = {}): Arranged => ({
    values: { storeId: Number(store.storeId), ...values },
    headers: { [STORE_CONTRACT.tokenHeader]: `${STORE_CONTRACT.tokenScheme} ${store.token}` },
    teardown: () => store.close(),
  });
  return {
    name: 'store twin',
    kind: 'twin',
    baseUrl: config.twinUrl,
    vocabulary: STORE_VOCABULARY,
    arrangement: (session, values) => {
      const pathStore = storeIdInPath(session.literalPath);
      const stateStore = typeof values['storeId'] === 'number' ? values['storeId'] : undefined;
      return {
        arranged: stateStore === undefined ? 'no store (no state named one), so no credentials' : `store ${stateStore} (a copy of its seed) with its token`,
        ...(pathStore !== undefined && stateStore !== undefined && pathStore !== stateStore
          ? { differs: `its state names store ${stateStore} and its path store ${pathStore}` }
          : {}),
        literalRecords: recordsInPath(session.literalPath),
      };
    },
    // An interaction without a state is verified on the store its path names (a copy of it), with that store's token.
    withoutState: async (session) => {
      const storeId = storeIdInPath(session.literalPath);
      return storeId === undefined ? undefined : arranged(await fresh({}, session));
    },
    states: {
      [STORE_STATES.exists]: async (params, session) => arranged(await fresh(params, session)),
      [STORE_STATES.acceptsProducts]: async (params, session) => arranged(await fresh(params, session)),
      [STORE_STATES.suspended]: async (params, session) => {
        const store = await fresh(params, session);
        await control.suspend(controlIdOf(store));
        return arranged(store);
      },
      [STORE_STATES.hasProducts]: async (params, session) => arranged(await fresh(params, session, { products: Number(params['count']) })),
      [STORE_STATES.hasProduct]: async (params, session) => {
        const { productId } = params;
        const store = await fresh(params, session);
        const api = client(store);
        const named =
          productId === undefined
            ? undefined
            : (await api.send({ method: 'GET', path: `/products/${encodeURIComponent(String(productId))}`, retry: false })).status;
        if (named === 200) return arranged(store, { productId: Number(productId) });
        if (namedInPath(session, 'products', productId)) return arranged(store, { productId: Number(productId) });
        const [first] = (await api.listProducts({ per_page: 1 })).items;
        return arranged(
          store,
          pick(first, 'products', (p) => ({ productId: p.id })),
        );
      },
      [STORE_STATES.hasProductNamed]: async (params, session) => {
        const { name } = params;
        const store = await fresh(params, session);
        const made = await client(store).createProduct({ name: { [store.mainLanguage]: String(name) } });
        return arranged(store, { productId: made.id });
      },
      [STORE_STATES.hasProductWithVariants]: async (params, session) => {
        const store = await fresh(params, session);
        const made = await client(store).createProduct({
          name: { [store.mainLanguage]: 'Two-variant product' },
          variants: [
            { price: '10.00', sku: 'STATE-VARIANT-1' },
            { price: '12.00', sku: 'STATE-VARIANT-2' },
          ],
        });
        return arranged(store, { productId: made.id });
      },
      [STORE_STATES.hasProductWithImages]: async (params, session) => {
        const store = await fresh(params, session);
        const { items } = await client(store).listProducts({ per_page: 50 });
        return arranged(
          store,
          pick(items.find(hasImages), 'a product with images', (p) => ({ productId: p.id })),
        );
      },
      [STORE_STATES.hasCategory]: async (params, session) => {
        const store = await fresh(params, session);
        // A category the literal path names is the one asked for (a store without it answers the path's 404); else the first.
        if (namedInPath(session, 'categories', params['categoryId'])) return arranged(store, { categoryId: Number(params['categoryId']) });
        const [category] = (await client(store).listCategories({ per_page: 1 })).items;
        if (!category) throw new Error('the store twin made a store without categories: its seed changed; fix the seed or this state');
        return arranged(store, { categoryId: category.id });
      },
      [STORE_STATES.hasCategoryTree]: async (params, session) => {
        const store = await fresh(params, session, { categoryTree: 'three-level' });
        const tree = (await categories(store)).find((c) => c.parent === null && c.subcategories.length > 0);
        return arranged(
          store,
          pick(tree, 'a category tree', (c) => ({ categoryId: c.id })),
        );
      },
      [STORE_STATES.hasLeafCategory]: async (params, session) => {
        const store = await fresh(params, session, { categoryTree: 'three-level' });
        const leaf = (await categories(store)).find((c) => c.parent !== null && c.subcategories.length === 0);
        return arranged(
          store,
          pick(leaf, 'a leaf category', (c) => ({ categoryId: c.id })),
        );
      },
      [STORE_STATES.hasTopLevelCategory]: async (params, session) => {
        const store = await fresh(params, session);
        const top = (await categories(store)).find((c) => c.parent === null);
        return arranged(
          store,
          pick(top, 'a top-level category', (c) => ({ categoryId: c.id })),
        );
      },
      [STORE_STATES.oneLanguage]: async (params, session) => {
        const store = await fresh(params, session, { preset: 'single-language' });
        return { ...arranged(store), values: { storeId: Number(store.storeId), language: store.mainLanguage } };
      },
      [STORE_STATES.bucketFull]: async (params, session) => {
        // A virtual clock that never moves: nothing leaks, so the bucket stays full for the pact's request.
        const store = await fresh(params, session);
        const api = client(store);
        for (let i = 0; i < STORE_CONTRACT.bucketSize; i++) {
          const { status } = await api.send({ method: 'GET', path: '/products', query: { per_page: 1 }, retry: false });
          if (status !== 200) throw new Error(`filling the bucket: request ${i + 1} of ${STORE_CONTRACT.bucketSize} answered ${status}, not 200`);
        }
        return arranged(store);
      },
      [STORE_STATES.codeApproved]: async (params, session) => {
        // A fresh store and app, and the owner's approval through the control API (store.oauth.authorize-consent).
        const store = await fresh(params, session, { products: 0 });
        const app = await control.call<{ appId: number; clientSecret: string }>('POST', '/apps', { redirectUrl: 'http://127.0.0.1:9/oauth/callback' });
        const { code } = await control.call<{ code: string }>('POST', `/apps/${app.appId}/approve`, { storeId: controlIdOf(store) });
        return arranged(store, { clientId: String(app.appId), clientSecret: app.clientSecret, code });
      },
    },
  };
}

type Params = Record<string, unknown>;

/** A store id the pact writes: a whole number (in the state's params, or in its words); a `{storeId}` left open is none. */
function literalStoreId(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  return /^[1-9]\d{0,6}$/.test(text) ? Number(text) : undefined;
}

/** The store id of a literal Store API path (`/v1/100001/products/…`); undefined for another path, or none. */
export function storeIdInPath(path: string | undefined): number | undefined {
  const found = /^\/v1\/(\d+)(?:[/?]|$)/.exec(path ?? '');
  return found ? literalStoreId(found[1]) : undefined;
}

/** The record ids a literal Store API path names below its store (`/v1/1/products/7/images/9`: product 7, image 9). */
export function recordsInPath(path: string | undefined): string[] {
  if (storeIdInPath(path) === undefined) return [];
  const segments = path!.split('?')[0]!.split('/').slice(3);
  return segments.flatMap((segment, i) => (i > 0 && /^\d+$/.test(segment) ? [`${singular(segments[i - 1]!)} ${segment}`] : []));
}
const singular = (collection: string) => (collection === 'categories' ? 'category' : collection.replace(/s$/, ''));

/**
 * Whether the pact's literal path names this record (`products`, 7): then the record the state names is the one the
 * path asks for, arranged or not, and a store without it answers the path's 404 (not verified, naming the id).
 */
const namedInPath = (session: ArrangeSession | undefined, collection: string, id: unknown): boolean =>
  id !== undefined && recordsInPath(session?.literalPath).includes(`${singular(collection)} ${String(id)}`);

/** The control API's handle of a twin store (its id, but for a copy under another store's id). */
const controlIdOf = (store: ProviderStore): number => store.twin?.info.controlId ?? Number(store.storeId);

const listOf = (product: object, field: string): unknown[] => {
  const value = (product as Record<string, unknown>)[field];
  return Array.isArray(value) ? value : [];
};
const hasImages = (product: { id: number }) => listOf(product, 'images').length > 0;

/**
 * This process's live stores, one per bucket (a store and a token: the harness's, or a team's own app's): one pacer
 * must see every request the verification sends to its bucket, and the teams' sandboxes are verified side by side.
 */
const liveProviders = new Map<string, LiveStoreProvider>();

function liveStoreClient(config: LiveStoreConfig): StoreClient {
  const target = harnessConfig().target;
  const key = JSON.stringify([config.apiUrl, config.storeId, config.token, config.userAgent, target]);
  let provider = liveProviders.get(key);
  if (!provider) liveProviders.set(key, (provider = liveStoreProvider(config, target)));
  // Arranging a state spends live requests too: counted and refused like the fixtures' (the provider's guard).
  return provider.client();
}

/**
 * The store's provider states on a live store: one entry per state, found through the API or skipped with why.
 * One function because it is the state table, entry for entry beside storeTwinTarget's.
 */
/** Whose credentials a live target sends (a team's own app, or the harness's), said in the report; absent: the harness's, unremarked. */
export interface LiveCredentials {
  /** In words, for the report's provider line and the account of a refusal. */
  readonly credentials: string;
  /** The consumer whose own app's token it is: a 403 is then that app's scopes, the consumer's to set up. */
  readonly team?: string;
}

export function storeLiveTarget(config: LiveStoreConfig, whose?: LiveCredentials): PactProvider {
  const api = liveStoreClient(config);
  const store: Arranged = { values: { storeId: Number(config.storeId) } };
  const found = (values: Record<string, number>): Arranged => ({ values: { ...store.values, ...values } });
  const productNamed = async (name: string) => {
    const ids: number[] = [];
    for await (const product of api.iterateProducts({ q: name, per_page: 200 })) ids.push(product.id);
    return ids;
  };
  const configured = literalStoreId(config.storeId);
  return {
    name: whose ? `live store, as ${whose.credentials}` : 'live store',
    kind: 'live',
    baseUrl: config.apiUrl,
    vocabulary: STORE_VOCABULARY,
    // A team's pact names its own sandbox's store: here that is the configured store, said once on the interaction's line.
    sendsTo: (path) => {
      const named = storeIdInPath(path);
      if (named === undefined || configured === undefined || named === configured) return undefined;
      return {
        path: path.replace(/^\/v1\/\d+/, `/v1/${configured}`),
        note: whose?.team
          ? `the pact's store ${named} is ${whose.team}'s sandbox store ${configured} (STORE_TEAM_SANDBOXES)`
          : `the pact's store ${named} is the configured store ${configured} (STORE_ID)`,
      };
    },
    arrangement: (session) => ({
      arranged: whose?.team ? whose.credentials : `the configured store ${config.storeId} (STORE_ID) with the configured token (STORE_TOKEN)`,
      literalRecords: recordsInPath(session.literalPath),
      ...(whose?.team ? { appOf: whose.team, scopeFor: scopeNeeded } : {}),
    }),
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
      [STORE_STATES.hasProduct]: async ({ productId }, session) => {
        const named =
          productId === undefined ? undefined : await api.send({ method: 'GET', path: `/products/${encodeURIComponent(String(productId))}`, retry: false });
        if (named?.status === 200) return found({ productId: Number(productId) });
        if (named?.status === 404 && namedInPath(session, 'products', productId))
          return unavailable(notInLiveStore(`product ${String(productId)}`, config.storeId));
        const [first] = (await api.listProducts({ per_page: 1 })).items;
        return first ? found({ productId: first.id }) : unavailable('the store has no product: add one to the sandbox store');
      },
      [STORE_STATES.hasProductNamed]: async ({ name }) => {
        const [id] = await productNamed(String(name));
        return id === undefined ? unavailable(`no product in the store is named "${String(name)}": add one to the sandbox store`) : found({ productId: id });
      },
      [STORE_STATES.hasProductWithVariants]: async () => {
        const product = (await api.listProducts({ per_page: 200 })).items.find((p) => listOf(p, 'variants').length > 1);
        return product ? found({ productId: product.id }) : unavailable('none of the first 200 products has two variants: add one to the sandbox store');
      },
      [STORE_STATES.hasProductWithImages]: async () => {
        const product = (await api.listProducts({ per_page: 200 })).items.find(hasImages);
        return product ? found({ productId: product.id }) : unavailable('none of the first 200 products has an image: add one to the sandbox store');
      },
      [STORE_STATES.hasCategory]: async ({ categoryId }, session) => {
        // Looked up only where the literal path names it, so the harness's own pacts (a generated path) send what they recorded.
        if (namedInPath(session, 'categories', categoryId)) {
          const named = await api.send({ method: 'GET', path: `/categories/${encodeURIComponent(String(categoryId))}`, retry: false });
          if (named.status === 200) return found({ categoryId: Number(categoryId) });
          if (named.status === 404) return unavailable(notInLiveStore(`category ${String(categoryId)}`, config.storeId));
        }
        const [category] = (await api.listCategories({ per_page: 1 })).items;
        return category ? found({ categoryId: category.id }) : unavailable('the store has no category: create one in the sandbox store');
      },
      [STORE_STATES.hasCategoryTree]: async () => {
        const tree = (await api.listCategories({ per_page: 200 })).items.find((c) => c.parent === null && c.subcategories.length > 0);
        return tree ? found({ categoryId: tree.id }) : unavailable("no top-level category of the first 200 has subcategories: the store's categories are flat");
      },
      [STORE_STATES.hasLeafCategory]: async () => {
        const leaf = (await api.listCategories({ per_page: 200 })).items.find((c) => c.parent !== null && c.subcategories.length === 0);
        return leaf ? found({ categoryId: leaf.id }) : unavailable('no category of the first 200 is a leaf under a parent');
      },
      [STORE_STATES.hasTopLevelCategory]: async () => {
        const top = (await api.listCategories({ per_page: 200 })).items.find((c) => c.parent === null);
        return top ? found({ categoryId: top.id }) : unavailable('the store has no category: create one in the sandbox store');
      },
      [STORE_STATES.oneLanguage]: async () => {
        const info = await api.getStore();
        return info.languages.length === 1
          ? { values: { ...store.values, language: info.mainLanguage } }
          : unavailable(`the store has ${info.languages.length} languages (${info.languages.join(', ')}), not one`);
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

/** The scope a request to a Store API path needs (src/rules/storeScopes.ts): the one a team's app lacks when refused 403. */
function scopeNeeded(method: string, path: string): string | undefined {
  return storeIdInPath(path) === undefined ? undefined : requiredScope(method, path.split('?')[0]!.split('/').slice(3));
}

/** Why an interaction whose literal path names a record the live store lacks is not verified, and the fix. */
function notInLiveStore(record: string, storeId: string): string {
  return (
    `${record}, which the pact's path names literally, is not in the configured store ${storeId}. ` +
    `Fix: name a ${record.split(' ')[0]} the sandbox store has, have the path read the id with fromProviderState, or arrange it in your states file (--states)`
  );
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
 * left the bucket full. Recorded, the wait is one leak then, and follows the provider's count
 * afterwards: without it the first state's request could meet a 429, and a recording would depend on
 * timing. Live, the first state's request goes at once: the client waits out a 429 and sends again,
 * and a bucket that is not full (a team's own app's, verified in a job of its own) costs no leak.
 */
function roomFirst(api: StoreClient, states: PactProvider['states']): PactProvider['states'] {
  const whenUnknown = usesRecordings(harnessConfig().target) ? 'wait' : 'go';
  return Object.fromEntries(
    Object.entries(states).map(([name, arrange]) => [
      name,
      async (params: Record<string, unknown>, session?: ArrangeSession) => {
        await api.waitForRoom(1, whenUnknown);
        return arrange(params, session);
      },
    ]),
  );
}
