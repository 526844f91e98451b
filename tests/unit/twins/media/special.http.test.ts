import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { MEDIA_SEED } from '../../../../src/twins/media/seedFacts.ts';
import { JSON_API, control, send, signIn, startTestTwin, type TestTwin } from './mediaHttp.ts';

let twin: TestTwin;
let alice: string;
let bob: string;
let carol: string;

test.beforeAll(async () => {
  twin = await startTestTwin();
});
// Each test starts from the seed; a reset forgets tokens, so sign in again.
test.beforeEach(async () => {
  await control(twin.twin.url, 'POST', '/reset');
  alice = await signIn(twin.twin.url, MEDIA_SEED.users.adultAllowed.name, MEDIA_SEED.users.adultAllowed.password);
  bob = await signIn(twin.twin.url, MEDIA_SEED.users.adultFiltered.name, MEDIA_SEED.users.adultFiltered.password);
  carol = await signIn(twin.twin.url, MEDIA_SEED.users.other.name, MEDIA_SEED.users.other.password);
});
test.afterAll(async () => {
  await twin.twin.close();
  expect(twin.internalErrors, 'no request reached the 500 fallback').toEqual([]);
});

const mustBeLoggedIn = { errors: [{ status: 403, detail: 'Must be logged in' }] };
const invalidNamespace = { errors: [{ status: 400, detail: 'Invalid namespace' }] };

test('trending: {data} only for anime and manga; other namespaces 400 Invalid namespace', async () => {
  const anime = await send(`${twin.api}/trending/anime`);
  expect(anime.status).toBe(200);
  expect(Object.keys(anime.json())).toEqual(['data']);
  expect(anime.json().data).toHaveLength(10);
  expect((await send(`${twin.api}/trending/manga?limit=3`)).json().data.map((manga: { type: string }) => manga.type)).toEqual(['manga', 'manga', 'manga']);
  const drama = await send(`${twin.api}/trending/drama`);
  expect(drama.status).toBe(400);
  expect(drama.json()).toEqual(invalidNamespace);
  expect((await send(`${twin.api}/trending/anime?limit=0`)).status).toBe(400);
});

test('recommendations and category recommendations: signed in only, media outside the library', async () => {
  for (const path of [
    '/recommendations/anime',
    '/recommendations/anime/realtime',
    '/category_recommendations/manga',
    '/category_recommendations/manga/realtime',
  ]) {
    const anonymous = await send(`${twin.api}${path}`);
    expect(anonymous.status, path).toBe(403);
    expect(anonymous.json()).toEqual(mustBeLoggedIn);
    const signedIn = await send(`${twin.api}${path}`, { token: alice });
    expect(signedIn.status, path).toBe(200);
    expect(Object.keys(signedIn.json())).toEqual(['data']);
    expect(signedIn.json().data.length, path).toBeGreaterThan(0);
  }
  const recommended = (await send(`${twin.api}/recommendations/anime`, { token: alice })).json().data.map((anime: { id: string }) => anime.id);
  for (const inLibrary of ['1', '3', '11', MEDIA_SEED.adultLibraryEntry.animeId]) expect(recommended).not.toContain(inLibrary);
  const forBob = (await send(`${twin.api}/recommendations/anime`, { token: bob })).json().data.map((anime: { id: string }) => anime.id);
  for (const id of MEDIA_SEED.adultAnimeIds) expect(forBob).not.toContain(id);
  expect((await send(`${twin.api}/recommendations/books`, { token: alice })).json()).toEqual(invalidNamespace);
});

