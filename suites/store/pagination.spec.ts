import { expect, test, verifies, type StoreUnderTest } from '../fixtures/storeFixtures.ts';
import { expectLinkEntriesValid, expectSchema, expectStatus, jsonOf, pageOf, parseLinkStrict, totalCountOf } from '../fixtures/storeChecks.ts';
import { precondition, says } from '../../src/testing/ruleTest.ts';
import { STORE_CONTRACT } from '../../src/rules/storeContract.ts';
import type { Rule } from '../../src/rules/Rule.ts';
import type { StoreResponse } from '../../src/clients/store/types.ts';
import { expectSortedWalk, SORT_BY_KEYS } from '../fixtures/storeOrder.ts';

// Pagination: page (1-based), per_page (default 30, max 200), X-Total-Count and Link.

const { defaultPerPage, maxPerPage } = STORE_CONTRACT;

interface Item {
  id: number;
}

async function page(store: StoreUnderTest, rule: Rule, query: Record<string, string | number>): Promise<{ res: StoreResponse; items: Item[] }> {
  const res = await store.send({ method: 'GET', path: '/products', query });
  expectStatus(res, 200, rule);
  const items = jsonOf(res, rule) as Item[];
  expect(Array.isArray(items), says(rule, 'a collection page is a JSON array')).toBe(true);
  return { res, items };
}

function linksOf(res: StoreResponse, rule: Rule): Partial<Record<'first' | 'prev' | 'next' | 'last', string>> {
  const header = res.headers.link;
  if (header === undefined) return {};
  return expectLinkEntriesValid(parseLinkStrict(header, rule), rule);
}

async function productTotal(store: StoreUnderTest, rule: Rule): Promise<number> {
  const { res } = await page(store, rule, { per_page: 1 });
  return totalCountOf(res, rule);
}

test(
  ...verifies('store.pagination.collection-is-array', 'products and categories', async ({ store, rule }) => {
    for (const path of ['/products', '/categories']) {
      const res = await store.send({ method: 'GET', path });
      expectStatus(res, 200, rule);
      expect(Array.isArray(jsonOf(res, rule)), says(rule, `GET ${path} must answer a JSON array`)).toBe(true);
    }
  }),
);

test(
  ...verifies('store.pagination.default-page-size', 'a page without per_page holds 30 items', async ({ store, rule }) => {
    const { res, items } = await page(store, rule, {});
    const total = totalCountOf(res, rule);
    // With 30 products or fewer every page size from 30 up gives the same page: nothing would be verified.
    precondition(rule, store.target, total > defaultPerPage, `at least ${defaultPerPage + 1} products (the store has ${total})`);
    expect(items.length, says(rule, `without per_page a page holds ${defaultPerPage} items`)).toBe(defaultPerPage);
    // The default holds on every page, also one named by page= as Link URLs name them: page 2 continues page 1.
    const second = await page(store, rule, { page: 2 });
    expect(second.items.length, says(rule, `without per_page, page 2 holds ${defaultPerPage} items or the rest`)).toBe(
      Math.min(defaultPerPage, total - defaultPerPage),
    );
    const firstIds = new Set(items.map((item) => item.id));
    expect(
      second.items.filter((item) => firstIds.has(item.id)).map((item) => item.id),
      says(rule, `page 2 without per_page starts after the ${defaultPerPage} items of page 1`),
    ).toEqual([]);
  }),
);

test(
  ...verifies('store.pagination.max-page-size', 'per_page=200 is honoured', async ({ store, rule }) => {
    const { res, items } = await page(store, rule, { per_page: maxPerPage });
    const total = totalCountOf(res, rule);
    // A full page of 200 shows the maximum is honoured; fewer products show only that per_page reaches them.
    precondition(rule, store.target, total > maxPerPage, `at least ${maxPerPage + 1} products (the store has ${total})`);
    expect(items.length, says(rule, `per_page=${maxPerPage} must return ${maxPerPage} items`)).toBe(maxPerPage);
    const small = await page(store, rule, { per_page: 7 });
    expect(small.items.length, says(rule, 'per_page=7 must return 7 items')).toBe(7);
  }),
);

