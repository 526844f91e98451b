import { expect, test, verifies, type StoreUnderTest } from '../fixtures/storeFixtures.ts';
import { expectStatus, jsonOf, listOf } from '../fixtures/storeChecks.ts';
import { precondition, says } from '../../src/testing/ruleTest.ts';
import type { Rule } from '../../src/rules/Rule.ts';

// Identity: a resource fetched by its id is that resource, the one the listing shows under that id.

interface Listed {
  id: number;
  name?: unknown;
  handle?: unknown;
  parent?: unknown;
  created_at?: unknown;
}

/** The members a listing item and a read by id must agree on: what names the resource, not what may change. */
const IDENTIFYING = ['id', 'name', 'handle', 'parent', 'created_at'] as const;

/** Reads the first and the last item of a page of `collection` by id, each compared with what the listing showed. */
async function readsBackWhatTheListingShows(store: StoreUnderTest, rule: Rule, collection: 'categories' | 'products'): Promise<void> {
  const listing = await store.send({ method: 'GET', path: `/${collection}`, query: { per_page: 5 } });
  expectStatus(listing, 200, rule);
  const items = listOf<Listed>(listing, rule);
  precondition(rule, store.target, Array.isArray(items) && items.length >= 2, `at least 2 ${collection}, to tell one from another`);
  for (const item of [items[0]!, items.at(-1)!]) {
    const res = await store.send({ method: 'GET', path: `/${collection}/${item.id}` });
    expectStatus(res, 200, rule);
    const read = jsonOf(res, rule) as Listed;
    expect(read.id, says(rule, `GET /${collection}/${item.id} answered ${collection} ${String(read.id)}`)).toBe(item.id);
    const shown = Object.fromEntries(IDENTIFYING.filter((key) => key in item).map((key) => [key, item[key]]));
    const answered = Object.fromEntries(IDENTIFYING.filter((key) => key in item).map((key) => [key, read[key]]));
    expect(answered, says(rule, `GET /${collection}/${item.id} is not the resource the listing shows under that id`)).toEqual(shown);
  }
}

test(
  ...verifies('store.categories.fetched-by-id', 'the first and last category of a page, each read by its id', async ({ store, rule }) => {
    await readsBackWhatTheListingShows(store, rule, 'categories');
  }),
);

test(
  ...verifies('store.products.fetched-by-id', 'the first and last product of a page, each read by its id', async ({ store, rule }) => {
    await readsBackWhatTheListingShows(store, rule, 'products');
  }),
);
