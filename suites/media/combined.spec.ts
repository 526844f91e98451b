import { expect, test, verifies } from '../fixtures/mediaFixtures.ts';
import { expectStatus, followable, jsonApiOf, linkageKeys, linkOf, resourcesOf, type JsonApiDocument } from '../fixtures/mediaChecks.ts';
import { precondition, says } from '../../src/testing/ruleTest.ts';
import type { Rule } from '../../src/rules/Rule.ts';
import type { MediaUnderTest } from '../fixtures/mediaFixtures.ts';

// Parameters combined: each keeps its effect beside the others, as the typed client and the pacts send them; and
// a listing's links lead to pages of that same listing.

type Query = Record<string, string | number>;

async function page(media: MediaUnderTest, rule: Rule, query: Query): Promise<JsonApiDocument> {
  const res = await media.anonymous.send({ method: 'GET', path: '/anime', query });
  expectStatus(res, 200, rule);
  return jsonApiOf(res, rule);
}

const ids = (doc: JsonApiDocument) => resourcesOf(doc).map((r) => r.id);

/** Each resource's attribute as a number (NaN where it is not one). */
const numbers = (doc: JsonApiDocument, name: string) => resourcesOf(doc).map((r) => Number(r.attributes?.[name]));

test(
  ...verifies('media.jsonapi.parameters-combined', 'filter[subtype] with sort, in both orders', async ({ media, rule }) => {
    const sorted = async (sort: string) => page(media, rule, { 'filter[subtype]': 'TV', sort, 'page[limit]': 10 });
    const descending = await sorted('-userCount');
    const ascending = await sorted('userCount');
    const counts = numbers(descending, 'userCount');
    precondition(
      rule,
      media.target,
      counts.length > 1 && counts.every(Number.isFinite) && new Set(counts).size > 1,
      'TV anime with different, numeric userCount',
    );
    for (const [doc, sort] of [
      [descending, '-userCount'],
      [ascending, 'userCount'],
    ] as const) {
      const subtypes = resourcesOf(doc).map((r) => r.attributes?.['subtype']);
      expect(new Set(subtypes), says(rule, `filter[subtype]=TV&sort=${sort}: only TV anime`)).toEqual(new Set(['TV']));
    }
    expect(counts, says(rule, 'filter[subtype]=TV&sort=-userCount: descending by userCount')).toEqual([...counts].sort((a, b) => b - a));
    const up = numbers(ascending, 'userCount');
    expect(up, says(rule, 'filter[subtype]=TV&sort=userCount: ascending by userCount')).toEqual([...up].sort((a, b) => a - b));
  }),
);

test(
  ...verifies('media.jsonapi.parameters-combined', 'include with fields of both types', async ({ media, rule }) => {
    const doc = await page(media, rule, { include: 'categories', 'fields[anime]': 'slug,categories', 'fields[categories]': 'title', 'page[limit]': 3 });
    const anime = resourcesOf(doc);
    const included = doc.included ?? [];
    precondition(rule, media.target, anime.length > 0 && included.length > 0, 'anime with categories among the first three');
    for (const r of anime) {
      expect(Object.keys(r.attributes ?? {}), says(rule, `fields[anime]=slug,categories with include: anime/${r.id} holds only slug`)).toEqual(['slug']);
      expect(Object.keys(r.relationships ?? {}), says(rule, `fields[anime]=slug,categories with include: anime/${r.id} holds only categories`)).toEqual([
        'categories',
      ]);
    }
    const named = new Set(anime.flatMap((r) => linkageKeys(r.relationships?.['categories']?.data)));
    for (const c of included) {
      expect(named.has(`${c.type}/${c.id}`), says(rule, `include=categories with fields: ${c.type}/${c.id} is a category the anime name`)).toBe(true);
      expect(Object.keys(c.attributes ?? {}), says(rule, `fields[categories]=title with include: categories/${c.id} holds only title`)).toEqual(['title']);
    }
  }),
);

/**
 * page[limit] and page[offset] keep their effect beside `query`: the windows at offsets 0 and 2, two each, are
 * disjoint and together hold what one page of four holds, and each counts what the whole listing counts. Compared
 * as sets: where no sort is asked the order within a page is the provider's to choose (JSON:API), only the
 * windows' partition of one listing is not.
 */
async function expectWindowsPartition(media: MediaUnderTest, rule: Rule, query: Record<string, string>, said: string, count: unknown): Promise<void> {
  const four = ids(await page(media, rule, { ...query, 'page[limit]': 4 }));
  const windows: string[][] = [];
  for (const offset of [0, 2]) {
    const window = await page(media, rule, { ...query, 'page[limit]': 2, 'page[offset]': offset });
    expect(ids(window).length, says(rule, `${said}&page[limit]=2&page[offset]=${offset}: two resources`)).toBe(2);
    expect(window.meta?.['count'], says(rule, `meta.count with ${said} counts the whole listing`)).toBe(count);
    windows.push(ids(window));
  }
  const [first, second] = windows as [string[], string[]];
  expect(
    first.filter((id) => second.includes(id)),
    says(rule, `${said}: the windows at offsets 0 and 2 share no resource`),
  ).toEqual([]);
  expect([...first, ...second].sort(), says(rule, `${said}: the windows at offsets 0 and 2 hold what page[limit]=4 holds`)).toEqual([...four].sort());
}

