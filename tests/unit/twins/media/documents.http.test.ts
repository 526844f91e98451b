import { readFileSync } from 'node:fs';
import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { DEPRECATED_RELATIONSHIPS } from '../../../../src/rules/mediaRoutes.ts';
import { MEDIA_SEED } from '../../../../src/twins/media/seedFacts.ts';
import { JSON_API, send, startTestTwin, type TestTwin } from './mediaHttp.ts';

let twin: TestTwin;

test.beforeAll(async () => {
  twin = await startTestTwin();
});
test.afterAll(async () => {
  await twin.twin.close();
  expect(twin.internalErrors, 'no request reached the 500 fallback').toEqual([]);
});

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../../captured/media/${name}`, import.meta.url), 'utf8'));
const visibleAnime = MEDIA_SEED.animeCount - MEDIA_SEED.adultAnimeIds.length;

test('a collection has the fixture shape: key order, string ids, resource links, meta.count and encoded page links', async () => {
  const answer = await send(`${twin.api}/anime?page[limit]=2`);
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toBe(JSON_API);
  const body = answer.json();
  const capture = fixture('anime-collection.2018-capture.json') as { data: { attributes: object; relationships: object }[] };
  expect(Object.keys(body)).toEqual(['data', 'meta', 'links']);
  expect(body.data).toHaveLength(2);
  const [first] = body.data;
  expect(Object.keys(first)).toEqual(['id', 'type', 'links', 'attributes', 'relationships']);
  expect(first).toMatchObject({ id: '1', type: 'anime', links: { self: `${twin.api}/anime/1` } });
  for (const name of Object.keys(capture.data[0]?.attributes ?? {})) expect(first.attributes, `attribute ${name} of the capture`).toHaveProperty(name);
  for (const name of Object.keys(capture.data[0]?.relationships ?? {})) expect(first.relationships, `relationship ${name} of the capture`).toHaveProperty(name);
  expect(first.attributes.titles).toHaveProperty('en_jp');
  expect(typeof first.attributes.averageRating).toBe('string');
  expect(first.relationships.categories).toEqual({
    links: { self: `${twin.api}/anime/1/relationships/categories`, related: `${twin.api}/anime/1/categories` },
  });
  expect(body.meta).toEqual({ count: visibleAnime });
  expect(body.links).toEqual({
    first: `${twin.api}/anime?page%5Blimit%5D=2&page%5Boffset%5D=0`,
    next: `${twin.api}/anime?page%5Blimit%5D=2&page%5Boffset%5D=2`,
    last: `${twin.api}/anime?page%5Blimit%5D=2&page%5Boffset%5D=${visibleAnime - 2}`,
  });
});

test('pagination: prev past offset 0, no next on the last page, last not aligned to pages, client parameters echoed', async () => {
  const body = (await send(`${twin.api}/anime?page[limit]=4&page[offset]=40&filter[subtype]=TV&sort=-user_count&include=categories`)).json();
  const count = body.meta.count as number;
  const query = (offset: number): string => `filter%5Bsubtype%5D=TV&include=categories&page%5Blimit%5D=4&page%5Boffset%5D=${offset}&sort=-user_count`;
  expect(count).toBeLessThan(44);
  expect(body.data).toEqual([]);
  expect(body.links.prev).toBe(`${twin.api}/anime?${query(36)}`);
  expect(body.links.next).toBeUndefined();
  expect(body.links.last).toBe(`${twin.api}/anime?${query(Math.max(count - 4, 0))}`);
  const defaults = (await send(`${twin.api}/manga`)).json();
  expect(defaults.data).toHaveLength(10);
  expect(defaults.links.first).toBe(`${twin.api}/manga?page%5Blimit%5D=10&page%5Boffset%5D=0`);
});

test('page errors: limit over 20, limit 0, bad values, other page parameters', async () => {
  const over = await send(`${twin.api}/anime?page[limit]=21`);
  expect(over.status).toBe(400);
  expect(over.json()).toEqual((fixture('errors.json') as Record<string, unknown>)['400 page limit (detail confirmed by a client)']);
  for (const query of ['page[limit]=0', 'page[limit]=-3', 'page[offset]=x', 'page[limit]=1.5']) {
    const answer = await send(`${twin.api}/anime?${query}`);
    expect(answer.status, query).toBe(400);
    expect(answer.json().errors[0]).toMatchObject({ title: 'Invalid page value', code: '118', status: '400' });
  }
  expect((await send(`${twin.api}/library-entries?filter[userId]=1&page[limit]=500`)).status, 'library entries go to 500').toBe(200);
  expect((await send(`${twin.api}/library-entries?filter[userId]=1&page[limit]=501`)).json().errors[0].detail).toBe('Limit exceeds maximum page size of 500.');
  expect((await send(`${twin.api}/anime?page[number]=2`)).status).toBe(400);
});

test('unpaginated collections: all 12 categories at once, still with meta.count and links', async () => {
  const body = (await send(`${twin.api}/categories`)).json();
  expect(body.data).toHaveLength(MEDIA_SEED.categoryCount);
  expect(body.meta.count).toBe(MEDIA_SEED.categoryCount);
  expect(body.links.first).toBe(`${twin.api}/categories`);
  for (const collection of ['streamers', 'profile-link-sites', 'roles']) {
    expect((await send(`${twin.api}/${collection}?page[limit]=100`)).status, `${collection} has no maximum`).toBe(200);
  }
});

test('single resource, 404 Record not found and 400 Invalid field value for a non-numeric id', async () => {
  const one = (await send(`${twin.api}/anime/1`)).json();
  expect(Object.keys(one)).toEqual(['data']);
  expect(one.data.attributes.canonicalTitle).toBe('Cowboy Bebop');
  const missing = await send(`${twin.api}/anime/0`);
  expect(missing.status).toBe(404);
  expect(missing.json()).toEqual((fixture('errors.json') as Record<string, unknown>)['404 record not found (captured)']);
  const bad = await send(`${twin.api}/anime/abc`);
  expect(bad.status).toBe(400);
  expect(bad.json()).toEqual({ errors: [{ title: 'Invalid field value', detail: 'abc is not a valid value for id.', code: '103', status: '400' }] });
});

test('deprecated relationships are empty and marked, and including them yields nothing', async () => {
  const body = (await send(`${twin.api}/anime/1?include=genres,castings`)).json();
  for (const [name, replacedBy] of Object.entries(DEPRECATED_RELATIONSHIPS)) {
    if (name.startsWith('manga')) {
      expect(body.data.relationships, name).not.toHaveProperty(name);
      continue;
    }
    expect(body.data.relationships[name], name).toEqual({
      links: { self: `${twin.api}/anime/1/relationships/${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, related: expect.any(String) },
      data: [],
      meta: { deprecated: true, replacedBy },
    });
  }
  expect(body.included).toBeUndefined();
  const manga = (await send(`${twin.api}/manga/1`)).json();
  expect(manga.data.relationships.mangaCharacters.meta).toEqual({ deprecated: true, replacedBy: 'characters' });
  expect(manga.data.relationships).not.toHaveProperty('animeStaff');
});

