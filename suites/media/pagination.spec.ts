import { expect, test, verifies } from '../fixtures/mediaFixtures.ts';
import { errorsOf, expectStatus, followable, jsonApiOf, linkOf, resourcesOf, type JsonApiDocument, type JsonApiResource } from '../fixtures/mediaChecks.ts';
import { precondition, says } from '../../src/testing/ruleTest.ts';
import { MEDIA_CONTRACT } from '../../src/rules/mediaContract.ts';
import type { Rule } from '../../src/rules/Rule.ts';
import type { MediaUnderTest } from '../fixtures/mediaFixtures.ts';

// The offset paginator: page[limit], page[offset], meta.count and links.

function offsetOf(url: string | undefined): number | undefined {
  return url === undefined ? undefined : Number(new URL(url).searchParams.get('page[offset]') ?? 0);
}

test(
  ...verifies('media.pagination.offset', 'default limit 10, and a window by limit and offset', async ({ media, rule }) => {
    const all = jsonApiOf(await media.anonymous.send({ method: 'GET', path: '/anime', query: { 'page[limit]': 20 } }), rule);
    const page = jsonApiOf(await media.anonymous.send({ method: 'GET', path: '/anime' }), rule);
    expect(resourcesOf(page).length, says(rule, `the default page holds ${MEDIA_CONTRACT.defaultLimit}`)).toBe(MEDIA_CONTRACT.defaultLimit);
    const window = jsonApiOf(await media.anonymous.send({ method: 'GET', path: '/anime', query: { 'page[limit]': 3, 'page[offset]': 4 } }), rule);
    expect(
      resourcesOf(window).map((r) => r.id),
      says(rule, 'limit 3 at offset 4'),
    ).toEqual(
      resourcesOf(all)
        .slice(4, 7)
        .map((r) => r.id),
    );
  }),
);

test(
  ...verifies('media.pagination.meta-count', 'the same count on every page', async ({ media, rule }) => {
    const a = await media.anonymous.list('anime', { page: { limit: 5 } });
    expect(typeof a.meta.count, says(rule, 'meta.count is a number')).toBe('number');
    // Whether there is a second page is read from the pages, not from meta.count, the value under test; the second page is
    // the one links.next names, as a client reaches it (an offset built by hand would be the field notes' paginator).
    const next = a.links.next;
    precondition(rule, media.target, a.data.length > 0 && next !== undefined, `more anime than one page holds, for a second page (links.next ${String(next)})`);
    const res = await media.anonymous.send({ method: 'GET', url: followable(next!, a.response.url, media.apiUrl, rule, 'links.next of the first page') });
    expectStatus(res, 200, rule);
    const b = jsonApiOf(res, rule);
    precondition(rule, media.target, resourcesOf(b).length > 0, 'anime on the page links.next leads to');
    expect(b.meta?.['count'], says(rule, 'meta.count does not depend on the page')).toBe(a.meta.count);
    const seen = a.data.length + resourcesOf(b).length;
    // The client reads meta.count as an integer on every collection it walks: a user's library too.
    const signedIn = media.signedIn;
    if (signedIn) {
      const userId = (await signedIn.list('users', { filter: { self: 'true' } })).data[0]?.id;
      precondition(rule, media.target, userId !== undefined, 'the signed-in user, for a library to count');
      const library = await signedIn.list('library-entries', { filter: { userId: userId! }, page: { limit: 2 } });
      expect(Number.isInteger(library.meta.count), says(rule, `a library's meta.count is an integer (got ${JSON.stringify(library.meta.count)})`)).toBe(true);
    }
    expect(
      a.meta.count! >= seen,
      says(rule, `meta.count ${a.meta.count} counts the whole collection, so at least the ${seen} anime of its first two pages`),
    ).toBe(true);
  }),
);

/** A filtered listing walked whole when it is at most this long: longer, the count is not verified. */
const FILTERED_WALK_MAX = 100;

/** Pages a filtered walk may take: pages of 20, or of at least 10 where a provider serves fewer than asked. */
const FILTERED_WALK_PAGES = 10;

