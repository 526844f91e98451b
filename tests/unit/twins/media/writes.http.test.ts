import { readFileSync } from 'node:fs';
import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { MEDIA_SEED } from '../../../../src/twins/media/seedFacts.ts';
import { JSON_API, control, send, signIn, startTestTwin, type TestTwin } from './mediaHttp.ts';

let twin: TestTwin;
let alice: string;
let bob: string;
let admin: string;

test.beforeAll(async () => {
  twin = await startTestTwin();
});
// Each test starts from the seed; a reset forgets tokens, so sign in again.
test.beforeEach(async () => {
  await control(twin.twin.url, 'POST', '/reset');
  alice = await signIn(twin.twin.url, MEDIA_SEED.users.adultAllowed.name, MEDIA_SEED.users.adultAllowed.password);
  bob = await signIn(twin.twin.url, MEDIA_SEED.users.adultFiltered.name, MEDIA_SEED.users.adultFiltered.password);
  admin = await signIn(twin.twin.url, 'admin', 'admin-password');
});
test.afterAll(async () => {
  await twin.twin.close();
  expect(twin.internalErrors, 'no request reached the 500 fallback').toEqual([]);
});

const errors = JSON.parse(readFileSync(new URL('../../../captured/media/errors.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const newEntry = (animeId: string, status = 'planned') => ({
  data: {
    type: 'libraryEntries',
    attributes: { status },
    relationships: { anime: { data: { type: 'anime', id: animeId } }, user: { data: { type: 'users', id: '1' } } },
  },
});

test('POST creates: 201 with Location and the document; the new entry is listed', async () => {
  const created = await send(`${twin.api}/library-entries`, { method: 'POST', token: alice, json: newEntry('20') });
  expect(created.status).toBe(201);
  expect(created.headers['content-type']).toBe(JSON_API);
  const body = created.json();
  expect(created.headers['location']).toBe(`${twin.api}/library-entries/${body.data.id}`);
  expect(body.data).toMatchObject({ type: 'libraryEntries', attributes: { status: 'planned', progress: 0 } });
  expect((await send(created.headers['location'] ?? '')).json().data.relationships.user.links.related).toContain(`/library-entries/${body.data.id}/user`);
  const listed = (await send(`${twin.api}/library-entries?filter[userId]=1&filter[animeId]=20&include=anime`)).json();
  expect(listed.data.map((entry: { id: string }) => entry.id)).toEqual([body.data.id]);
  expect(listed.included[0]).toMatchObject({ type: 'anime', id: '20' });
});

test('writes need the JSON:API media type (415); bodies are checked (400) before policies (403) before validation (422)', async () => {
  const wrongType = await send(`${twin.api}/library-entries`, {
    method: 'POST',
    token: alice,
    headers: { 'Content-Type': 'application/json' },
    json: newEntry('20'),
  });
  expect(wrongType.status).toBe(415);
  expect(wrongType.json().errors[0]).toMatchObject({ title: 'Unsupported media type', code: '415', status: '415' });
  const noType = await send(`${twin.api}/library-entries/1`, { method: 'PATCH', token: alice, body: '{}' });
  expect(noType.status).toBe(415);
  const cases: [string, unknown, number, string][] = [
    ['not JSON', '{"data":', 400, 'Bad Request'],
    ['no data', {}, 400, 'Missing Parameter'],
    ['data is a list', { data: [] }, 400, 'Bad Request'],
    ['no type', { data: { attributes: {} } }, 400, 'Missing Parameter'],
    ['wrong type', { data: { type: 'anime', attributes: {} } }, 400, 'Invalid resource'],
    ['client id', { data: { type: 'libraryEntries', id: '99', attributes: {} } }, 400, 'Param not allowed'],
    ['unknown attribute', { data: { type: 'libraryEntries', attributes: { foo: 1 } } }, 400, 'Param not allowed'],
    ['read-only attribute', { data: { type: 'libraryEntries', attributes: { rating: '5.0' } } }, 400, 'Param not allowed'],
    ['bad linkage', { data: { type: 'libraryEntries', relationships: { anime: { id: '1' } } } }, 400, 'Invalid Links Object'],
    ['wrong target type', { data: { type: 'libraryEntries', relationships: { anime: { data: { type: 'manga', id: '1' } } } } }, 400, 'Type Mismatch'],
  ];
  for (const [name, body, status, title] of cases) {
    const answer = await send(`${twin.api}/library-entries`, {
      method: 'POST',
      token: alice,
      headers: { 'Content-Type': JSON_API },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    expect(answer.status, name).toBe(status);
    expect(answer.json().errors[0].title, name).toBe(title);
  }
  const anonymous = await send(`${twin.api}/library-entries`, { method: 'POST', json: newEntry('20') });
  expect(anonymous.status).toBe(403);
  expect(anonymous.json().errors[0]).toEqual({
    title: 'Create Forbidden',
    detail: "You don't have permission to create this library entry.",
    code: '403',
    status: '403',
  });
  const forOther = await send(`${twin.api}/library-entries`, {
    method: 'POST',
    token: bob,
    json: newEntry('20'),
  });
  expect(forOther.status, "bob may not create alice's entry").toBe(403);
});

test('422 validation errors carry code 100, title = message, detail "<field> - <message>" and a pointer', async () => {
  const duplicate = await send(`${twin.api}/library-entries`, { method: 'POST', token: alice, json: newEntry('1') });
  expect(duplicate.status).toBe(422);
  expect(duplicate.json()).toEqual(errors['422 validation (detail confirmed by a client)']);
  const invalid = await send(`${twin.api}/library-entries`, {
    method: 'POST',
    token: alice,
    json: {
      data: {
        type: 'libraryEntries',
        attributes: { status: 'watching', progress: -1, ratingTwenty: 21 },
        relationships: { anime: { data: { type: 'anime', id: '20' } } },
      },
    },
  });
  expect(invalid.status).toBe(422);
  expect(invalid.json().errors).toEqual([
    {
      title: 'is not included in the list',
      detail: 'status - is not included in the list',
      code: '100',
      source: { pointer: '/data/attributes/status' },
      status: '422',
    },
    {
      title: 'must be greater than or equal to 0',
      detail: 'progress - must be greater than or equal to 0',
      code: '100',
      source: { pointer: '/data/attributes/progress' },
      status: '422',
    },
    {
      title: 'must be less than or equal to 20',
      detail: 'ratingTwenty - must be less than or equal to 20',
      code: '100',
      source: { pointer: '/data/attributes/ratingTwenty' },
      status: '422',
    },
  ]);
  const missing = await send(`${twin.api}/library-entries`, { method: 'POST', token: alice, json: newEntry('9999') });
  expect(missing.json().errors[0]).toMatchObject({ detail: 'media - must exist', source: { pointer: '/data/relationships/media' } });
});

test('PATCH and PUT update (200); another user gets 403 Update Forbidden; a hidden or missing record is 404', async () => {
  const patch = await send(`${twin.api}/library-entries/1`, {
    method: 'PATCH',
    token: alice,
    json: { data: { type: 'libraryEntries', id: '1', attributes: { progress: 6, rating_twenty: 20 } } },
  });
  expect(patch.status).toBe(200);
  expect(patch.json().data.attributes).toMatchObject({ progress: 6, ratingTwenty: 20, rating: '5.0', progressedAt: '2025-01-01T00:00:00.000Z' });
  const put = await send(`${twin.api}/library-entries/1`, {
    method: 'PUT',
    token: alice,
    json: { data: { type: 'library-entries', id: '1', attributes: { status: 'completed' } } },
  });
  expect(put.status).toBe(200);
  expect(put.json().data.attributes.finishedAt).not.toBeNull();
  const other = await send(`${twin.api}/library-entries/1`, {
    method: 'PATCH',
    token: bob,
    json: { data: { type: 'libraryEntries', id: '1', attributes: { progress: 1 } } },
  });
  expect(other.status).toBe(403);
  expect(other.json()).toEqual(errors['403 forbidden (server code)']);
  const mismatch = await send(`${twin.api}/library-entries/1`, {
    method: 'PATCH',
    token: alice,
    json: { data: { type: 'libraryEntries', id: '2', attributes: {} } },
  });
  expect(mismatch.status).toBe(400);
  expect(mismatch.json().errors[0].title).toBe('Key is not included in URL');
  const privateOfBob = await send(`${twin.api}/library-entries/10`, {
    method: 'PATCH',
    token: alice,
    json: { data: { type: 'libraryEntries', id: '10', attributes: {} } },
  });
  expect(privateOfBob.status, "bob's private entry does not exist for alice").toBe(404);
  const createOnly = await send(`${twin.api}/library-entries/1`, {
    method: 'PATCH',
    token: alice,
    json: { data: { type: 'libraryEntries', id: '1', relationships: { anime: { data: { type: 'anime', id: '2' } } } } },
  });
  expect(createOnly.json().errors[0].title).toBe('Param not allowed');
});

test('DELETE answers 204 with no body; Pundit 403 Destroy Forbidden for others', async () => {
  const forbidden = await send(`${twin.api}/library-entries/2`, { method: 'DELETE', token: bob });
  expect(forbidden.status).toBe(403);
  expect(forbidden.json().errors[0].title).toBe('Destroy Forbidden');
  const deleted = await send(`${twin.api}/library-entries/2`, { method: 'DELETE', token: alice, json: { data: { type: 'libraryEntries', id: '2' } } });
  expect(deleted.status, deleted.text).toBe(204);
  expect(deleted.text).toBe('');
  expect((await send(`${twin.api}/library-entries/2`)).status).toBe(404);
});

test('catalogue writes are for admins; anyone may sign up; groups make their creator the owner', async () => {
  const anime = {
    data: { type: 'anime', attributes: { canonicalTitle: 'Twin Premiere', titles: { en: 'Twin Premiere' }, subtype: 'TV', ageRating: 'PG', episodeCount: 12 } },
  };
  expect((await send(`${twin.api}/anime`, { method: 'POST', token: alice, json: anime })).status).toBe(403);
  const created = await send(`${twin.api}/anime`, { method: 'POST', token: admin, json: anime });
  expect(created.status).toBe(201);
  expect(created.json().data.attributes).toMatchObject({ canonicalTitle: 'Twin Premiere', status: 'tba', nsfw: false, showType: 'TV' });
  expect(created.json().data.id).toBe(String(MEDIA_SEED.animeCount + 1));
  const signUp = await send(`${twin.api}/users`, {
    method: 'POST',
    json: { data: { type: 'users', attributes: { name: 'dave', email: 'dave@twin.test', password: 'dave-password' } } },
  });
  expect(signUp.status).toBe(201);
  expect(signUp.json().data.attributes).not.toHaveProperty('password');
  const dave = await signIn(twin.twin.url, 'dave@twin.test', 'dave-password');
  const taken = await send(`${twin.api}/users`, {
    method: 'POST',
    json: { data: { type: 'users', attributes: { name: 'Alice', email: 'x@twin.test', password: 'long-enough' } } },
  });
  expect(taken.json().errors[0]).toMatchObject({ detail: 'name - has already been taken' });
  const group = await send(`${twin.api}/groups`, { method: 'POST', token: dave, json: { data: { type: 'groups', attributes: { name: 'Dave Club' } } } });
  expect(group.status).toBe(201);
  const members = (await send(`${twin.api}/group-members?filter[groupId]=${group.json().data.id}`)).json();
  expect(members.data[0].attributes.rank).toBe('admin');
});

test('a post creates an activity on the global feed', async () => {
  const post = await send(`${twin.api}/posts`, {
    method: 'POST',
    token: bob,
    json: { data: { type: 'posts', attributes: { content: 'Hello twin' }, relationships: { media: { data: { type: 'anime', id: '1' } } } } },
  });
  expect(post.status).toBe(201);
  const feed = (await send(`${twin.api}/feeds/global/global?include=activities.subject&page[limit]=1`)).json();
  const activity = feed.included.find((resource: { type: string }) => resource.type === 'activities');
  expect(activity.relationships.subject.data).toEqual({ type: 'posts', id: post.json().data.id });
});
