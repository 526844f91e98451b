import { expect, test, verifies, type StoreUnderTest } from '../fixtures/storeFixtures.ts';
import { expectLocalized, expectStatus, jsonOf, ownCategory, uniqueName } from '../fixtures/storeChecks.ts';
import { precondition, says } from '../../src/testing/ruleTest.ts';
import type { Rule } from '../../src/rules/Rule.ts';
import type { StoreResponse } from '../../src/clients/store/types.ts';

// Writes reflected: a write's answer, and every later read, say what was written, as the provider keeps it
// (Localized properties: a plain string applies to every language, an object sets one value per language).

type Collection = 'products' | 'categories';

/** A localized name as the provider keeps what was sent: a string in every language of the store, an object's values as sent. */
function expectKeptName(value: unknown, sent: string | Record<string, string>, store: StoreUnderTest, rule: Rule, where: string): void {
  const kept = expectLocalized(value, `${where}: name`, rule);
  const wanted = typeof sent === 'string' ? Object.fromEntries(store.languages.map((code) => [code, sent])) : sent;
  for (const [code, text] of Object.entries(wanted)) {
    expect(kept[code], says(rule, `${where}: name.${code} is ${JSON.stringify(kept[code])}, not the ${JSON.stringify(text)} written`)).toBe(text);
  }
}

/** A name in each of the store's languages, told apart. */
function namePerLanguage(store: StoreUnderTest, prefix: string): Record<string, string> {
  const name = uniqueName(prefix);
  return Object.fromEntries(store.languages.map((code) => [code, `${name} [${code}]`]));
}

function idOf(res: StoreResponse, rule: Rule): number {
  const id = (jsonOf(res, rule) as { id?: unknown }).id;
  expect(typeof id, says(rule, `${res.method} ${res.url} answered no numeric id: ${res.text.slice(0, 200)}`)).toBe('number');
  return id as number;
}

async function readBack(store: StoreUnderTest, collection: Collection, id: number, rule: Rule): Promise<unknown> {
  const res = await store.send({ method: 'GET', path: `/${collection}/${id}` });
  expectStatus(res, 200, rule);
  return (jsonOf(res, rule) as { name?: unknown }).name;
}

const twoXX = (status: number) => status >= 200 && status < 300;

for (const [collection, one, as] of [
  ['products', 'product', 'string'],
  ['categories', 'category', 'object'],
] as const) {
  test(
    ...verifies('store.writes.create-reflected', `a ${one} created with its name as ${as === 'string' ? 'a string' : 'an object'}`, async ({ store, rule }) => {
      const name = as === 'string' ? uniqueName(`Reflected ${collection}`) : namePerLanguage(store, `Reflected ${collection}`);
      const created = await store.send({ method: 'POST', path: `/${collection}`, json: { name } });
      // Which 2xx a create answers, the contract leaves open.
      expect(twoXX(created.status), says(rule, `creating answered ${created.status}: ${created.text.slice(0, 200)}`)).toBe(true);
      const id = idOf(created, rule);
      store.track(collection, id);
      expectKeptName((jsonOf(created, rule) as { name?: unknown }).name, name, store, rule, `the answer to POST /${collection}`);
      expectKeptName(await readBack(store, collection, id, rule), name, store, rule, `GET /${collection}/${id} after the create`);
    }),
  );
}

test(
  ...verifies('store.writes.update-reflected', 'a category renamed with an object, a product renamed with a string', async ({ store, rule }) => {
    const category = await ownCategory(store, rule);
    const perLanguage = namePerLanguage(store, 'Renamed category');
    const updated = await store.send({ method: 'PUT', path: `/categories/${category}`, json: { name: perLanguage } });
    expectStatus(updated, 200, rule);
    expectKeptName((jsonOf(updated, rule) as { name?: unknown }).name, perLanguage, store, rule, 'the answer to PUT /categories/{id}');
    expectKeptName(await readBack(store, 'categories', category, rule), perLanguage, store, rule, `GET /categories/${category} after the update`);

    const product = await store.client.createProduct({ name: uniqueName('To rename') });
    store.track('products', product.id);
    const renamed = uniqueName('Renamed product');
    const answer = await store.client.updateProduct(product.id, { name: renamed });
    expectKeptName(answer.name, renamed, store, rule, 'the answer to PUT /products/{id}');
    expectKeptName(await readBack(store, 'products', product.id, rule), renamed, store, rule, `GET /products/${product.id} after the update`);
  }),
);

test(
  ...verifies('store.writes.delete-gone', 'a deleted category and a deleted product: GET, HEAD and the listing', async ({ store, rule }) => {
    const category = await ownCategory(store, rule);
    await expectDeleted(store, 'categories', category, rule);
    const listed: number[] = [];
    for await (const one of store.client.iterateCategories({ per_page: 200 })) listed.push(one.id);
    precondition(rule, store.target, listed.length > 0, 'at least one other category, for a listing to look in');
    expect(listed, says(rule, `the listing still holds category ${category} after its DELETE`)).not.toContain(category);

    const product = await store.client.createProduct({ name: uniqueName('To delete') });
    store.track('products', product.id);
    await expectDeleted(store, 'products', product.id, rule);
    // The listing from the deleted id on (since_id is exclusive): one request, whatever the catalogue's size. An empty
    // page may be answered 404, as the field notes' provider does, or 200 [] (the contract leaves it open).
    const after = await store.send({ method: 'GET', path: '/products', query: { since_id: product.id - 1, per_page: 1 } });
    expectStatus(after, [200, 404], rule);
    const ids = after.status === 404 ? [] : (jsonOf(after, rule) as { id?: unknown }[]).map((p) => p.id);
    expect(ids, says(rule, `the listing still holds product ${product.id} after its DELETE`)).not.toContain(product.id);
  }),
);

/** DELETE answered 2xx, then GET and HEAD of the resource answer 4xx (not 429): gone for every reader. */
async function expectDeleted(store: StoreUnderTest, collection: Collection, id: number, rule: Rule): Promise<void> {
  const deleted = await store.send({ method: 'DELETE', path: `/${collection}/${id}` });
  expect(twoXX(deleted.status), says(rule, `DELETE /${collection}/${id} answered ${deleted.status}: ${deleted.text.slice(0, 200)}`)).toBe(true);
  for (const method of ['GET', 'HEAD'] as const) {
    const res = await store.send({ method, path: `/${collection}/${id}`, retry: false });
    expect(
      res.status >= 400 && res.status < 500 && res.status !== 429,
      says(rule, `${method} /${collection}/${id} after its DELETE answered ${res.status}: it is not gone`),
    ).toBe(true);
  }
}
