import { expect, test, verifies } from '../fixtures/storeFixtures.ts';
import { expectLocalized, expectSchema, expectStatus, jsonOf, uniqueName } from '../fixtures/storeChecks.ts';
import { says } from '../../src/testing/ruleTest.ts';
import type { StoreClient } from '../../src/clients/store/StoreClient.ts';
import type { Rule } from '../../src/rules/Rule.ts';

// Localized properties: objects keyed by language code; a string on write applies to every language.

const LOCALIZED_FIELDS = ['name', 'description', 'handle'] as const;

async function expectLocalizedEverywhere(client: StoreClient, rule: Rule): Promise<void> {
  const products = (await client.listProducts({ per_page: 5 })).items as unknown as Record<string, unknown>[];
  const categories = (await client.listCategories({ per_page: 5 })).items as unknown as Record<string, unknown>[];
  expect(products.length + categories.length, says(rule, 'the store has resources to read')).toBeGreaterThan(0);
  for (const [kind, list] of [
    ['product', products],
    ['category', categories],
  ] as const) {
    for (const resource of list) {
      for (const field of LOCALIZED_FIELDS) {
        if (field in resource) expectLocalized(resource[field], `${kind} ${String(resource.id)} ${field}`, rule);
      }
    }
  }
}

test(
  ...verifies('store.localized.always-object', 'products and categories of the store', async ({ store, rule }) => {
    await expectLocalizedEverywhere(store.client, rule);
  }),
);

test(
  ...verifies(
    'store.localized.always-object',
    'also in a store with a single language',
    async ({ store, rule }) => {
      const single = await store.openTwinStore({ preset: 'single-language' });
      expect(single.info.languages, 'the store has one language').toHaveLength(1);
      await expectLocalizedEverywhere(single.client, rule);
      const created = await single.client.createProduct({ name: 'Uma só língua' });
      expect(created.name, says(rule, 'a string written to a one-language store is answered as an object')).toEqual({
        [single.info.languages[0]!]: 'Uma só língua',
      });
    },
    { needsTwin: 'needs a second, single-language store, which only the twin can open' },
  ),
);

test(
  ...verifies('store.localized.string-applies-to-all', 'a product name given as a string', async ({ store, rule }) => {
    const name = uniqueName('Everywhere ñandú 漢字');
    const res = await store.send({ method: 'POST', path: '/products', json: { name } });
    expect(res.status, says(rule, `create answered ${res.status}: ${res.text.slice(0, 200)}`)).toBeLessThan(300);
    const body = jsonOf(res, rule) as { id: number; name: unknown };
    store.track('products', body.id);
    const localized = expectLocalized(body.name, 'name', rule);
    expect(Object.keys(localized).length, says(rule, 'the string reaches at least one language')).toBeGreaterThan(0);
    for (const code of store.languages) expect(localized[code], says(rule, `language ${code} must hold the string`)).toBe(name);
    for (const [code, value] of Object.entries(localized)) expect(value, says(rule, `language ${code} must hold the string`)).toBe(name);
  }),
);

test(
  ...verifies('store.localized.string-applies-to-all', 'a category name changed with a string', async ({ store, rule }) => {
    const created = await store.client.createCategory({ name: Object.fromEntries(store.languages.map((c) => [c, `Before ${c}`])) });
    store.track('categories', created.id);
    const renamed = uniqueName('After');
    const updated = await store.client.updateCategory(created.id, { name: renamed });
    const localized = expectLocalized(updated.name, 'name', rule);
    for (const code of store.languages) expect(localized[code], says(rule, `language ${code} must hold the new string`)).toBe(renamed);
    expectSchema(await store.client.getCategory(created.id), 'store/category', rule);
  }),
);

test(
  ...verifies('store.localized.object-per-language', 'one value per language code', async ({ store, rule }) => {
    const name = Object.fromEntries(store.languages.map((code) => [code, uniqueName(`Only ${code}`)]));
    const res = await store.send({ method: 'POST', path: '/products', json: { name } });
    expect(res.status, says(rule, `create answered ${res.status}: ${res.text.slice(0, 200)}`)).toBeLessThan(300);
    const body = jsonOf(res, rule) as { id: number; name: unknown };
    store.track('products', body.id);
    const localized = expectLocalized(body.name, 'name', rule);
    for (const [code, value] of Object.entries(name)) expect(localized[code], says(rule, `language ${code} must hold its own value`)).toBe(value);
    const read = await store.client.getProduct(body.id);
    expect(read.name, says(rule, 'what is read back equals what was written')).toMatchObject(name);
  }),
);

test(
  ...verifies('store.localized.unknown-language-422', 'a code the store lacks', async ({ store, rule }) => {
    const res = await store.send({ method: 'POST', path: '/products', json: { name: { zz: 'Nowhere' } }, retry: false });
    if (res.status < 300) store.track('products', (jsonOf(res, rule) as { id: number }).id);
    expectStatus(res, 422, rule);
    expect(Object.keys(jsonOf(res, rule) as object), says(rule, 'the 422 names the field')).toContain('name');
  }),
);
