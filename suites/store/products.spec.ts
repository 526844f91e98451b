import { expect, test, verifies, type StoreUnderTest } from '../fixtures/storeFixtures.ts';
import { expectSchema, expectStatus, jsonOf, listOf, uniqueName } from '../fixtures/storeChecks.ts';
import { precondition, says } from '../../src/testing/ruleTest.ts';
import { STORE_CONTRACT } from '../../src/rules/storeContract.ts';
import type { Rule } from '../../src/rules/Rule.ts';

// Product and the known endpoints GET /products, POST /products.

interface ProductBody {
  id: number;
  name: Record<string, string>;
  created_at?: string;
  updated_at?: string;
}

/** A page of GET /products with this query: answered 200 with a JSON array, else the rule fails saying what came instead. */
async function productsPage(store: StoreUnderTest, rule: Rule, query: Record<string, string | number>): Promise<ProductBody[]> {
  const res = await store.send({ method: 'GET', path: '/products', query });
  expectStatus(res, 200, rule);
  const items = jsonOf(res, rule);
  expect(Array.isArray(items), says(rule, `GET /products answered ${res.text.slice(0, 200)}, not an array`)).toBe(true);
  return items as ProductBody[];
}

test(
  ...verifies('store.products.list', 'GET /products answers an array of products', async ({ store, rule }) => {
    const res = await store.send({ method: 'GET', path: '/products' });
    expectStatus(res, 200, rule);
    const body = jsonOf(res, rule);
    expectSchema(body, 'store/product-list', rule);
    expect((body as unknown[]).length, says(rule, 'the store has products (seed some on live)')).toBeGreaterThan(0);
  }),
);

test(
  ...verifies('store.products.create', 'with name as a plain string', async ({ store, rule }) => {
    const name = uniqueName('Plain');
    const res = await store.send({ method: 'POST', path: '/products', json: { name } });
    expect(res.status, says(rule, `create must succeed (got ${res.status}: ${res.text.slice(0, 200)})`)).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(300);
    const body = jsonOf(res, rule) as ProductBody;
    store.track('products', body.id);
    expectSchema(body, 'store/product', rule);
    expect(Object.values(body.name), says(rule, 'the created product carries the name')).toContain(name);
  }),
);

test(
  ...verifies('store.products.create', 'with name as a localized object', async ({ store, rule }) => {
    const name = Object.fromEntries(store.languages.map((code) => [code, uniqueName(`Localized ${code}`)]));
    const res = await store.send({ method: 'POST', path: '/products', json: { name } });
    expect(res.status, says(rule, `create must succeed (got ${res.status}: ${res.text.slice(0, 200)})`)).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(300);
    const body = jsonOf(res, rule) as ProductBody;
    store.track('products', body.id);
    expectSchema(body, 'store/product', rule);
    expect(body.name, says(rule, 'the created product carries every language given')).toMatchObject(name);
  }),
);

test(
  ...verifies('store.products.create-201', 'a successful create answers 201 with the full object', async ({ store, rule }) => {
    const res = await store.send({ method: 'POST', path: '/products', json: { name: uniqueName('Created') } });
    expectStatus(res, 201, rule);
    const body = jsonOf(res, rule) as ProductBody & { variants?: unknown[] };
    store.track('products', body.id);
    expect(typeof body.id, says(rule, 'the full object has its id')).toBe('number');
    expect(body.variants?.length, says(rule, 'a product created without variants gets one default variant')).toBe(1);
  }),
);

test(
  ...verifies('store.products.crud', 'read, update and delete one product', async ({ store, rule }) => {
    const created = await store.client.createProduct({ name: uniqueName('Crud') });
    store.track('products', created.id);
    const read = await store.send({ method: 'GET', path: `/products/${created.id}` });
    expectStatus(read, 200, rule);
    expectSchema(jsonOf(read, rule), 'store/product', rule);
    const updated = await store.send({ method: 'PUT', path: `/products/${created.id}`, json: { published: false } });
    expectStatus(updated, 200, rule);
    expect((jsonOf(updated, rule) as { published?: boolean }).published, says(rule, 'PUT answers the changed product')).toBe(false);
    const deleted = await store.send({ method: 'DELETE', path: `/products/${created.id}` });
    expectStatus(deleted, 200, rule);
    expect(jsonOf(deleted, rule)).toEqual({});
  }),
);

test(
  ...verifies('store.products.filters', 'since_id and fields', async ({ store, rule }) => {
    const firstPage = await productsPage(store, rule, { per_page: 5 });
    precondition(rule, store.target, firstPage.length >= 2, 'at least 2 products, one of them the since_id pivot');
    const pivot = firstPage[1]!.id;
    const after = await productsPage(store, rule, { since_id: pivot, per_page: 5 });
    expect(
      after.every((p) => p.id > pivot),
      says(rule, 'since_id returns only products with a greater id'),
    ).toBe(true);
    const slim = await productsPage(store, rule, { fields: 'id,name', per_page: 3 });
    for (const p of slim) expect(Object.keys(p).sort(), says(rule, 'fields=id,name returns only those keys')).toEqual(['id', 'name']);
  }),
);

test(
  ...verifies('store.products.filters', 'created_at_min and updated_at_min', async ({ store, rule }) => {
    const all = await productsPage(store, rule, { per_page: 50 });
    const stamps = all.map((p) => p.created_at!).sort();
    const pivot = stamps[Math.floor(stamps.length / 2)]!;
    const newer = await productsPage(store, rule, { created_at_min: pivot, per_page: 50 });
    expect(newer.length, says(rule, 'created_at_min keeps the products created at or after it')).toBeGreaterThan(0);
    for (const p of newer) expect(Date.parse(toIso(p.created_at!)) >= Date.parse(toIso(pivot)), says(rule, `${p.created_at} < ${pivot}`)).toBe(true);
    // An empty result may come as [] or as the observed 404 "Last page is 0"; the client reads both as empty.
    const future = (await store.client.listProducts({ updated_at_min: '2999-01-01T00:00:00+0000' })).items;
    expect(future, says(rule, 'updated_at_min in the future matches nothing')).toEqual([]);
  }),
);

test(
  ...verifies('store.timestamps.format', 'created_at and updated_at of products and categories', async ({ store, rule }) => {
    const products = listOf<ProductBody>(await store.send({ method: 'GET', path: '/products', query: { per_page: 10 } }), rule);
    const categories = listOf<ProductBody>(await store.send({ method: 'GET', path: '/categories', query: { per_page: 10 } }), rule);
    // A single resource answers from another route than its collection: one of each is read on its own too.
    const single = [];
    for (const [path, list] of [
      ['/products', products],
      ['/categories', categories],
    ] as const) {
      const first = (list as { id?: number }[])[0];
      if (first?.id !== undefined) single.push(jsonOf(await store.send({ method: 'GET', path: `${path}/${first.id}` }), rule) as ProductBody);
    }
    const stamps = [...products, ...categories, ...single].flatMap((r) => [r.created_at, r.updated_at]).filter((s) => s !== undefined);
    expect(stamps.length, says(rule, 'resources carry timestamps')).toBeGreaterThan(0);
    for (const stamp of stamps) expect(stamp, says(rule, `timestamp ${stamp} must be YYYY-MM-DDTHH:MM:SS+0000`)).toMatch(STORE_CONTRACT.timestampPattern);
  }),
);

/** `2012-02-19T17:34:36+0000` → a form Date.parse reads everywhere. */
function toIso(stamp: string): string {
  return stamp.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
}
