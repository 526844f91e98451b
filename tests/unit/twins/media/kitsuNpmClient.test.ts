/**
 * The real npm client of the service (`kitsu`), pointed at the media twin: it
 * lists, filters, includes, pages through and fetches single anime and library
 * entries, and receives JSON:API errors it understands.
 */
import { expect, test } from '../../../../src/testing/harnessTest.ts';
import Kitsu from 'kitsu';
import { startMediaTwin } from '../../../../src/twins/media/server.ts';
import { MEDIA_SEED } from '../../../../src/twins/media/seedFacts.ts';
import { MEDIA_CONTRACT } from '../../../../src/rules/mediaContract.ts';

interface KitsuAnswer {
  data: { id: string; type: string; canonicalTitle?: string; categories?: { data?: unknown[] }; anime?: { data?: { id: string } | null } } & Record<
    string,
    unknown
  >;
  meta?: { count?: number };
  links?: { next?: string };
}

let twin: Awaited<ReturnType<typeof startMediaTwin>>;
let api: InstanceType<typeof Kitsu>;

test.beforeAll(async () => {
  twin = await startMediaTwin({ port: 0 });
  api = new Kitsu({ baseURL: `${twin.url}${MEDIA_CONTRACT.edgePrefix}` });
});

test.afterAll(async () => {
  await twin.close();
});

test('lists anime with a filter, an include and a page, and reads meta and links', async () => {
  const res = (await api.get('anime', { params: { filter: { subtype: 'TV' }, include: 'categories', page: { limit: 5, offset: 0 } } })) as unknown as {
    data: KitsuAnswer['data'][];
    meta: { count: number };
    links: { next?: string };
  };
  expect(res.data.length).toBe(5);
  expect(res.data.every((a) => a.type === 'anime' && typeof a.id === 'string')).toBe(true);
  expect(res.meta.count).toBeGreaterThan(5);
  expect(res.links.next).toContain('page%5Boffset%5D=5');
  expect(Array.isArray(res.data[0]!.categories?.data)).toBe(true);
});

test('pages through every anime by offset', async () => {
  const seen = new Set<string>();
  let count = Infinity;
  for (let offset = 0; offset < count; offset += 20) {
    const page = (await api.get('anime', { params: { page: { limit: 20, offset } } })) as unknown as { data: { id: string }[]; meta: { count: number } };
    count = page.meta.count;
    for (const a of page.data) seen.add(a.id);
  }
  expect(seen.size).toBe(MEDIA_SEED.animeCount - MEDIA_SEED.adultAnimeIds.length);
});

test('fetches one anime and one library entry with its anime', async () => {
  const anime = (await api.get('anime/1')) as unknown as KitsuAnswer;
  expect(anime.data.id).toBe('1');
  expect(typeof anime.data.canonicalTitle).toBe('string');
  const entry = (await api.get(`libraryEntries/${MEDIA_SEED.aliceLibraryEntryIds[0]}`, { params: { include: 'anime' } })) as unknown as KitsuAnswer;
  expect(entry.data.type).toBe('libraryEntries');
  expect(entry.data.anime?.data?.id).toBeTruthy();
  const adult = (await api.get(`libraryEntries/${MEDIA_SEED.adultLibraryEntry.id}`, { params: { include: 'anime' } })) as unknown as KitsuAnswer;
  expect(adult.data.anime?.data ?? null).toBeNull();
});

test('receives JSON:API errors it understands', async () => {
  const error = (await api.get('anime/0').then(
    () => undefined,
    (e: unknown) => e,
  )) as { errors?: { title?: string; status?: string }[] } | undefined;
  expect(error?.errors?.[0]).toMatchObject({ title: 'Record not found', status: '404' });
  const bad = (await api.get('anime', { params: { page: { limit: 21 } } }).then(
    () => undefined,
    (e: unknown) => e,
  )) as { errors?: { title?: string }[] } | undefined;
  expect(bad?.errors?.[0]?.title).toBe('Invalid page value');
});