test(
  ...verifies('media.pagination.meta-count', 'a filtered listing counts what its walk visits', async ({ media, rule }) => {
    const said = 'filter[subtype]=TV';
    // Walked through links.next, as MediaClient.iterate walks: page[offset] built by hand is the field notes' paginator, not the client's.
    let res = await media.anonymous.send({ method: 'GET', path: '/anime', query: { 'filter[subtype]': 'TV', 'page[limit]': 20 } });
    let count: number | undefined;
    let visited = 0;
    let next: string | undefined;
    for (let pages = 1; ; pages++) {
      expectStatus(res, 200, rule);
      const page = jsonApiOf(res, rule);
      const counted = page.meta?.['count'];
      expect(Number.isInteger(counted), says(rule, `${said}: meta.count is an integer (got ${JSON.stringify(counted)})`)).toBe(true);
      count ??= counted as number;
      expect(counted, says(rule, `${said}: meta.count does not depend on the page`)).toBe(count);
      visited += resourcesOf(page).length;
      next = linkOf(page.links, 'next');
      if (next === undefined || count > FILTERED_WALK_MAX || pages >= FILTERED_WALK_PAGES) break;
      res = await media.anonymous.send({ method: 'GET', url: followable(next, res.url, media.apiUrl, rule, `links.next of page ${pages}`) });
    }
    precondition(
      rule,
      media.target,
      count! > 0 && count! <= FILTERED_WALK_MAX,
      `between 1 and ${FILTERED_WALK_MAX} TV anime, for a walk to count (meta.count says ${count})`,
    );
    precondition(rule, media.target, next === undefined, `a walk of the ${count} TV anime within ${FILTERED_WALK_PAGES} pages (links.next still leads on)`);
    expect(visited, says(rule, `${said}: the walk visits meta.count (${count}) anime, the filtered listing's count`)).toBe(count);
  }),
);

test(
  ...verifies('media.pagination.links', 'first, prev, next and last at the start, middle and end', async ({ media, rule }) => {
    const limit = 4;
    const first = await media.anonymous.list('anime', { page: { limit } });
    const count = first.meta.count!;
    expect(offsetOf(first.links.first), says(rule, 'first is offset 0')).toBe(0);
    expect(first.links.prev, says(rule, 'no prev at offset 0')).toBeUndefined();
    expect(offsetOf(first.links.next), says(rule, 'next follows the window')).toBe(limit);
    expect(offsetOf(first.links.last), says(rule, 'last is at count - limit, not aligned to pages')).toBe(Math.max(count - limit, 0));
    for (const url of Object.values(first.links)) if (url) expect(new URL(url).protocol, says(rule, 'links are full URLs')).toMatch(/^https?:$/);
    const middle = await media.anonymous.list('anime', { page: { limit, offset: 6 } });
    expect(offsetOf(middle.links.prev), says(rule, 'prev steps back by the limit')).toBe(2);
    const end = await media.anonymous.list('anime', { page: { limit, offset: count - 1 } });
    expect(end.links.next, says(rule, 'no next at the end')).toBeUndefined();
    const filtered = await media.anonymous.list('anime', { filter: { subtype: 'TV' }, page: { limit: 2 } });
    if (filtered.links.next) expect(decodeURIComponent(filtered.links.next), says(rule, 'links echo the filter')).toContain('filter[subtype]=TV');
  }),
);

test(
  ...verifies('media.pagination.first-last', 'on the first, a middle and the last page', async ({ media, rule }) => {
    const limit = 4;
    const base = media.apiUrl.replace(/\/+$/, '');
    const first = await media.anonymous.list('anime', { page: { limit } });
    const count = first.meta.count;
    precondition(rule, media.target, typeof count === 'number' && count > 2 * limit, `more than ${2 * limit} anime, for three pages (meta.count ${count})`);
    const pages = [first, await media.anonymous.list('anime', { page: { limit, offset: limit } })];
    for (const [i, page] of pages.entries()) {
      for (const rel of ['first', 'last'] as const) {
        const url = page.links[rel];
        expect(url, says(rule, `page ${i + 1} carries links.${rel}`)).toBeTruthy();
        expect(url!.startsWith(`${base}/`), says(rule, `links.${rel} ${url} is a full URL under ${base}`)).toBe(true);
      }
    }
    // Where links.last leads, the walk ends: no links.next there.
    const last = await media.anonymous.send({ method: 'GET', url: first.links.last! });
    expectStatus(last, 200, rule);
    const lastLinks = jsonApiOf(last, rule).links as Record<string, unknown> | undefined;
    // Absent or null: JSON:API has an unavailable link "omitted or ... a null value".
    expect(linkOf(lastLinks, 'next'), says(rule, 'the last page carries no links.next')).toBeUndefined();
    // The last page is a page too: it carries first and last like the others.
    for (const rel of ['first', 'last'] as const) expect(lastLinks?.[rel], says(rule, `the last page carries links.${rel}`)).toBeTruthy();
  }),
);