test('feeds: an activity-group document with activities included and cursor pagination', async () => {
  const page = await send(`${twin.api}/feeds/global/global?page[limit]=2&include=actor`);
  expect(page.status).toBe(200);
  const body = page.json();
  expect(Object.keys(body)).toEqual(['data', 'included', 'meta', 'links']);
  expect(body.data).toHaveLength(2);
  expect(body.data[0]).toMatchObject({ type: 'activityGroups', attributes: { activityCount: 1, isRead: false } });
  const types = new Set(body.included.map((resource: { type: string }) => resource.type));
  expect(types).toEqual(new Set(['activities', 'users']));
  expect(body.links.next).toContain(`page%5Bcursor%5D=${encodeURIComponent(body.data[1].id)}`);
  const next = (await send(body.links.next)).json();
  expect(next.data[0].id).not.toBe(body.data[0].id);
  expect(next.data.map((group: { id: string }) => group.id)).not.toContain(body.data[1].id);
  expect((await send(`${twin.api}/feeds/global/global?page[cursor]=nope`)).json().errors[0].title).toBe('Invalid page value');
  const media = (await send(`${twin.api}/feeds/media/Anime-1`)).json();
  expect(media.data.length).toBeGreaterThan(0);
  expect((await send(`${twin.api}/feeds/user/2`)).status).toBe(200);
  expect((await send(`${twin.api}/feeds/user_aggr/2`)).status).toBe(200);
  expect((await send(`${twin.api}/feeds/group/${MEDIA_SEED.groupId}`)).json().data).toHaveLength(1);
});

test('feeds: owner-only feeds answer 403 for others; notifications aggregate follows and comments', async () => {
  const forbidden = { errors: [{ status: 403, detail: 'Not allowed to access that feed' }] };
  for (const [path, token] of [
    ['/feeds/notifications/1', undefined],
    ['/feeds/notifications/1', bob],
    ['/feeds/timeline/1', bob],
    ['/feeds/nope/1', alice],
    ['/feeds/user/999', alice],
    ['/feeds/media/Drama-1', alice],
  ] as const) {
    const answer = await send(`${twin.api}${path}`, token ? { token } : {});
    expect(answer.status, path).toBe(403);
    expect(answer.json()).toEqual(forbidden);
  }
  const notifications = (await send(`${twin.api}/feeds/notifications/1?include=activities.actor`, { token: alice })).json();
  const verbs = notifications.included
    .filter((resource: { type: string }) => resource.type === 'activities')
    .map((activity: { attributes: { verb: string } }) => activity.attributes.verb);
  expect(verbs).toContain('follow');
  expect(verbs).toContain('comment');
  expect(notifications.meta.unreadCount).toBe(notifications.meta.count);
  expect((await send(`${twin.api}/feeds/timeline/1`, { token: alice })).status).toBe(200);
});

test('feeds: _read and _seen mark groups for the viewer (200); signed in only', async () => {
  expect((await send(`${twin.api}/feeds/notifications/1/_read`, { method: 'POST' })).status).toBe(403);
  const groups = (await send(`${twin.api}/feeds/notifications/1`, { token: alice })).json().data as { id: string }[];
  const first = groups[0]?.id ?? '';
  const seen = await send(`${twin.api}/feeds/notifications/1/_seen`, { method: 'POST', token: alice, json: [first] });
  expect(seen.status).toBe(200);
  expect(seen.json().data).toEqual([expect.objectContaining({ id: first, attributes: expect.objectContaining({ isSeen: true, isRead: false }) })]);
  const read = await send(`${twin.api}/feeds/notifications/1/_read`, { method: 'POST', token: alice });
  expect(read.status).toBe(200);
  expect(read.json().data.every((group: { attributes: { isRead: boolean } }) => group.attributes.isRead)).toBe(true);
  expect((await send(`${twin.api}/feeds/notifications/1`, { token: alice })).json().meta.unreadCount).toBe(0);
  expect((await send(`${twin.api}/feeds/notifications/1/_read`, { method: 'POST', token: alice, json: { not: 'a list' } })).status).toBe(400);
});

test('feeds and activities: deleting an activity (204) is for its owner; others 403; unknown 404', async () => {
  const activity = '00000000-0000-4000-8000-000000000002'; // bob's post in group 1
  expect((await send(`${twin.api}/feeds/user/2/activities/${activity}`, { method: 'DELETE', token: carol })).status).toBe(403);
  expect((await send(`${twin.api}/feeds/user/2/activities/${activity}`, { method: 'DELETE', token: bob })).status).toBe(204);
  expect((await send(`${twin.api}/feeds/user/2/activities/${activity}`, { method: 'DELETE', token: bob })).status).toBe(404);
  const alicePost = '00000000-0000-4000-8000-000000000001';
  const refused = await send(`${twin.api}/activities/${alicePost}`, { method: 'DELETE', token: bob });
  expect(refused.status).toBe(403);
  expect(refused.json().errors[0].title).toBe('Destroy Forbidden');
  expect((await send(`${twin.api}/activities/${alicePost}`, { method: 'DELETE', token: alice })).status).toBe(204);
  expect((await send(`${twin.api}/activities/${alicePost}`, { method: 'DELETE', token: alice })).status).toBe(404);
});

