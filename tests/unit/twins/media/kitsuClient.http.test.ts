/**
 * The npm client `kitsu` must be able to use the twin. It is not installed
 * here, so these tests send exactly what it sends: `Accept` and `Content-Type`
 * `application/vnd.api+json` on every request, `filter%5Bx%5D=` query strings,
 * kebab-case plural paths, `{data: {type, id, attributes, relationships}}`
 * bodies built from plain objects, and DELETE with a `{data: {id, type}}` body;
 * and read what it reads: `data`, `included`, `meta`, `links`, and `errors` on failure.
 */
import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { MEDIA_SEED } from '../../../../src/twins/media/seedFacts.ts';
import { JSON_API, send, signIn, startTestTwin, type TestTwin } from './mediaHttp.ts';

let twin: TestTwin;

test.beforeAll(async () => {
  twin = await startTestTwin();
});
test.afterAll(async () => {
  await twin.twin.close();
  expect(twin.internalErrors).toEqual([]);
});

type Params = { [key: string]: string | number | Params };

/** The npm client's query serialisation: nested objects as `a[b]`, each key and value URI-encoded. */
function kitsuQuery(params: Params, prefix?: string): string {
  return Object.entries(params)
    .map(([key, value]) => {
      const name = prefix ? `${prefix}[${key}]` : key;
      return typeof value === 'object' ? kitsuQuery(value, name) : `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
    })
    .join('&');
}

/** The npm client's body for POST/PATCH: objects with an id become relationships, the rest attributes. */
function kitsuBody(type: string, payload: Record<string, unknown>): unknown {
  const data: Record<string, unknown> = { type };
  if (payload['id'] !== undefined) data['id'] = String(payload['id']);
  for (const [key, value] of Object.entries(payload)) {
    if (value !== null && typeof value === 'object' && 'id' in value) {
      data['relationships'] = { ...(data['relationships'] as object), [key]: { data: { type: key === 'user' ? 'users' : key, ...value } } };
    } else if (key !== 'id' && key !== 'type') {
      data['attributes'] = { ...(data['attributes'] as object), [key]: value };
    }
  }
  return { data };
}

function kitsu(token?: string) {
  const headers = { Accept: JSON_API, 'Content-Type': JSON_API, ...(token ? { Authorization: `Bearer ${token}` } : {}) };
  return {
    get: (path: string, params: Params = {}) => send(`${twin.api}/${path}${Object.keys(params).length > 0 ? `?${kitsuQuery(params)}` : ''}`, { headers }),
    post: (path: string, type: string, payload: Record<string, unknown>) =>
      send(`${twin.api}/${path}`, { method: 'POST', headers, body: JSON.stringify(kitsuBody(type, payload)) }),
    patch: (path: string, type: string, payload: Record<string, unknown>) =>
      send(`${twin.api}/${path}/${String(payload['id'])}`, { method: 'PATCH', headers, body: JSON.stringify(kitsuBody(type, payload)) }),
    remove: (path: string, type: string, id: string) =>
      send(`${twin.api}/${path}/${id}`, { method: 'DELETE', headers, body: JSON.stringify({ data: { id, type } }) }),
  };
}

test('lists with filter, include and page, as the client sends them', async () => {
  const answer = await kitsu().get('anime', {
    filter: { text: 'cowboy bebop', subtype: 'TV' },
    include: 'categories',
    page: { limit: 5, offset: 0 },
    fields: { anime: 'canonicalTitle,categories' },
  });
  expect(answer.status).toBe(200);
  const body = answer.json();
  expect(body.data.map((anime: { id: string }) => anime.id)).toEqual(['1']);
  expect(body.included.every((resource: { type: string }) => resource.type === 'categories')).toBe(true);
  expect(body.links.first).toContain('filter%5Btext%5D=cowboy+bebop');
  expect((await kitsu().get('anime/1/episodes', { page: { limit: 20 } })).json().data).toHaveLength(MEDIA_SEED.animeWithEpisodes.episodes);
});

test('single anime and library entries, signed in, and self()', async () => {
  const token = await signIn(twin.twin.url, MEDIA_SEED.users.adultAllowed.email, MEDIA_SEED.users.adultAllowed.password);
  const api = kitsu(token);
  expect((await api.get('anime/1', { include: 'streamingLinks' })).json().included).toHaveLength(MEDIA_SEED.animeWithEpisodes.streamingLinks);
  const entries = (
    await api.get('library-entries', { filter: { userId: MEDIA_SEED.users.adultAllowed.id }, include: 'anime,manga', page: { limit: 20 } })
  ).json();
  expect(entries.data.map((entry: { id: string }) => entry.id)).toEqual([...MEDIA_SEED.aliceLibraryEntryIds]);
  expect((await api.get('users', { filter: { self: 'true' } })).json().data[0].attributes.name).toBe(MEDIA_SEED.users.adultAllowed.name);
  const created = await api.post('library-entries', 'libraryEntries', {
    status: 'planned',
    anime: { id: '30' },
    user: { id: MEDIA_SEED.users.adultAllowed.id },
  });
  expect(created.status).toBe(201);
  const id = created.json().data.id as string;
  expect((await api.patch('library-entries', 'libraryEntries', { id, progress: 2, status: 'current' })).json().data.attributes.progress).toBe(2);
  expect((await api.remove('library-entries', 'libraryEntries', id)).status).toBe(204);
});

test('errors arrive as a JSON:API `errors` array', async () => {
  const missing = await kitsu().get('anime/99999');
  expect(missing.status).toBe(404);
  expect(missing.json().errors).toEqual([
    { title: 'Record not found', detail: 'The record identified by 99999 could not be found.', code: '404', status: '404' },
  ]);
  const tooMany = await kitsu().get('anime', { page: { limit: 50 } });
  expect(tooMany.json().errors[0].detail).toBe('Limit exceeds maximum page size of 20.');
  const anonymous = await kitsu().post('library-entries', 'libraryEntries', { status: 'planned', anime: { id: '30' } });
  expect(anonymous.json().errors[0].title).toBe('Create Forbidden');
});
