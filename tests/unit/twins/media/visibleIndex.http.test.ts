/**
 * The media twin keeps each viewer's visible, filtered, sorted records of a
 * plain index until a write (src/twins/media/visibleIndex.ts, kept in the
 * render cache): a list answered from it must be the bytes a freshly computed
 * one is, be each viewer's own, and never outlive a write.
 */
import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { MEDIA_SEED } from '../../../../src/twins/media/seedFacts.ts';
import { control, send, signIn, startTestTwin, type TestTwin } from './mediaHttp.ts';

let twin: TestTwin;
const { adultAllowed } = MEDIA_SEED.users;
const adultAnime = MEDIA_SEED.adultAnimeIds;

/** Empties every cache the twin keeps: a reset is a write. */
async function reset(): Promise<void> {
  await control(twin.twin.url, 'POST', '/reset');
}

async function aliceToken(): Promise<string> {
  return signIn(twin.twin.url, adultAllowed.name, adultAllowed.password);
}

test.beforeAll(async () => {
  twin = await startTestTwin();
});
test.beforeEach(reset);
test.afterAll(async () => {
  await twin.twin.close();
  expect(twin.internalErrors, 'no request reached the 500 fallback').toEqual([]);
});

const LISTS = [
  '/anime',
  '/anime?sort=-averageRating,canonicalTitle',
  '/anime?filter[ageRating]=PG,R18&page[limit]=4&page[offset]=3',
  '/anime?filter[text]=cowboy&include=categories',
  '/manga?sort=-userCount&fields[manga]=slug',
  `/library-entries?filter[userId]=${adultAllowed.id}&sort=-progress`,
];

test('a list answered from the kept index is byte for byte the freshly computed one', async () => {
  const alice = await aliceToken();
  for (const token of [undefined, alice]) {
    const as = token === undefined ? {} : { token };
    for (const list of LISTS) {
      await reset();
      const fresh = await send(`${twin.api}${list}`, as);
      expect(fresh.status, list).toBe(200);
      expect((await send(`${twin.api}${list}`, as)).text, `${list}, asked again`).toBe(fresh.text);
    }
  }
});

test('another page of the same list comes from the same index and is the page a fresh one gives', async () => {
  const second = `${twin.api}/anime?page[limit]=10&page[offset]=10`;
  const fresh = await send(second);
  await reset();
  await send(`${twin.api}/anime?page[limit]=10&page[offset]=0`);
  const kept = await send(second);
  expect(kept.text).toBe(fresh.text);
  const head = await send(second, { method: 'HEAD' });
  expect(head.headers['content-length']).toBe(String(Buffer.byteLength(fresh.text)));
});

test('each viewer gets their own index: adult titles only for those who allow them', async () => {
  const alice = await aliceToken();
  const ids = async (token?: string): Promise<string[]> =>
    (await send(`${twin.api}/anime?page[limit]=20&sort=id`, token === undefined ? {} : { token })).json<{ data: { id: string }[] }>().data.map((a) => a.id);
  // Asked in turn, so each answer after the first two comes from a kept index.
  for (let round = 0; round < 2; round += 1) {
    expect(await ids()).not.toContain(adultAnime[0]);
    expect(await ids(alice)).toContain(adultAnime[0]);
  }
});

test('a write shows in the next list: an entry made private leaves the anonymous list, a new post joins it', async () => {
  const alice = await aliceToken();
  const entries = `${twin.api}/library-entries?filter[userId]=${adultAllowed.id}`;
  const entryIds = async (token?: string): Promise<string[]> =>
    (await send(entries, token === undefined ? {} : { token })).json<{ data: { id: string }[] }>().data.map((e) => e.id);
  const entry = MEDIA_SEED.aliceLibraryEntryIds[0];
  expect(await entryIds()).toContain(entry);
  const patched = await send(`${twin.api}/library-entries/${entry}`, {
    method: 'PATCH',
    token: alice,
    json: { data: { id: entry, type: 'libraryEntries', attributes: { private: true } } },
  });
  expect(patched.status).toBe(200);
  expect(await entryIds(), 'the same anonymous list, right after the write').not.toContain(entry);
  expect(await entryIds(alice), 'the owner still sees it').toContain(entry);

  const posts = `${twin.api}/posts?sort=-id`;
  const before = (await send(posts)).json<{ meta: { count: number } }>().meta.count;
  const post = await send(`${twin.api}/posts`, {
    method: 'POST',
    token: alice,
    json: { data: { type: 'posts', attributes: { content: 'Kept index' }, relationships: { user: { data: { type: 'users', id: adultAllowed.id } } } } },
  });
  expect(post.status).toBe(201);
  const after = (await send(posts)).json<{ data: { id: string }[]; meta: { count: number } }>();
  expect(after.meta.count).toBe(before + 1);
  expect(after.data[0]?.id).toBe(post.json<{ data: { id: string } }>().data.id);
});
