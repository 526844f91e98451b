import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { MEDIA_CONTRACT } from '../../../../src/rules/mediaContract.ts';
import { JsonApiError } from '../../../../src/twins/media/jsonapi/errors.ts';
import { parseFieldsets } from '../../../../src/twins/media/jsonapi/fields.ts';
import { compileFilters, filterTokens } from '../../../../src/twins/media/jsonapi/filters.ts';
import { parseInclude } from '../../../../src/twins/media/jsonapi/include.ts';
import { escapeQueryComponent, toQuery } from '../../../../src/twins/media/jsonapi/links.ts';
import { camelize, dasherize, humanize, underscore } from '../../../../src/twins/media/jsonapi/names.ts';
import { pageLinks, parsePage } from '../../../../src/twins/media/jsonapi/paginator.ts';
import { parseJsonApiQuery } from '../../../../src/twins/media/jsonapi/query.ts';
import { compileSort } from '../../../../src/twins/media/jsonapi/sort.ts';
import { MediaState } from '../../../../src/twins/media/mediaState.ts';
import { ANONYMOUS } from '../../../../src/twins/media/model.ts';
import { inRange, pageLimitsOf } from '../../../../src/twins/media/resources/define.ts';
import { LIBRARY_ENTRIES } from '../../../../src/twins/media/resources/library.ts';
import { ANIME } from '../../../../src/twins/media/resources/media.ts';

function thrown(action: () => unknown): JsonApiError {
  try {
    action();
  } catch (error) {
    if (error instanceof JsonApiError) return error;
    throw error;
  }
  throw new Error('expected a JsonApiError');
}

const query = (text: string): URLSearchParams => new URLSearchParams(text);

test('names: camelCase members, dasherized paths, snake_case accepted', () => {
  expect(camelize('library_entries')).toBe('libraryEntries');
  expect(camelize('library-entries')).toBe('libraryEntries');
  expect(camelize('episodeCount')).toBe('episodeCount');
  expect(dasherize('mediaRelationships')).toBe('media-relationships');
  expect(underscore('mediaRelationships')).toBe('media_relationships');
  expect(humanize('libraryEntry')).toBe('library entry');
});

test('links: brackets percent-encoded and pairs sorted, as Rails to_query writes them', () => {
  expect(escapeQueryComponent('page[limit]')).toBe('page%5Blimit%5D');
  expect(escapeQueryComponent('a b,c*')).toBe('a+b%2Cc%2A');
  expect(
    toQuery([
      ['page[offset]', '0'],
      ['filter[userId]', '5554'],
      ['page[limit]', '10'],
    ]),
  ).toBe('filter%5BuserId%5D=5554&page%5Blimit%5D=10&page%5Boffset%5D=0');
});

test('paginator: default 10, maximum 20 (500 for library entries), limit 0 and bad values are 400 Invalid page value', () => {
  const limits = pageLimitsOf('anime');
  expect(parsePage(new Map(), limits)).toEqual({ limit: MEDIA_CONTRACT.defaultLimit, offset: 0 });
  expect(parsePage(new Map([['limit', '20']]), limits)).toEqual({ limit: 20, offset: 0 });
  expect(parsePage(new Map([['limit', '500']]), pageLimitsOf('library-entries'))).toEqual({ limit: 500, offset: 0 });
  const over = thrown(() => parsePage(new Map([['limit', '21']]), limits));
  expect(over.status).toBe(400);
  expect(over.errors[0]).toEqual({ title: 'Invalid page value', detail: 'Limit exceeds maximum page size of 20.', code: '118', status: '400' });
  for (const [name, value] of [
    ['limit', '0'],
    ['limit', '-1'],
    ['limit', 'abc'],
    ['offset', '-5'],
    ['offset', '1.5'],
    ['offset', '9'.repeat(40)],
  ] as const) {
    const error = thrown(() => parsePage(new Map([[name, value]]), limits));
    expect(error.errors[0]?.title, `${name}=${value}`).toBe('Invalid page value');
  }
  expect(thrown(() => parsePage(new Map([['number', '2']]), limits)).errors[0]?.title).toBe('Page parameter not allowed');
  expect(parsePage(new Map(), pageLimitsOf('categories')), 'categories are unpaginated').toBeUndefined();
  expect(parsePage(new Map([['limit', '1000']]), pageLimitsOf('streamers'))).toEqual({ limit: 1000, offset: 0 });
});