test('embeds: 201 with an embed document; a catalogue link is described from the catalogue', async () => {
  const embed = await send(`${twin.api}/embeds`, { method: 'POST', json: { url: 'https://kitsu.app/anime/cowboy-bebop' } });
  expect(embed.status).toBe(201);
  expect(embed.json().data).toMatchObject({ type: 'embeds', attributes: { title: 'Cowboy Bebop', url: 'https://kitsu.app/anime/cowboy-bebop' } });
  const link = await send(`${twin.api}/embeds`, { method: 'POST', json: { data: { type: 'embeds', attributes: { url: 'https://example.test/x' } } } });
  expect(link.json().data.attributes).toMatchObject({ kind: 'link', title: 'example.test' });
  expect((await send(`${twin.api}/embeds`, { method: 'POST', json: { url: 'ftp://x' } })).status).toBe(422);
  expect((await send(`${twin.api}/embeds`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"url":"https://x.test"}' })).status).toBe(
    415,
  );
});

test('group invites: the invitee accepts (201 {}) or declines (200 {}); leaders revoke (200 {}); others 403; settled 409', async () => {
  const [first, second, third] = MEDIA_SEED.pendingInviteIds;
  const post = (id: string, action: string, token?: string) =>
    send(`${twin.api}/group-invites/${id}/${action}`, { method: 'POST', ...(token ? { token } : {}) });
  expect((await post(first, '_accept')).json()).toEqual(mustBeLoggedIn);
  expect((await post(first, '_accept', bob)).status, 'bob is not the invitee').toBe(403);
  const accepted = await post(first, '_accept', carol);
  expect(accepted.status).toBe(201);
  expect(accepted.json()).toEqual({});
  expect(accepted.headers['content-type']).toBe(JSON_API);
  const members = (await send(`${twin.api}/group-members?filter[groupId]=${MEDIA_SEED.groupId}&filter[userId]=${MEDIA_SEED.users.other.id}`)).json();
  expect(members.meta.count).toBe(1);
  const again = await post(first, '_accept', carol);
  expect(again.status).toBe(409);
  expect(again.json().errors[0]).toMatchObject({ title: 'Invite not pending', status: '409' });
  expect((await post(second, '_revoke', bob)).status, 'bob is a plain member of group 1').toBe(403);
  expect((await post(second, '_revoke', carol)).status, 'the invitee does not revoke').toBe(403);
  const declined = await post(second, '_decline', carol);
  expect(declined.status).toBe(200);
  expect(declined.json()).toEqual({});
  expect((await post(third, '_revoke', bob)).status, 'bob does not lead group 1').toBe(403);
  const revoked = await post(third, '_revoke', alice);
  expect(revoked.status).toBe(200);
  expect(revoked.json()).toEqual({});
  const invite = (await send(`${twin.api}/group-invites/${third}`, { token: alice })).json();
  expect(invite.data.attributes.revokedAt).not.toBeNull();
  expect((await post('999', '_accept', carol)).status).toBe(404);
  expect((await post('abc', '_accept', carol)).status).toBe(400);
});

test('groups: _stats for leaders under meta, _read answers {}', async () => {
  const leader = (await send(`${twin.api}/groups/${MEDIA_SEED.groupId}/_stats`, { token: alice })).json();
  expect(leader.meta.total).toMatchObject({ members: 2, openReports: 1, openTickets: 1 });
  expect(leader.meta.today).toMatchObject({ members: 0, posts: 0, comments: 0 });
  expect((await send(`${twin.api}/groups/${MEDIA_SEED.groupId}/_stats`, { token: bob })).json()).toEqual({ meta: { today: {}, total: {} } });
  const read = await send(`${twin.api}/groups/${MEDIA_SEED.groupId}/_read`, { method: 'POST', token: bob });
  expect(read.status).toBe(200);
  expect(read.json()).toEqual({});
  const member = (await send(`${twin.api}/group-members?filter[groupId]=${MEDIA_SEED.groupId}&filter[userId]=2`)).json();
  expect(member.data[0].attributes.unreadCount).toBe(0);
  expect((await send(`${twin.api}/groups/999/_stats`)).status).toBe(404);
});

test('library entries: _issues for the viewer, _bulk update and delete by filter[id] or filter[userId], owner only', async () => {
  expect((await send(`${twin.api}/library-entries/_issues`)).json()).toEqual(mustBeLoggedIn);
  const issues = (await send(`${twin.api}/library-entries/_issues`, { token: alice })).json();
  expect(issues.meta.ratingIds).toEqual(['3', '4', '6']);
  expect(issues.meta.reactionIds).not.toContain('1');
  const body = { data: { type: 'libraryEntries', attributes: { status: 'completed' } } };
  expect((await send(`${twin.api}/library-entries/_bulk`, { method: 'PATCH', token: alice, json: body })).json()).toEqual({
    errors: [{ status: 400, detail: 'No filter provided' }],
  });
  const notOwner = await send(`${twin.api}/library-entries/_bulk?filter[id]=1,7`, { method: 'PATCH', token: alice, json: body });
  expect(notOwner.status).toBe(403);
  expect(notOwner.json().errors[0].title).toBe('Update Forbidden');
  const updated = await send(`${twin.api}/library-entries/_bulk?filter[id]=1,2`, { method: 'PUT', token: alice, json: body });
  expect(updated.status).toBe(200);
  expect(updated.json().data.map((entry: { attributes: { status: string } }) => entry.attributes.status)).toEqual(['completed', 'completed']);
  const invalid = await send(`${twin.api}/library-entries/_bulk?filter[id]=1`, {
    method: 'PATCH',
    token: alice,
    json: { data: { type: 'libraryEntries', attributes: { status: 'nope' } } },
  });
  expect(invalid.status).toBe(422);
  expect((await send(`${twin.api}/library-entries/_bulk?filter[userId]=1`, { method: 'DELETE', token: bob })).status).toBe(403);
  expect((await send(`${twin.api}/library-entries/_bulk?filter[user_id]=1`, { method: 'DELETE', token: alice })).status).toBe(204);
  expect((await send(`${twin.api}/library-entries?filter[userId]=1`)).json().meta.count).toBe(0);
});

test('search keys: all, and one by action; an unknown action is 404', async () => {
  const all = (await send(`${twin.api}/search-keys`)).json();
  expect(all.data.map((key: { id: string }) => key.id)).toContain('media');
  const one = (await send(`${twin.api}/search-keys/media`, { token: alice })).json();
  expect(one.data).toMatchObject({ id: 'media', type: 'searchKeys', attributes: { key: 'twin-search-key-media-user-1', index: 'twin_media' } });
  expect((await send(`${twin.api}/search-keys/nope`)).status).toBe(404);
});

test('uploads: _bulk creates several (201 collection), signed in only, all checked first', async () => {
  const data = [
    { type: 'uploads', attributes: { content: 'data:image/png;base64,iVBORw0KGgo=', uploadOrder: 0 } },
    { type: 'uploads', attributes: { content: 'https://example.test/b.jpg', uploadOrder: 1 } },
  ];
  expect((await send(`${twin.api}/uploads/_bulk`, { method: 'POST', json: { data } })).status).toBe(403);
  const created = await send(`${twin.api}/uploads/_bulk`, { method: 'POST', token: alice, json: { data } });
  expect(created.status).toBe(201);
  const uploads = created.json().data;
  expect(uploads).toHaveLength(2);
  expect(uploads[0].attributes.content.original).toMatch(/^https:\/\/media\.twin\.test\/uploads\/\d+\/original\.png$/);
  const before = (await send(`${twin.api}/uploads`)).json().meta.count;
  const invalid = await send(`${twin.api}/uploads/_bulk`, {
    method: 'POST',
    token: alice,
    json: { data: [data[0], { type: 'uploads', attributes: { content: 'not a url' } }] },
  });
  expect(invalid.status).toBe(422);
  expect((await send(`${twin.api}/uploads`)).json().meta.count, 'nothing saved').toBe(before);
});