test('include: dotted paths add linkage and included resources once; bad names are 400 Invalid field', async () => {
  const body = (await send(`${twin.api}/anime/1?include=categories,mediaRelationships.destination,episodes`)).json();
  expect(Object.keys(body)).toEqual(['data', 'included']);
  const categories = body.data.relationships.categories.data as { type: string; id: string }[];
  expect(categories.length).toBeGreaterThan(0);
  expect(body.data.relationships.episodes.data).toHaveLength(MEDIA_SEED.animeWithEpisodes.episodes);
  const keys = (body.included as { type: string; id: string }[]).map((resource) => `${resource.type}:${resource.id}`);
  expect(new Set(keys).size, 'no duplicates').toBe(keys.length);
  expect(keys).toContain('anime:2');
  expect(keys).toContain(`categories:${categories[0]?.id}`);
  const relationship = body.included.find((resource: { type: string }) => resource.type === 'mediaRelationships');
  expect(relationship.relationships.destination.data).toEqual({ type: 'anime', id: '2' });
  const bad = await send(`${twin.api}/anime?include=media_relationships.nope`);
  expect(bad.status).toBe(400);
  expect(bad.json().errors[0]).toMatchObject({ title: 'Invalid field', code: '112' });
});

test('sparse fieldsets, filters and sort over HTTP', async () => {
  const sparse = (await send(`${twin.api}/anime?fields[anime]=slug,titles&page[limit]=1`)).json();
  expect(Object.keys(sparse.data[0].attributes)).toEqual(['slug', 'titles']);
  expect(sparse.data[0].relationships).toBeUndefined();
  const finished = (await send(`${twin.api}/anime?filter[status]=finished&filter[subtype]=TV,movie&page[limit]=20`)).json();
  for (const anime of finished.data) {
    expect(anime.attributes.status).toBe('finished');
    expect(['TV', 'movie']).toContain(anime.attributes.subtype);
  }
  const rated = (await send(`${twin.api}/anime?filter[averageRating]=80..&sort=-averageRating,startDate&page[limit]=20`)).json();
  const ratings = rated.data.map((anime: { attributes: { averageRating: string } }) => Number(anime.attributes.averageRating));
  expect(ratings.every((rating: number) => rating >= 80)).toBe(true);
  expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
  const bySlug = (await send(`${twin.api}/anime?filter[slug]=cowboy-bebop`)).json();
  expect(bySlug.data.map((anime: { id: string }) => anime.id)).toEqual(['1']);
  const text = (await send(`${twin.api}/anime?filter[text]=bebop`)).json();
  expect(text.meta.count).toBe(2);
  const none = (await send(`${twin.api}/anime?filter[endDate]=x`)).json();
  expect(none.errors[0]).toMatchObject({ title: 'Filter not allowed', detail: 'endDate is not allowed.', code: '102' });
  const sort = await send(`${twin.api}/anime?sort=-popularity`);
  expect(sort.json().errors[0]).toEqual({
    title: 'Invalid sort criteria',
    detail: 'popularity is not a valid sort criteria for anime',
    code: '114',
    status: '400',
  });
  const season = (await send(`${twin.api}/anime?filter[season]=spring&filter[seasonYear]=1998`)).json();
  expect(season.data.map((anime: { id: string }) => anime.id)).toEqual(['1', '3']);
});