test(
  ...verifies('store.pagination.per-page-over-max', 'per_page=250 is served as 200', async ({ store, rule }) => {
    const res = await store.send({ method: 'GET', path: '/products', query: { per_page: maxPerPage + 50 } });
    expectStatus(res, 200, rule);
    const total = totalCountOf(res, rule);
    expect((jsonOf(res, rule) as unknown[]).length, says(rule, 'served as the maximum page size')).toBe(Math.min(maxPerPage, total));
  }),
);

test(
  ...verifies('store.pagination.first-page-default', 'omitting page equals page=1, page=2 continues it', async ({ store, rule }) => {
    const implicit = await page(store, rule, { per_page: 5 });
    const explicit = await page(store, rule, { per_page: 5, page: 1 });
    expect(
      implicit.items.map((i) => i.id),
      says(rule, 'omitting page returns the first page'),
    ).toEqual(explicit.items.map((i) => i.id));
    const second = await page(store, rule, { per_page: 5, page: 2 });
    const firstIds = new Set(explicit.items.map((i) => i.id));
    expect(
      second.items.some((i) => firstIds.has(i.id)),
      says(rule, 'page 2 does not repeat page 1 (pages are 1-based)'),
    ).toBe(false);
  }),
);

test(
  ...verifies('store.pagination.total-count', 'X-Total-Count is the same on every page and counts the results', async ({ store, rule }) => {
    const first = await page(store, rule, { per_page: 10 });
    const total = totalCountOf(first.res, rule);
    const second = await page(store, rule, { per_page: 10, page: 2 });
    expect(totalCountOf(second.res, rule), says(rule, 'the total does not depend on the page')).toBe(total);
    const all = await page(store, rule, { per_page: maxPerPage });
    if (total <= maxPerPage) expect(all.items.length, says(rule, 'X-Total-Count equals the number of results')).toBe(total);
    // Every collection answer carries it, a filtered one too (the count is of its results).
    const filtered = await page(store, rule, { per_page: 10, since_id: 1 });
    expect(totalCountOf(filtered.res, rule), says(rule, 'a filtered list counts at most every product')).toBeLessThanOrEqual(total);
    const categories = await store.send({ method: 'GET', path: '/categories', query: { per_page: maxPerPage } });
    expectStatus(categories, 200, rule);
    const categoryTotal = totalCountOf(categories, rule);
    if (categoryTotal <= maxPerPage) {
      expect((jsonOf(categories, rule) as unknown[]).length, says(rule, 'X-Total-Count of categories equals the number of results')).toBe(categoryTotal);
    }
  }),
);

test(
  ...verifies('store.pagination.link-full-urls', 'on a middle page', async ({ store, rule }) => {
    const total = await productTotal(store, rule);
    const perPage = Math.max(1, Math.floor(total / 3));
    precondition(rule, store.target, total >= 3, `at least 3 products, for a middle page (the store has ${total})`);
    const { res } = await page(store, rule, { per_page: perPage, page: 2 });
    expect(res.headers.link, says(rule, 'a page of a collection with more pages carries Link')).toBeDefined();
    const links = linksOf(res, rule);
    expect(links.next ?? links.last, says(rule, 'a page before the last links to the next and the last page')).toBeDefined();
    // Full URLs only: how they are written (the collection's path, the query) is store.pagination.link-query-form's,
    // where they lead store.pagination.links-same-listing's and follow-links'.
  }),
);