test('paginator links: first at 0, prev only past 0, next only before the end, last at max(count - limit, 0)', () => {
  const url = 'http://twin/api/edge/anime';
  const echo = [['filter[status]', 'finished']] as const;
  const middle = pageLinks(url, echo, { limit: 2, offset: 4 }, 11);
  expect(middle).toEqual({
    first: `${url}?filter%5Bstatus%5D=finished&page%5Blimit%5D=2&page%5Boffset%5D=0`,
    prev: `${url}?filter%5Bstatus%5D=finished&page%5Blimit%5D=2&page%5Boffset%5D=2`,
    next: `${url}?filter%5Bstatus%5D=finished&page%5Blimit%5D=2&page%5Boffset%5D=6`,
    last: `${url}?filter%5Bstatus%5D=finished&page%5Blimit%5D=2&page%5Boffset%5D=9`,
  });
  const start = pageLinks(url, [], { limit: 10, offset: 0 }, 3);
  expect(Object.keys(start)).toEqual(['first', 'last']);
  expect(start.last).toBe(`${url}?page%5Blimit%5D=10&page%5Boffset%5D=0`);
  expect(pageLinks(url, [], { limit: 5, offset: 8 }, 10).prev).toContain('page%5Boffset%5D=3');
});

test('query families: malformed fields, filter and page parameters are 400s; other parameters are ignored', () => {
  const parsed = parseJsonApiQuery(query('include=categories&filter[user_id]=1&fields[anime]=slug&sort=-startDate&page[limit]=2&utm=x'));
  expect(parsed.include).toBe('categories');
  expect(parsed.filters).toEqual([{ name: 'user_id', value: '1' }]);
  expect(parsed.page.get('limit')).toBe('2');
  expect(parsed.echo.map(([key]) => key)).toEqual(['include', 'filter[user_id]', 'fields[anime]', 'sort']);
  expect(thrown(() => parseJsonApiQuery(query('fields=slug'))).errors[0]?.code).toBe('119');
  expect(thrown(() => parseJsonApiQuery(query('filter=x'))).errors[0]?.code).toBe('120');
  expect(thrown(() => parseJsonApiQuery(query('filter[a][b]=x'))).errors[0]?.code).toBe('120');
  expect(thrown(() => parseJsonApiQuery(query('page=2'))).errors[0]?.code).toBe('117');
});

test('include: dotted paths checked against the types they reach, snake_case accepted, polymorphic media', () => {
  const tree = parseInclude('categories,media_relationships.destination,mediaRelationships.source', ANIME);
  expect([...tree.children.keys()]).toEqual(['categories', 'mediaRelationships']);
  expect([...(tree.children.get('mediaRelationships')?.children.keys() ?? [])]).toEqual(['destination', 'source']);
  expect([...parseInclude('media.categories,anime.episodes,unit', LIBRARY_ENTRIES).children.keys()]).toEqual(['media', 'anime', 'unit']);
  const bad = thrown(() => parseInclude('media_relationships.nope', ANIME));
  expect(bad.errors[0]).toEqual({ title: 'Invalid field', detail: 'nope is not a valid relationship of mediaRelationships', code: '112', status: '400' });
  expect(thrown(() => parseInclude('constructor', ANIME)).errors[0]?.detail).toBe('constructor is not a valid relationship of anime');
  expect(parseInclude('genres', ANIME).children.has('genres'), 'a deprecated relationship may be included (it yields nothing)').toBe(true);
});

