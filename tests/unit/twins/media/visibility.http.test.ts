import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { MEDIA_SEED } from '../../../../src/twins/media/seedFacts.ts';
import { send, signIn, startTestTwin, type TestTwin } from './mediaHttp.ts';

let twin: TestTwin;
let alice: string;
let bob: string;

test.beforeAll(async () => {
  twin = await startTestTwin();
  alice = await signIn(twin.twin.url, MEDIA_SEED.users.adultAllowed.email, MEDIA_SEED.users.adultAllowed.password);
  bob = await signIn(twin.twin.url, MEDIA_SEED.users.adultFiltered.name, MEDIA_SEED.users.adultFiltered.password);
});
test.afterAll(async () => {
  await twin.twin.close();
  expect(twin.internalErrors, 'no request reached the 500 fallback').toEqual([]);
});

const adultAnime: readonly string[] = MEDIA_SEED.adultAnimeIds;
const entry = MEDIA_SEED.adultLibraryEntry;

test('adult anime are 404 Record not found for anonymous viewers and for users with sfwFilter on, visible to alice', async () => {
  for (const id of adultAnime) {
    for (const [who, token] of [
      ['anonymous', undefined],
      ['bob', () => bob],
    ] as const) {
      const answer = await send(`${twin.api}/anime/${id}`, token ? { token: token() } : {});
      expect(answer.status, `${who} GET /anime/${id}`).toBe(404);
      expect(answer.json().errors[0]).toEqual({
        title: 'Record not found',
        detail: `The record identified by ${id} could not be found.`,
        code: '404',
        status: '404',
      });
    }
    expect((await send(`${twin.api}/anime/${id}`, { token: alice })).json().data.attributes.ageRating).toBe('R18');
  }
  for (const id of MEDIA_SEED.adultMangaIds) expect((await send(`${twin.api}/manga/${id}`)).status).toBe(404);
});

test('adult titles are left out of lists and meta.count, filters included', async () => {
  const count = async (query: string, token?: string): Promise<number> => (await send(`${twin.api}/anime?${query}`, token ? { token } : {})).json().meta.count;
  expect(await count('')).toBe(MEDIA_SEED.animeCount - adultAnime.length);
  expect(await count('', bob)).toBe(MEDIA_SEED.animeCount - adultAnime.length);
  expect(await count('', alice)).toBe(MEDIA_SEED.animeCount);
  expect(await count(`filter[id]=${adultAnime.join(',')}`)).toBe(0);
  expect(await count('filter[ageRating]=R18')).toBe(0);
  expect(await count('filter[ageRating]=R18', alice)).toBe(adultAnime.length);
  const ids = new Set<string>();
  for (let offset = 0; offset < MEDIA_SEED.animeCount; offset += 20) {
    for (const anime of (await send(`${twin.api}/anime?page[limit]=20&page[offset]=${offset}`)).json().data) ids.add(anime.id);
  }
  for (const id of adultAnime) expect(ids.has(id), `anime ${id} listed`).toBe(false);
  const trending = (await send(`${twin.api}/trending/anime?limit=20`)).json().data.map((anime: { id: string }) => anime.id);
  for (const id of adultAnime) expect(trending).not.toContain(id);
});

test('a library entry on an adult title: include=anime (or media) gives data null and nothing included, also with anime.categories', async () => {
  for (const include of ['anime', 'media', 'anime,anime.categories', 'media.categories,anime.episodes']) {
    for (const token of [undefined, bob]) {
      const answer = await send(`${twin.api}/library-entries/${entry.id}?include=${include}`, token ? { token } : {});
      expect(answer.status, include).toBe(200);
      const body = answer.json();
      for (const name of include.split(',').map((path) => path.split('.')[0] ?? '')) {
        expect(body.data.relationships[name].data, `${include}: ${name}`).toBeNull();
      }
      expect(body.included, include).toBeUndefined();
    }
  }
  const shown = (await send(`${twin.api}/library-entries/${entry.id}?include=anime,anime.categories`, { token: alice })).json();
  expect(shown.data.relationships.anime.data).toEqual({ type: 'anime', id: entry.animeId });
  expect(shown.included.map((resource: { type: string }) => resource.type)).toContain('categories');
  const list = (await send(`${twin.api}/library-entries?filter[userId]=${entry.userId}&include=anime`)).json();
  const adultEntry = list.data.find((item: { id: string }) => item.id === entry.id);
  expect(adultEntry.relationships.anime.data).toBeNull();
  expect(list.included.some((resource: { type: string; id: string }) => resource.type === 'anime' && adultAnime.includes(resource.id))).toBe(false);
  expect((await send(`${twin.api}/library-entries/${entry.id}/anime`)).json()).toEqual({ data: null });
});

test('records about adult media are hidden with it: episodes, streaming links, related routes, media feeds', async () => {
  expect((await send(`${twin.api}/episodes?filter[mediaId]=${adultAnime[0]}`)).json().meta.count).toBe(0);
  expect((await send(`${twin.api}/episodes?filter[mediaId]=${adultAnime[0]}`, { token: alice })).json().meta.count).toBeGreaterThan(0);
  expect((await send(`${twin.api}/streaming-links?filter[mediaId]=${adultAnime[0]}`)).json().meta.count).toBe(0);
  expect((await send(`${twin.api}/anime/${adultAnime[0]}/episodes`)).status).toBe(404);
  const relationship = (await send(`${twin.api}/anime/6?include=mediaRelationships.destination`)).json();
  expect(relationship.included.find((resource: { type: string }) => resource.type === 'mediaRelationships').relationships.destination.data).toBeNull();
  expect((await send(`${twin.api}/feeds/media/Anime-${adultAnime[0]}`)).status).toBe(403);
  expect((await send(`${twin.api}/feeds/media/Anime-${adultAnime[0]}`, { token: alice })).status).toBe(200);
});

test('private library entries are seen by their owner only', async () => {
  const all = (await send(`${twin.api}/library-entries?filter[userId]=2`)).json();
  expect(all.data.every((item: { attributes: { private: boolean } }) => !item.attributes.private)).toBe(true);
  const own = (await send(`${twin.api}/library-entries?filter[userId]=2`, { token: bob })).json();
  expect(own.meta.count).toBe(all.meta.count + 1);
});