test(
  ...verifies('store.pagination.follow-links', 'every item once, X-Total-Count in all, rels that mean what they say', async ({ store, rule }) => {
    const total = await productTotal(store, rule);
    precondition(rule, store.target, total >= 2, `at least 2 products, for a Link to follow (the store has ${total})`);
    const perPage = Math.min(maxPerPage, Math.max(1, Math.ceil(total / 5)));
    const seen = new Map<number, number>();
    const pages: Item[][] = [];
    let res = (await page(store, rule, { per_page: perPage })).res;
    const firstLinks = linksOf(res, rule);
    for (let guard = 0; ; guard++) {
      expect(guard, says(rule, `following next did not end after ${guard} pages`)).toBeLessThan(Math.ceil(total / perPage) + 2);
      const items = jsonOf(res, rule) as Item[];
      expectSchema(items, 'store/product-list', rule);
      // Every page, not only the first: a client may start from any Link it kept.
      expect(totalCountOf(res, rule), says(rule, `X-Total-Count on page ${pages.length + 1} is the total`)).toBe(total);
      pages.push(items);
      for (const { id } of items) seen.set(id, (seen.get(id) ?? 0) + 1);
      const next = linksOf(res, rule).next;
      if (!next) break;
      res = await store.send({ method: 'GET', url: next });
      expectStatus(res, 200, rule);
    }
    const repeated = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
    expect(repeated, says(rule, 'no item is visited twice')).toEqual([]);
    expect(seen.size, says(rule, `following next visits X-Total-Count (${total}) items`)).toBe(total);
    expect(pages.length, says(rule, 'the number of pages')).toBe(Math.ceil(total / perPage));
    if (pages.length > 1) {
      expect(firstLinks.last, says(rule, 'the first page links to the last page')).toBeDefined();
      const last = await store.send({ method: 'GET', url: firstLinks.last! });
      // A rel="last" past the end answers an error, not a page: said as such rather than as a body that is no list.
      expectStatus(last, 200, rule);
      expect(
        (jsonOf(last, rule) as Item[]).map((i) => i.id),
        says(rule, 'rel="last" is the page where next ends'),
      ).toEqual(pages.at(-1)!.map((i) => i.id));
      const second = await store.send({ method: 'GET', url: firstLinks.next! });
      const back = linksOf(second, rule);
      for (const rel of ['prev', 'first'] as const) {
        if (!back[rel]) continue;
        const answer = await store.send({ method: 'GET', url: back[rel] });
        expect(
          (jsonOf(answer, rule) as Item[]).map((i) => i.id),
          says(rule, `rel="${rel}" of page 2 is page 1`),
        ).toEqual(pages[0]!.map((i) => i.id));
      }
    }
  }),
);

test(
  ...verifies('store.pagination.link-rels-presence', 'first/prev after page 1, next/last before the last', async ({ store, rule }) => {
    const total = await productTotal(store, rule);
    precondition(rule, store.target, total >= 3, `at least 3 products, for three pages (the store has ${total})`);
    const perPage = Math.ceil(total / 3);
    const lastPage = Math.ceil(total / perPage);
    const rels = async (n: number) => {
      const { res } = await page(store, rule, { per_page: perPage, page: n });
      return Object.keys(linksOf(res, rule)).sort();
    };
    expect(await rels(1), says(rule, 'page 1 links next and last')).toEqual(['last', 'next']);
    expect(await rels(2), says(rule, 'a middle page links all four')).toEqual(['first', 'last', 'next', 'prev']);
    expect(await rels(lastPage), says(rule, 'the last page links first and prev')).toEqual(['first', 'prev']);
    const { res } = await page(store, rule, { per_page: perPage, page: 2 });
    expect(pageOf(linksOf(res, rule).last!), says(rule, 'last names the last page number')).toBe(lastPage);
    // Last: the docs' exact spelling, which RFC 8288 does not require (other whitespace is as good), observed on live.
    expect(res.headers.link!, says(rule, 'the published form: <url>; rel="x" joined by ", "')).toMatch(/^<[^>]+>; rel="\w+"(, <[^>]+>; rel="\w+")*$/);
  }),
);

test(
  ...verifies('store.pagination.past-last-page-404', 'page=last+1', async ({ store, rule }) => {
    const total = await productTotal(store, rule);
    const lastPage = Math.ceil(total / 50);
    const res = await store.send({ method: 'GET', path: '/products', query: { per_page: 50, page: lastPage + 1 }, retry: false });
    expectStatus(res, 404, rule);
    expect(jsonOf(res, rule), says(rule, 'the observed body')).toEqual({ code: 404, message: 'Not Found', description: `Last page is ${lastPage}` });
  }),
);

test(
  ...verifies('store.pagination.invalid-page-400', 'page=0, page=abc, per_page=0, per_page=-5', async ({ store, rule }) => {
    for (const query of [{ page: 0 }, { page: 'abc' }, { per_page: 0 }, { per_page: -5 }]) {
      const res = await store.send({ method: 'GET', path: '/products', query, retry: false });
      expect(res.status, says(rule, `${JSON.stringify(query)} must answer 400, got ${res.status}`)).toBe(400);
    }
  }),
);