test('library entries: 400 No filter provided without a filter; statusCounts; show is exempt', async () => {
  const unfiltered = await send(`${twin.api}/library-entries`);
  expect(unfiltered.status).toBe(400);
  expect(unfiltered.json()).toEqual({ errors: [{ status: 400, detail: 'No filter provided' }] });
  const entries = (await send(`${twin.api}/library-entries?filter[user_id]=${MEDIA_SEED.users.adultAllowed.id}`)).json();
  expect(Object.keys(entries.meta)).toEqual(['statusCounts', 'count']);
  expect(entries.meta.count).toBe(MEDIA_SEED.aliceLibraryEntryIds.length);
  expect(Object.keys(entries.meta.statusCounts)).toEqual(['current', 'planned', 'completed', 'onHold', 'dropped']);
  expect(Object.values(entries.meta.statusCounts as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(entries.meta.count);
  expect((await send(`${twin.api}/library-entries/1`)).status).toBe(200);
  expect((await send(`${twin.api}/users/1/library-entries`)).status, 'a related route is exempt').toBe(200);
});

test('related and relationship routes resolve the links documents hand out', async () => {
  const episodes = (await send(`${twin.api}/anime/1/episodes?page[limit]=5`)).json();
  expect(episodes.meta.count).toBe(MEDIA_SEED.animeWithEpisodes.episodes);
  expect(episodes.data).toHaveLength(5);
  const media = (await send(`${twin.api}/episodes/1/media`)).json();
  expect(media.data).toMatchObject({ type: 'anime', id: '1' });
  const linkage = (await send(`${twin.api}/anime/1/relationships/streaming-links`)).json();
  expect(linkage.data).toHaveLength(MEDIA_SEED.animeWithEpisodes.streamingLinks);
  const chapters = (await send(`${twin.api}/manga/1/chapters`)).json();
  expect(chapters.meta.count).toBe(MEDIA_SEED.mangaWithChapters.chapters);
  const deprecated = (await send(`${twin.api}/anime/1/genres`)).json();
  expect(deprecated).toMatchObject({ data: [], meta: { count: 0, deprecated: true, replacedBy: 'categories' } });
});

test('users: private members only to the user; filter[self] as the npm client sends it', async () => {
  const user = (await send(`${twin.api}/users/1`)).json();
  expect(user.data.attributes.name).toBe('alice');
  expect(user.data.attributes).not.toHaveProperty('email');
  expect(user.data.attributes).not.toHaveProperty('password');
  expect((await send(`${twin.api}/users?filter[self]=true`)).json().meta.count, 'anonymous: no self').toBe(0);
  expect((await send(`${twin.api}/users?filter[name]=ALICE`)).json().data[0].id).toBe('1');
});