test(
  ...verifies('media.pagination.follow-next', 'every anime once, meta.count in all', async ({ media, rule }) => {
    const first = await media.anonymous.list('anime', { page: { limit: 20 } });
    const count = first.meta.count;
    expect(typeof count, says(rule, 'meta.count is a number: it says how many a walk must visit')).toBe('number');
    // One page only would follow no link: nothing verified.
    precondition(rule, media.target, count! > first.data.length, `more anime than one page holds (meta.count ${count}, a page of ${first.data.length})`);
    const ids: string[] = [];
    for await (const anime of media.anonymous.iterate('anime', { page: { limit: 20 } })) ids.push(anime.id);
    expect(new Set(ids).size, says(rule, 'no anime twice')).toBe(ids.length);
    expect(ids.length, says(rule, 'meta.count anime in all')).toBe(first.meta.count);
  }),
);

test(
  ...verifies('media.pagination.limit-bounds-400', 'page[limit]=21 and page[limit]=0', async ({ media, rule }) => {
    const over = await media.anonymous.send({ method: 'GET', path: '/anime', query: { 'page[limit]': MEDIA_CONTRACT.maxLimit + 1 }, retry: false });
    expectStatus(over, 400, rule);
    expect(errorsOf(over, rule)[0], says(rule, 'the real error')).toMatchObject({
      title: 'Invalid page value',
      detail: `Limit exceeds maximum page size of ${MEDIA_CONTRACT.maxLimit}.`,
    });
    const zero = await media.anonymous.send({ method: 'GET', path: '/anime', query: { 'page[limit]': 0 }, retry: false });
    expectStatus(zero, 400, rule);
  }),
);

// Sort orders the collection, not the page (JSON:API, Sorting: the data "ordered according to the criteria specified";
// Pagination: "Concepts of order, as expressed in the naming of pagination links, MUST remain consistent with JSON:API's
// sorting rules"). So a walk through links.next is in order from its first resource to its last, across pages: a
// provider that sorts each page alone has every page in order and the walk out of it.

/** Resources per page of a sorted walk, and the pages it may take (the twin's 42 anime whole; on live the first 50). */
const SORTED_LIMIT = 10;
const SORTED_PAGES = 5;

interface SortedWalk {
  /** `sort` as sent: attributes of anime the field notes name (`sort=-averageRating,startDate`), each way. */
  readonly sort: string;
  readonly filter?: Readonly<Record<string, string>>;
}

const SORTED_WALKS: readonly SortedWalk[] = [
  { sort: '-averageRating' },
  { sort: 'averageRating' },
  { sort: 'startDate' },
  { sort: '-startDate' },
  // The field notes' own example: two keys, the second deciding between equals of the first.
  { sort: '-averageRating,startDate' },
  { sort: '-startDate', filter: { 'filter[subtype]': 'TV' } },
];

interface SortKey {
  readonly name: string;
  readonly descending: boolean;
}

function sortKeys(sort: string): SortKey[] {
  return sort.split(',').map((key) => ({ name: key.replace(/^-/, ''), descending: key.startsWith('-') }));
}

const isNull = (value: unknown) => value === null || value === undefined;

