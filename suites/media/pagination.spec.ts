import { expect, test, verifies } from '../fixtures/mediaFixtures.ts';
import { errorsOf, expectStatus, jsonApiOf, linkOf, resourcesOf } from '../fixtures/mediaChecks.ts';
import { precondition, says } from '../../src/testing/ruleTest.ts';
import { MEDIA_CONTRACT } from '../../src/rules/mediaContract.ts';

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
    // Whether there is a second page is read from the pages, not from meta.count, the value under test.
    const b = await media.anonymous.list('anime', { page: { limit: 5, offset: 5 } });
    precondition(
      rule,
      media.target,
      a.data.length === 5 && b.data.length > 0,
      `more than 5 anime, for a second page (the pages hold ${a.data.length} and ${b.data.length})`,
    );
    expect(b.meta.count, says(rule, 'meta.count does not depend on the page')).toBe(a.meta.count);
    const seen = a.data.length + b.data.length;
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

/** A filtered listing walked whole when it is at most this long (pages of 20): longer, the count is not verified. */
const FILTERED_WALK_MAX = 100;

test(
  ...verifies('media.pagination.meta-count', 'a filtered listing counts what its walk visits', async ({ media, rule }) => {
    const filter = { subtype: 'TV' };
    let count: number | undefined;
    let visited = 0;
    for (let offset = 0; count === undefined || (offset < count && offset < FILTERED_WALK_MAX); offset += 20) {
      const page = await media.anonymous.list('anime', { filter, page: { limit: 20, offset } });
      expect(Number.isInteger(page.meta.count), says(rule, `filter[subtype]=TV: meta.count is an integer (got ${JSON.stringify(page.meta.count)})`)).toBe(true);
      count ??= page.meta.count!;
      expect(page.meta.count, says(rule, 'filter[subtype]=TV: meta.count does not depend on the page')).toBe(count);
      visited += page.data.length;
      if (page.data.length === 0) break;
    }
    precondition(
      rule,
      media.target,
      count! > 0 && count! <= FILTERED_WALK_MAX,
      `between 1 and ${FILTERED_WALK_MAX} TV anime, for a walk to count (meta.count says ${count})`,
    );
    expect(visited, says(rule, `filter[subtype]=TV: the walk visits meta.count (${count}) anime, the filtered listing's count`)).toBe(count);
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
