/**
 * The media twin answers GETs from resource objects it rendered and keeps
 * until a write (src/twins/serving/renderCache.ts): a cached answer must be the
 * same bytes as a fresh one, differ by who asks, and never outlive a write.
 */
import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { MEDIA_SEED } from '../../../../src/twins/media/seedFacts.ts';
import { control, send, signIn, startTestTwin, type TestTwin } from './mediaHttp.ts';

let twin: TestTwin;
let alice: string;
let bob: string;
const { adultAllowed, adultFiltered } = MEDIA_SEED.users;

test.beforeAll(async () => {
  twin = await startTestTwin();
});
test.beforeEach(async () => {
  await control(twin.twin.url, 'POST', '/reset');
  alice = await signIn(twin.twin.url, adultAllowed.name, adultAllowed.password);
  bob = await signIn(twin.twin.url, adultFiltered.name, adultFiltered.password);
});
test.afterAll(async () => {
  await twin.twin.close();
  expect(twin.internalErrors, 'no request reached the 500 fallback').toEqual([]);
});

test('a cached answer is byte for byte the fresh one', async () => {
  const fresh = await send(`${twin.api}/anime`);
  expect(fresh.status).toBe(200);
  expect((await send(`${twin.api}/anime`)).text).toBe(fresh.text);
  const single = await send(`${twin.api}/anime/${MEDIA_SEED.animeWithEpisodes.id}`);
  expect((await send(`${twin.api}/anime/${MEDIA_SEED.animeWithEpisodes.id}`)).text).toBe(single.text);
  const head = await send(`${twin.api}/anime`, { method: 'HEAD' });
  expect(head.headers['content-length']).toBe(String(Buffer.byteLength(fresh.text)));
});

test('each viewer gets their own rendering: owner-only fields go to the owner alone', async () => {
  const url = `${twin.api}/users/${adultAllowed.id}`;
  const asAlice = await send(url, { token: alice });
  const asBob = await send(url, { token: bob });
  const anonymous = await send(url);
  expect(asAlice.json<{ data: { attributes: Record<string, unknown> } }>().data.attributes['email']).toBe(adultAllowed.email);
  expect(asBob.json<{ data: { attributes: Record<string, unknown> } }>().data.attributes).not.toHaveProperty('email');
  expect(anonymous.json<{ data: { attributes: Record<string, unknown> } }>().data.attributes).not.toHaveProperty('email');
  // Asked again in the other order, from the cache.
  expect((await send(url)).text).toBe(anonymous.text);
  expect((await send(url, { token: alice })).text).toBe(asAlice.text);
});

test('an update shows in the next single and list answer', async () => {
  const entry = MEDIA_SEED.adultLibraryEntry.id;
  const url = `${twin.api}/library-entries/${entry}`;
  const listUrl = `${twin.api}/library-entries?filter[userId]=${adultAllowed.id}`;
  await send(url, { token: alice });
  await send(listUrl, { token: alice });
  const patched = await send(url, {
    method: 'PATCH',
    token: alice,
    json: { data: { id: entry, type: 'libraryEntries', attributes: { progress: 1, notes: 'seen one' } } },
  });
  expect(patched.status).toBe(200);
  expect((await send(url, { token: alice })).json<{ data: { attributes: Record<string, unknown> } }>().data.attributes).toMatchObject({
    progress: 1,
    notes: 'seen one',
  });
  const listed = (await send(listUrl, { token: alice })).json<{ data: { id: string; attributes: Record<string, unknown> }[] }>().data;
  expect(listed.find((e) => e.id === entry)?.attributes['notes']).toBe('seen one');
});

test("a write to one record changes another's rendering: a like counts in the post's answer", async () => {
  const user = { data: { type: 'users', id: adultAllowed.id } };
  const post = await send(`${twin.api}/posts`, {
    method: 'POST',
    token: alice,
    json: { data: { type: 'posts', attributes: { content: 'Render cache' }, relationships: { user } } },
  });
  expect(post.status).toBe(201);
  const postId = post.json<{ data: { id: string } }>().data.id;
  const likes = async (): Promise<unknown> =>
    (await send(`${twin.api}/posts/${postId}`, { token: alice })).json<{ data: { attributes: Record<string, unknown> } }>().data.attributes['postLikesCount'];
  expect(await likes()).toBe(0);
  const like = await send(`${twin.api}/post-likes`, {
    method: 'POST',
    token: alice,
    json: { data: { type: 'postLikes', relationships: { post: { data: { type: 'posts', id: postId } }, user } } },
  });
  expect(like.status).toBe(201);
  expect(await likes()).toBe(1);
});