test('fields: names per type, unknown names and types are 400', () => {
  const fields = parseFieldsets(new Map([['anime', 'slug,canonical_title,categories']]));
  expect([...(fields.get('anime') ?? [])]).toEqual(['slug', 'canonicalTitle', 'categories']);
  expect(thrown(() => parseFieldsets(new Map([['anime', 'nope']]))).errors[0]).toMatchObject({ title: 'Invalid field', code: '112' });
  expect(thrown(() => parseFieldsets(new Map([['users', 'password']]))).errors[0]?.title, 'write-only members are not fields').toBe('Invalid field');
  expect(thrown(() => parseFieldsets(new Map([['nope', 'slug']]))).errors[0]).toMatchObject({ title: 'Invalid resource', code: '101' });
});

test('filters: comma lists, _none, ranges; unknown names 102, bad ids 103, bad values 107', () => {
  expect(filterTokens('a, b,_none')).toEqual(['a', 'b', null]);
  expect(inRange(85, '80..')).toBe(true);
  expect(inRange(79.9, '80..')).toBe(false);
  expect(inRange(90, '..90')).toBe(true);
  expect(inRange(90, '80...90')).toBe(false);
  expect(inRange(80, '80')).toBe(true);
  const state = new MediaState('virtual');
  const context = { state, viewer: ANONYMOUS };
  const finished = compileFilters(ANIME, [{ name: 'status', value: 'finished' }], context);
  const tv = compileFilters(ANIME, [{ name: 'subtype', value: 'TV,movie' }], context);
  const anime1 = state.get('anime', '1');
  if (!anime1) throw new Error('seed has anime 1');
  expect(finished(anime1)).toBe(true);
  expect(tv(anime1)).toBe(true);
  expect(compileFilters(ANIME, [{ name: 'average_rating', value: '99..' }], context)(anime1)).toBe(false);
  expect(compileFilters(ANIME, [{ name: 'categories', value: 'action,space' }], context)(anime1)).toBe(true);
  expect(compileFilters(ANIME, [{ name: 'streamers', value: 'Crunchyroll' }], context)(anime1)).toBe(true);
  expect(thrown(() => compileFilters(ANIME, [{ name: 'foo_bar', value: '1' }], context)).errors[0]).toEqual({
    title: 'Filter not allowed',
    detail: 'foo_bar is not allowed.',
    code: '102',
    status: '400',
  });
  expect(thrown(() => compileFilters(ANIME, [{ name: 'id', value: '1,abc' }], context)).errors[0]?.code).toBe('103');
  expect(thrown(() => compileFilters(ANIME, [{ name: 'status', value: 'airing' }], context)).errors[0]?.code).toBe('107');
  expect(thrown(() => compileFilters(ANIME, [{ name: 'averageRating', value: 'high' }], context)).errors[0]?.code).toBe('107');
});

test('sort: several keys, descending with -, nulls last, ties by id; unknown criteria 114', () => {
  const state = new MediaState('virtual');
  const records = state.all('anime');
  const byRating = [...records].sort(compileSort(ANIME, '-averageRating', state));
  const ratings = byRating.map((record) => record.attributes['averageRating']).filter((value) => value !== null);
  expect(ratings).toEqual([...ratings].sort((a, b) => Number(b) - Number(a)));
  expect(byRating.at(-1)?.attributes['averageRating'], 'nulls last').toBeNull();
  const byStart = [...records].sort(compileSort(ANIME, 'start_date,-id', state));
  expect(byStart[0]?.attributes['startDate']).toBe('1982-10-03');
  expect(thrown(() => compileSort(ANIME, '-nope', state)).errors[0]).toEqual({
    title: 'Invalid sort criteria',
    detail: 'nope is not a valid sort criteria for anime',
    code: '114',
    status: '400',
  });
});