test(
  ...verifies(
    'media.jsonapi.parameters-combined',
    'page[limit] and page[offset] with a filter and an include, as the pact sends them',
    async ({ media, rule }) => {
      const whole = await page(media, rule, { 'filter[subtype]': 'TV', 'page[limit]': 20 });
      precondition(rule, media.target, ids(whole).length > 4, `more than 4 TV anime (found ${ids(whole).length})`);
      const query = { 'filter[subtype]': 'TV', include: 'categories' };
      await expectWindowsPartition(media, rule, query, 'filter[subtype]=TV&include=categories', whole.meta?.['count']);
    },
  ),
);

test(
  ...verifies('media.jsonapi.parameters-combined', 'filter[text] with page[limit] and page[offset]', async ({ media, rule }) => {
    const whole = await page(media, rule, { 'filter[text]': 'series', 'page[limit]': 20 });
    precondition(rule, media.target, ids(whole).length > 4, `more than 4 anime found by filter[text]=series (found ${ids(whole).length})`);
    await expectWindowsPartition(media, rule, { 'filter[text]': 'series' }, 'filter[text]=series', whole.meta?.['count']);
  }),
);

test(
  ...verifies('media.pagination.same-listing', 'a filtered, sorted, sparse walk through next, then first, prev and last', async ({ media, rule }) => {
    const limit = 5;
    const query = { 'filter[subtype]': 'TV', sort: '-userCount', 'fields[anime]': 'subtype,userCount', 'page[limit]': limit };
    const first = await media.anonymous.send({ method: 'GET', path: '/anime', query });
    expectStatus(first, 200, rule);
    const start = jsonApiOf(first, rule);
    const count = start.meta?.['count'];
    precondition(
      rule,
      media.target,
      typeof count === 'number' && count > 2 * limit,
      `more than ${2 * limit} TV anime, for three pages (meta.count ${String(count)})`,
    );
    // At most five pages: a walk of a large live catalogue would spend the request budget; five show what a link keeps.
    const pages: { doc: JsonApiDocument; url: string }[] = [{ doc: start, url: first.url }];
    let next = linkOf(start.links, 'next');
    while (next !== undefined && pages.length < 5) {
      const from = pages[pages.length - 1]!.url;
      const res = await media.anonymous.send({ method: 'GET', url: followable(next, from, media.apiUrl, rule, `links.next of page ${pages.length}`) });
      expectStatus(res, 200, rule);
      const doc = jsonApiOf(res, rule);
      pages.push({ doc, url: res.url });
      next = linkOf(doc.links, 'next');
    }
    const complete = next === undefined;
    const walked = pages.flatMap(({ doc }) => resourcesOf(doc));
    // The same page size on every page links lead to; that the first holds exactly page[limit] is the field notes'
    // paginator (media.pagination.offset, observed on live), not this rule's.
    const size = resourcesOf(start).length;
    for (const [i, { doc }] of pages.entries()) {
      const n = resourcesOf(doc).length;
      const last = complete && i === pages.length - 1;
      expect(last ? n <= size && n > 0 : n === size, says(rule, `page ${i + 1} of the walk holds ${n}, page 1 ${size}: the same page size`)).toBe(true);
      for (const r of resourcesOf(doc)) {
        expect(r.attributes?.['subtype'], says(rule, `page ${i + 1} through links.next keeps filter[subtype]=TV: anime/${r.id}`)).toBe('TV');
        expect(Object.keys(r.attributes ?? {}).sort(), says(rule, `page ${i + 1} keeps fields[anime]: anime/${r.id}`)).toEqual(['subtype', 'userCount']);
      }
    }
    const counts = walked.map((r) => Number(r.attributes?.['userCount']));
    expect(counts, says(rule, 'the walk keeps sort=-userCount across pages')).toEqual([...counts].sort((a, b) => b - a));
    expect(new Set(walked.map((r) => r.id)).size, says(rule, 'no anime twice in the walk')).toBe(walked.length);
    if (complete) expect(walked.length, says(rule, `a whole filtered walk visits meta.count (${count}) anime`)).toBe(count);
    // From the second page: first and prev lead back to the first page, last to the walk's end.
    const second = pages[1];
    precondition(rule, media.target, second !== undefined, 'a second page through links.next');
    for (const rel of ['first', 'prev'] as const) {
      const link = linkOf(second!.doc.links, rel);
      if (link === undefined) continue;
      const res = await media.anonymous.send({ method: 'GET', url: followable(link, second!.url, media.apiUrl, rule, `links.${rel} of page 2`) });
      expectStatus(res, 200, rule);
      expect(ids(jsonApiOf(res, rule)), says(rule, `links.${rel} of page 2 leads to the first page of the same listing`)).toEqual(ids(start));
    }
    const lastLink = linkOf(start.links, 'last');
    if (lastLink !== undefined && complete) {
      const res = await media.anonymous.send({ method: 'GET', url: followable(lastLink, pages[0]!.url, media.apiUrl, rule, 'links.last') });
      expectStatus(res, 200, rule);
      const tail = ids(jsonApiOf(res, rule));
      expect(tail, says(rule, 'links.last leads to the end of the same listing')).toEqual(walked.slice(walked.length - tail.length).map((r) => r.id));
    }
  }),
);
