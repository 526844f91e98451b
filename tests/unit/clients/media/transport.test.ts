import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { MockAgent } from 'undici';
import { VirtualClock } from '../../../../src/clock/Clock.ts';
import { MediaClient } from '../../../../src/clients/media/MediaClient.ts';
import { MediaConfigError, MediaInvalidResponseError, MediaRequestError } from '../../../../src/clients/media/errors.ts';
import type { Exchange, MediaClientOptions } from '../../../../src/clients/media/types.ts';
import { MEDIA_CONTRACT } from '../../../../src/rules/mediaContract.ts';
import { startFakeMedia, TOKEN, type FakeMedia, type Reply } from './fakeMedia.ts';

// What the client puts on the wire (field notes: Media type, keys, ids; Authentication).

let media: FakeMedia;
let next: Reply = {};

test.beforeAll(async () => {
  media = await startFakeMedia(() => next);
});
test.afterAll(async () => {
  await media.close();
});
test.beforeEach(() => {
  next = { status: 200, json: { data: [] } };
  media.requests.length = 0;
});

function client(options: Partial<MediaClientOptions> = {}): MediaClient {
  return new MediaClient({ baseUrl: media.baseUrl, token: TOKEN, clock: new VirtualClock(0), ...options });
}

function lastRequest() {
  return media.requests.at(-1)!;
}

test('every request asks for application/vnd.api+json and carries the token as Authorization: Bearer', async () => {
  await client({ userAgent: 'Harness tests (https://example.com)' }).send({ method: 'GET', path: '/anime' });
  expect(lastRequest().headers['accept']).toBe(MEDIA_CONTRACT.mediaType);
  expect(lastRequest().headers['authorization']).toBe(`Bearer ${TOKEN}`);
  expect(lastRequest().headers['user-agent']).toBe('Harness tests (https://example.com)');
  expect(lastRequest().headers['content-type']).toBeUndefined();
});

test('without a token the client is anonymous: no Authorization at all', async () => {
  const anonymous = new MediaClient({ baseUrl: media.baseUrl });
  expect(anonymous.signedIn).toBe(false);
  await anonymous.send({ method: 'GET', path: '/anime' });
  expect(lastRequest().headers['authorization']).toBeUndefined();
  expect(lastRequest().headers['user-agent']).toBeTruthy();
});

test('a JSON:API body goes as application/vnd.api+json', async () => {
  const body = { data: { type: 'libraryEntries', attributes: { status: 'current', notes: 'Café' } } };
  await client().send({ method: 'POST', path: '/library-entries', body });
  expect(lastRequest().headers['content-type']).toBe(MEDIA_CONTRACT.mediaType);
  expect(JSON.parse(lastRequest().body)).toEqual(body);
  expect(Number(lastRequest().headers['content-length'])).toBe(Buffer.byteLength(lastRequest().body));
});

test('switches for the suites: other or no auth, other or no Accept and Content-Type, raw bodies, extra headers', async () => {
  await client().send({ method: 'GET', path: '/anime', auth: 'none', accept: null });
  expect(lastRequest().headers['authorization']).toBeUndefined();
  expect(lastRequest().headers['accept']).toBeUndefined();

  await client().send({ method: 'GET', path: '/anime', auth: 'other-token-123', accept: 'text/html' });
  expect(lastRequest().headers['authorization']).toBe('Bearer other-token-123');
  expect(lastRequest().headers['accept']).toBe('text/html');

  await client().send({ method: 'POST', path: '/library-entries', rawBody: '{"data":', contentType: 'application/json' });
  expect(lastRequest().body).toBe('{"data":');
  expect(lastRequest().headers['content-type']).toBe('application/json');

  await client().send({ method: 'PATCH', path: '/library-entries/1', body: { data: {} }, contentType: null, headers: { 'X-Trace': 'abc', accept: '*/*' } });
  expect(lastRequest().headers['content-type']).toBeUndefined();
  expect(lastRequest().headers['x-trace']).toBe('abc');
  expect(lastRequest().headers['accept']).toBe('*/*');
});

test('paths join under /api/edge and keep their query; query values are appended, brackets encoded, undefined left out', async () => {
  await client().send({
    method: 'GET',
    path: '/anime?filter%5Bslug%5D=macross',
    query: { 'page[limit]': 2, include: 'categories,staff', 'page[offset]': undefined },
  });
  expect(lastRequest().url).toBe('/api/edge/anime?filter%5Bslug%5D=macross&page%5Blimit%5D=2&include=categories,staff');
  await client().send({ method: 'GET', path: 'anime/1/episodes' });
  expect(lastRequest().url).toBe('/api/edge/anime/1/episodes');
  await client().send({ method: 'GET', url: `${media.origin}/api/oauth/token` });
  expect(lastRequest().url).toBe('/api/oauth/token');
});

test('the token never goes to another origin; anonymous requests may', async () => {
  const error = await client()
    .send({ method: 'GET', url: 'https://elsewhere.example/api/edge/anime?page%5Boffset%5D=10' })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MediaRequestError);
  expect((error as MediaRequestError).code).toBe('MEDIA_ERR_INVALID_REQUEST');
  expect((error as Error).message).toContain('https://elsewhere.example');
  expect((error as Error).message).not.toContain(TOKEN);
  expect(media.requests).toHaveLength(0);

  const other = await client()
    .send({ method: 'GET', url: 'https://elsewhere.example/x', auth: 'explicit-token' })
    .catch((e: unknown) => e);
  expect(other).toBeInstanceOf(MediaRequestError);
});