test(
  ...verifies('store.pagination.follow-links', 'the client iterates a whole collection through Link only', async ({ store, rule }) => {
    const total = await productTotal(store, rule);
    const ids: number[] = [];
    for await (const product of store.client.iterateProducts({ per_page: maxPerPage })) ids.push(product.id);
    expect(new Set(ids).size, says(rule, 'the client visits each product once')).toBe(ids.length);
    expect(ids.length, says(rule, 'the client visits X-Total-Count products')).toBe(total);
  }),
);

interface Dated {
  id: number;
  created_at: string;
}

/** Every product, id and created_at only, through the client's walk (a few requests of 200). */
async function everyProduct(store: StoreUnderTest): Promise<Dated[]> {
  const all: Dated[] = [];
  for await (const product of store.client.iterateProducts({ per_page: maxPerPage, fields: 'id,name,created_at' })) all.push(product as unknown as Dated);
  return all;
}

/**
 * A filtered listing of a few old products: since_id (which the client sends) above the oldest three ids and
 * created_at_max at the eighth, so products other tests create meanwhile (newer) never fall in it. Its
 * members are computed from the whole listing, not from what the filtered answers say.
 */
async function oldWindow(store: StoreUnderTest, rule: Rule): Promise<{ query: Record<string, string>; members: number[] }> {
  const all = (await everyProduct(store)).sort((a, b) => a.id - b.id);
  precondition(rule, store.target, all.length >= 8, `at least 8 products, for a filtered listing of several pages (the store has ${all.length})`);
  const sinceId = all[2]!.id;
  // Timestamps come as <timestamp>+0000 (store.timestamps.format), which Date.parse reads once the offset has its colon.
  const at = (stamp: string) => Date.parse(stamp.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  const createdAtMax = [...all].sort((a, b) => at(a.created_at) - at(b.created_at))[7]!.created_at;
  const members = all.filter((p) => p.id > sinceId && at(p.created_at) <= at(createdAtMax)).map((p) => p.id);
  precondition(rule, store.target, members.length >= 3, `at least 3 products in the window since_id=${sinceId}, created_at_max=${createdAtMax}`);
  return { query: { since_id: String(sinceId), created_at_max: createdAtMax }, members };
}

test(
  ...verifies(
    'store.pagination.filters-with-pages',
    'since_id and created_at_max with per_page=2: every page, the count and the walk',
    async ({ store, rule }) => {
      const { query, members } = await oldWindow(store, rule);
      const perPage = 2;
      const pages: number[][] = [];
      let res = (await page(store, rule, { ...query, per_page: perPage })).res;
      for (let guard = 0; ; guard++) {
        expect(guard, says(rule, `following next did not end after ${guard} pages`)).toBeLessThan(Math.ceil(members.length / perPage) + 2);
        const ids = (jsonOf(res, rule) as Item[]).map((item) => item.id);
        const outside = ids.filter((id) => !members.includes(id));
        expect(outside, says(rule, `page ${pages.length + 1} of the filtered listing holds products the filters exclude`)).toEqual([]);
        expect(totalCountOf(res, rule), says(rule, `X-Total-Count on page ${pages.length + 1} counts the matches`)).toBe(members.length);
        pages.push(ids);
        const next = linksOf(res, rule).next;
        if (!next) break;
        res = await store.send({ method: 'GET', url: next });
        expectStatus(res, 200, rule);
      }
      expect(
        pages.slice(0, -1).map((ids) => ids.length),
        says(rule, `every page but the last holds per_page=${perPage}`),
      ).toEqual(pages.slice(0, -1).map(() => perPage));
      expect(
        pages.flat().sort((a, b) => a - b),
        says(rule, 'the walk visits each match once'),
      ).toEqual([...members].sort((a, b) => a - b));
      // page with the filters, asked directly as the client's listProducts({ page }) does: the walk's second page.
      const second = await page(store, rule, { ...query, per_page: perPage, page: 2 });
      expect(
        second.items.map((item) => item.id),
        says(rule, 'page=2 of the filtered listing is the second page of its walk'),
      ).toEqual(pages[1]);
    },
  ),
);

test(
  ...verifies(
    'store.pagination.links-same-listing',
    'a filtered, trimmed listing: every Link of pages 1 and 2 leads to a page of it',
    async ({ store, rule }) => {
      const { query, members } = await oldWindow(store, rule);
      const perPage = 2;
      const asked = { ...query, fields: 'id,name', per_page: String(perPage) };
      const first = await page(store, rule, asked);
      // The members fields=id,name gives, whatever the provider makes of it: a page of the same listing has the same.
      const shape = Object.keys(first.items[0] ?? {}).sort();
      // Each link is followed, as a client does: what it answers says whether it is this listing, not how its URL is written
      // (that is store.pagination.link-query-form). Which rels a page offers beyond next on page 1 the contract leaves open.
      const sameListing = async (res: StoreResponse, where: string) => {
        const links = linksOf(res, rule);
        for (const [rel, url] of Object.entries(links)) {
          const answer = await store.send({ method: 'GET', url });
          expectStatus(answer, 200, rule);
          const items = jsonOf(answer, rule) as Item[];
          expect(Array.isArray(items), says(rule, `${where}: rel="${rel}" ${url} answers no JSON array`)).toBe(true);
          const led = `${where}: rel="${rel}" ${url}`;
          expect(
            items.map((item) => item.id).filter((id) => !members.includes(id)),
            says(rule, `${led} leads to products the listing's filters exclude`),
          ).toEqual([]);
          expect(items.length > 0 && items.length <= perPage, says(rule, `${led} leads to a page of ${items.length}, not one of per_page=${perPage}`)).toBe(
            true,
          );
          for (const item of items) {
            expect(Object.keys(item).sort(), says(rule, `${led} leads to products with other members than the listing's fields=id,name`)).toEqual(shape);
          }
          expect(totalCountOf(answer, rule), says(rule, `${led} counts ${members.length} results no more: the listing's`)).toBe(members.length);
        }
        return links;
      };
      const next = (await sameListing(first.res, 'page 1')).next;
      expect(next, says(rule, 'page 1 of a listing of several pages offers rel="next"')).toBeDefined();
      const second = await store.send({ method: 'GET', url: next! });
      expectStatus(second, 200, rule);
      await sameListing(second, 'page 2');
    },
  ),
);

test(
  ...verifies(
    'store.pagination.link-query-form',
    "every Link of pages 1 and 2 is the collection's path with the query as sent, only page changed",
    async ({ store, rule }) => {
      const { query } = await oldWindow(store, rule);
      const asked = { ...query, fields: 'id,name', per_page: '2' };
      const sameForm = (res: StoreResponse, where: string) => {
        const links = linksOf(res, rule);
        for (const [rel, url] of Object.entries(links)) {
          const target = new URL(url);
          expect(target.pathname, says(rule, `${where}: rel="${rel}" is written with the path ${target.pathname}, not the collection's`)).toBe(
            new URL(res.url).pathname,
          );
          const kept = Object.fromEntries([...target.searchParams].filter(([key]) => key !== 'page'));
          expect(kept, says(rule, `${where}: rel="${rel}" ${url} does not repeat the query as sent`)).toEqual(asked);
          expect(target.searchParams.get('page') ?? '1', says(rule, `${where}: rel="${rel}" names no page`)).toMatch(/^\d+$/);
        }
        return links;
      };
      const first = await page(store, rule, asked);
      const next = sameForm(first.res, 'page 1').next;
      expect(next, says(rule, 'page 1 of a listing of several pages offers rel="next"')).toBeDefined();
      const second = await store.send({ method: 'GET', url: next! });
      expectStatus(second, 200, rule);
      sameForm(second, 'page 2');
    },
  ),
);

test(
  ...verifies(
    'store.products.sort-by',
    'a walk through Link next per sort_by value is in order from the first product to the last',
    async ({ store, rule }) => {
      const total = await productTotal(store, rule);
      precondition(rule, store.target, total >= 4, `at least 4 products, for an order across pages (the store has ${total})`);
      for (const value of Object.keys(SORT_BY_KEYS))
        await expectSortedWalk((request) => store.send(request), rule, { value, total, mainLanguage: store.mainLanguage });
    },
  ),
);