/** Numbers and decimal strings (averageRating "82.26") as numbers, the rest (ISO dates) as text. */
function compareValues(a: unknown, b: unknown): number {
  const [x, y] = [Number(a), Number(b)];
  if (typeof a !== 'boolean' && typeof b !== 'boolean' && String(a).trim() !== '' && String(b).trim() !== '' && Number.isFinite(x) && Number.isFinite(y))
    return x - y;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

interface Placed {
  readonly resource: JsonApiResource;
  /** 1-based page of the walk, and the position on it. */
  readonly page: number;
  readonly at: number;
}

/**
 * Why `b`, right after `a` in the walk, is out of the order `keys` ask, or undefined. Equal values may come in any
 * order (JSON:API says nothing of ties); where a value is missing (null), it may sort first or last, the same way for
 * the whole walk (`nulls` remembers which), as JSON:API leaves that to the server.
 */
function outOfOrder(a: JsonApiResource, b: JsonApiResource, keys: readonly SortKey[], nulls: Map<string, 'first' | 'last'>): string | undefined {
  for (const { name, descending } of keys) {
    const [x, y] = [a.attributes?.[name], b.attributes?.[name]];
    if (isNull(x) && isNull(y)) continue;
    if (isNull(x) || isNull(y)) {
      const placed = isNull(x) ? 'first' : 'last';
      const before = nulls.get(name);
      if (before !== undefined && before !== placed) return `a missing ${name} sorts ${placed} here, ${before} earlier in the walk`;
      nulls.set(name, placed);
      return undefined;
    }
    const order = compareValues(x, y);
    if (order === 0) continue;
    return (descending ? order > 0 : order < 0)
      ? undefined
      : `${name} ${JSON.stringify(y)} comes after ${JSON.stringify(x)}, ${descending ? 'descending' : 'ascending'} asked`;
  }
  return undefined;
}

/** The walk's pages through links.next, from the first answer, at most SORTED_PAGES. */
async function walkPages(media: MediaUnderTest, rule: Rule, query: Record<string, string | number>, said: string): Promise<JsonApiDocument[]> {
  let res = await media.anonymous.send({ method: 'GET', path: '/anime', query });
  const pages: JsonApiDocument[] = [];
  for (;;) {
    expectStatus(res, 200, rule);
    const doc = jsonApiOf(res, rule);
    pages.push(doc);
    const next = linkOf(doc.links, 'next');
    if (next === undefined || pages.length >= SORTED_PAGES) return pages;
    res = await media.anonymous.send({ method: 'GET', url: followable(next, res.url, media.apiUrl, rule, `${said}: links.next of page ${pages.length}`) });
  }
}

for (const { sort, filter = {} } of SORTED_WALKS) {
  const said = [...Object.entries(filter).map(([name, value]) => `${name}=${value}`), `sort=${sort}`].join('&');
  test(
    ...verifies(
      'media.pagination.same-listing',
      `${said}: a walk through links.next is in order across pages, not only within each`,
      async ({ media, rule }) => {
        const keys = sortKeys(sort);
        const fields = [...new Set([...keys.map((k) => k.name), ...Object.keys(filter).map((name) => name.slice('filter['.length, -1))])].join(',');
        const query = { ...filter, sort, 'fields[anime]': fields, 'page[limit]': SORTED_LIMIT };
        const pages = await walkPages(media, rule, query, said);
        const count = pages[0]!.meta?.['count'];
        // One page in order says nothing of the collection's order: the walk must cross a page boundary.
        precondition(
          rule,
          media.target,
          typeof count === 'number' && count > SORTED_LIMIT,
          `more than ${SORTED_LIMIT} anime for ${said}, for a walk of two pages (meta.count ${String(count)})`,
        );
        expect(pages.length, says(rule, `${said}: ${count} anime at page[limit]=${SORTED_LIMIT}, yet page 1 links no next page`)).toBeGreaterThan(1);
        const walked: Placed[] = pages.flatMap((doc, i) => resourcesOf(doc).map((resource, at) => ({ resource, page: i + 1, at: at + 1 })));
        const ids = walked.map(({ resource }) => `${resource.type}/${resource.id}`);
        expect(
          ids.filter((id, i) => ids.indexOf(id) !== i),
          says(rule, `${said}: no anime twice in the walk`),
        ).toEqual([]);
        for (const [name, value] of Object.entries(filter)) {
          const attribute = name.slice('filter['.length, -1);
          const outside = walked.filter(({ resource }) => resource.attributes?.[attribute] !== value).map(({ resource }) => `anime/${resource.id}`);
          expect(outside, says(rule, `${said}: every page through links.next keeps ${name}=${value}`)).toEqual([]);
        }
        const values = walked.flatMap(({ resource }) => keys.map((k) => resource.attributes?.[k.name]).filter((value) => !isNull(value)));
        precondition(
          rule,
          media.target,
          new Set(values.map(String)).size > 1,
          `anime with different values of ${keys.map((k) => k.name).join(', ')} to order by`,
        );
        const nulls = new Map<string, 'first' | 'last'>();
        for (let i = 1; i < walked.length; i++) {
          const [a, b] = [walked[i - 1]!, walked[i]!];
          const why = outOfOrder(a.resource, b.resource, keys, nulls);
          if (why === undefined) continue;
          const where =
            a.page === b.page
              ? `anime/${b.resource.id} (item ${b.at} of page ${b.page}) comes after anime/${a.resource.id}`
              : `anime/${b.resource.id}, first of page ${b.page}, comes after anime/${a.resource.id}, last of page ${a.page}: each page may be in order, the collection is not`;
          throw new Error(says(rule, `${said}: the walk through links.next is out of order: ${where}; ${why}.`));
        }
      },
    ),
  );
}