test('the answer: status, lower-case headers, text, json(), document when the body is a JSON object', async () => {
  next = { status: 200, headers: { 'X-Request-Id': 'r1' }, json: { data: [], meta: { count: 0 } } };
  const res = await client().send({ method: 'GET', path: '/anime' });
  expect(res.headers['x-request-id']).toBe('r1');
  expect(res.headers['content-type']).toBe(MEDIA_CONTRACT.mediaType);
  expect(res.document).toEqual({ data: [], meta: { count: 0 } });
  expect(res.json()).toEqual({ data: [], meta: { count: 0 } });
  expect(res.url).toBe(`${media.baseUrl}/anime`);
  expect(res.method).toBe('GET');

  next = { status: 204 };
  const empty = await client().send({ method: 'DELETE', path: '/library-entries/1' });
  expect(empty.text).toBe('');
  expect(empty.document).toBeUndefined();

  next = { status: 429, headers: { 'content-type': 'text/plain' }, text: 'Retry later' };
  const plain = await client().send({ method: 'POST', path: '/posts', body: { data: {} }, retry: false });
  expect(plain.status).toBe(429);
  expect(plain.document).toBeUndefined();
  expect(() => plain.json()).toThrow(MediaInvalidResponseError);
});

test('exchanges record each attempt with every secret redacted', async () => {
  const exchanges: Exchange[] = [];
  const secretive = client({ secrets: ['app-secret-value'], onExchange: (e) => exchanges.push(e) });
  next = {
    status: 401,
    headers: { 'set-cookie': 'session=abc' },
    json: { errors: [{ title: 'Invalid token', detail: `bad ${TOKEN}`, meta: { hint: 'app-secret-value' } }] },
  };
  await secretive.send({ method: 'POST', path: '/posts', body: { data: { type: 'posts', attributes: { content: TOKEN } } } });
  await secretive.send({ method: 'GET', path: '/anime', auth: 'custom-credential' });
  const dump = JSON.stringify(exchanges);
  expect(dump).not.toContain(TOKEN);
  expect(dump).not.toContain('app-secret-value');
  expect(dump).not.toContain('custom-credential');
  expect(dump).not.toContain('session=abc');
  expect(exchanges[0]!.request.headers['Authorization']).toBe('Bearer [REDACTED]');
  expect(exchanges[0]!.response!.status).toBe(401);
  expect(exchanges[0]!.attempt).toBe(0);
  expect(exchanges[1]!.request.headers['Authorization']).toBe('Bearer [REDACTED]');
});

test('a configured undici dispatcher is used (MockAgent)', async () => {
  const agent = new MockAgent();
  agent.disableNetConnect();
  agent
    .get('https://media.example.test')
    .intercept({ path: '/api/edge/anime/1', method: 'GET', headers: { authorization: `Bearer ${TOKEN}` } })
    .reply(200, { data: { id: '1', type: 'anime', attributes: { slug: 'cowboy-bebop' } } }, { headers: { 'content-type': MEDIA_CONTRACT.mediaType } });
  const mocked = new MediaClient({ baseUrl: 'https://media.example.test/api/edge/', token: TOKEN, dispatcher: agent });
  expect(mocked.baseUrl).toBe('https://media.example.test/api/edge');
  expect((await mocked.get('anime', '1')).data!.attributes.slug).toBe('cowboy-bebop');
  agent.assertNoPendingInterceptors();
  await agent.close();
});

test('unusable options fail at construction with the option and the fix', () => {
  expect(() => new MediaClient({ baseUrl: 'localhost:4020/api/edge' })).toThrow(MediaConfigError);
  expect(() => new MediaClient({ baseUrl: 'http://127.0.0.1:4020/api' })).toThrow(
    /does not end with \/api\/edge\. Fix: pass the service's base ending with \/api\/edge/,
  );
  expect(() => new MediaClient({ baseUrl: media.baseUrl, token: ' ' })).toThrow(/option token is empty\. Fix: leave token out for anonymous requests/);
  expect(() => new MediaClient({ baseUrl: media.baseUrl, retry: { maxRetries: -1 } })).toThrow(/retry.maxRetries/);
  expect(() => new MediaClient({ baseUrl: media.baseUrl, retry: { baseDelayMs: Number.NaN } })).toThrow(MediaConfigError);
});

test('unusable requests fail before anything is sent', async () => {
  await expect(client().send({ method: '' })).rejects.toThrow(/no method/);
  await expect(client().send({ method: 'GET', path: '/a', url: `${media.baseUrl}/a` })).rejects.toThrow(/both path and url/);
  await expect(client().send({ method: 'POST', path: '/a', body: {}, rawBody: '{}' })).rejects.toThrow(/both body and rawBody/);
  await expect(client().send({ method: 'GET', url: '/relative' })).rejects.toThrow(MediaRequestError);
  expect(media.requests).toHaveLength(0);
});
