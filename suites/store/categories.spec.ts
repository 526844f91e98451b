import { expect, test, verifies } from '../fixtures/storeFixtures.ts';
import { expectSchema, expectStatus, jsonOf, uniqueName } from '../fixtures/storeChecks.ts';
import { says } from '../../src/testing/ruleTest.ts';
import type { StoreUnderTest } from '../fixtures/storeFixtures.ts';
import type { Rule } from '../../src/rules/Rule.ts';

// Category and GET /categories/{category_id}.

interface CategoryBody {
  id: number;
  parent: unknown;
  subcategories: unknown[];
}

/** Every category of the store, read through the client (which follows Link). */
async function allCategories(store: StoreUnderTest): Promise<CategoryBody[]> {
  const all: CategoryBody[] = [];
  for await (const category of store.client.iterateCategories({ per_page: 200 })) all.push(category as unknown as CategoryBody);
  return all;
}

async function getCategory(store: StoreUnderTest, id: number, rule: Rule): Promise<CategoryBody> {
  const res = await store.send({ method: 'GET', path: `/categories/${id}` });
  expectStatus(res, 200, rule);
  const body = jsonOf(res, rule) as CategoryBody;
  expectSchema(body, 'store/category', rule);
  return body;
}

test(
  ...verifies('store.categories.get-category', 'every member the spec lists, in the contract format', async ({ store, rule }) => {
    const categories = await allCategories(store);
    expect(categories.length, says(rule, 'the store must have a category to read (seed one on live)')).toBeGreaterThan(0);
    for (const { id } of categories.slice(0, 3)) {
      const body = await getCategory(store, id, rule);
      expect(body.id, says(rule, 'GET /categories/{id} answers that category')).toBe(id);
    }
  }),
);

test(
  ...verifies('store.categories.parent-null-top-level', 'a top-level category shows parent null', async ({ store, rule }) => {
    const categories = await allCategories(store);
    const top = categories.filter((c) => c.parent === null);
    expect(top.length, says(rule, 'a store with categories has top-level ones, shown with parent null')).toBeGreaterThan(0);
    const body = await getCategory(store, top[0]!.id, rule);
    expect(body.parent, says(rule, 'parent is null for a top-level category')).toBeNull();
  }),
);

test(
  ...verifies('store.categories.subcategories-empty-array', 'a category without children shows []', async ({ store, rule }) => {
    const categories = await allCategories(store);
    // The type of a parent reference is not shown: an id, or an object carrying it, names the same parent.
    const parents = new Set(categories.map((c) => JSON.stringify(referencedId(c.parent))));
    const leaf = categories.find((c) => !parents.has(JSON.stringify(c.id)));
    expect(leaf, says(rule, 'some category has no children')).toBeDefined();
    const body = await getCategory(store, leaf!.id, rule);
    expect(body.subcategories, says(rule, 'a category without children shows an empty array')).toEqual([]);
  }),
);

test(
  ...verifies('store.categories.tree-references', 'parent and subcategories are ids that agree with each other', async ({ store, rule }) => {
    const categories = await allCategories(store);
    const byId = new Map(categories.map((c) => [c.id, c]));
    let depth = 0;
    for (const category of categories) {
      for (const child of category.subcategories) {
        expect(typeof child, says(rule, 'subcategories holds ids')).toBe('number');
        expect(byId.get(child as number)?.parent, says(rule, `child ${String(child)} of ${category.id} must name it as parent`)).toBe(category.id);
      }
      // And the other way: the parent a category names lists it among its subcategories.
      if (category.parent !== null)
        expect(
          byId.get(category.parent as number)?.subcategories,
          says(rule, `${category.id} names ${String(category.parent)} as parent, which must list it`),
        ).toContain(category.id);
      let d = 1;
      for (let c = category; c.parent !== null && d < 50; d++) c = byId.get(c.parent as number)!;
      depth = Math.max(depth, d);
    }
    if (store.target === 'twin') expect(depth, 'the seeded tree is at least three levels deep').toBeGreaterThanOrEqual(3);
  }),
);

test(
  ...verifies('store.categories.crud', 'create 201, update 200, delete 200 {}', async ({ store, rule }) => {
    const name = uniqueName('Category');
    const created = await store.send({ method: 'POST', path: '/categories', json: { name } });
    expectStatus(created, 201, rule);
    const body = jsonOf(created, rule) as CategoryBody;
    store.track('categories', body.id);
    expectSchema(body, 'store/category', rule);
    const updated = await store.send({ method: 'PUT', path: `/categories/${body.id}`, json: { name: `${name} renamed` } });
    expectStatus(updated, 200, rule);
    expectSchema(jsonOf(updated, rule), 'store/category', rule);
    const deleted = await store.send({ method: 'DELETE', path: `/categories/${body.id}` });
    expectStatus(deleted, 200, rule);
    expect(jsonOf(deleted, rule)).toEqual({});
    const gone = await store.send({ method: 'GET', path: `/categories/${body.id}`, retry: false });
    expectStatus(gone, 404, rule);
  }),
);

/** The id a category reference names, whether the reference is the id itself or an object with an `id` (the spec leaves the type open). */
function referencedId(reference: unknown): unknown {
  return typeof reference === 'object' && reference !== null && 'id' in reference ? (reference as { id: unknown }).id : reference;
}
