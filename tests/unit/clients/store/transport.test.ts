import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { MockAgent } from 'undici';
import { VirtualClock } from '../../../../src/clock/Clock.ts';
import { StoreClient } from '../../../../src/clients/store/StoreClient.ts';
import { StoreConfigError, StoreRequestError } from '../../../../src/clients/store/errors.ts';
import type { Exchange } from '../../../../src/clients/store/types.ts';
import { STORE_CONTRACT } from '../../../../src/rules/storeContract.ts';
import { startFakeStore, STORE_ID, TOKEN, USER_AGENT, type FakeStore, type Reply } from './fakeStore.ts';

// Common request rules and Authentication: what the client puts on the wire.

let store: FakeStore;
let next: Reply = {};

test.beforeAll(async () => {
  store = await startFakeStore(() => next);
});
test.afterAll(async () => {
  await store.close();
});
test.beforeEach(() => {
  next = { status: 200, json: {} };
  store.requests.length = 0;
});

function client(exchanges: Exchange[] = []): StoreClient {
  return new StoreClient({ baseUrl: store.baseUrl, token: TOKEN, userAgent: USER_AGENT, clock: new VirtualClock(0), onExchange: (e) => exchanges.push(e) });
}

function lastRequest() {
  return store.requests.at(-1)!;
}

test('store.auth.authentication-header: every request carries "Authentication: bearer <token>" and the User-Agent', async () => {
  await client().send({ method: 'GET', path: '/products' });
  expect(lastRequest().headers['authentication']).toBe(`${STORE_CONTRACT.tokenScheme} ${TOKEN}`);
  expect(lastRequest().headers['user-agent']).toBe(USER_AGENT);
  expect(lastRequest().headers['authorization']).toBeUndefined();
  expect(lastRequest().headers['content-type']).toBeUndefined();
});

test('store.http.content-type-required: a JSON body goes with application/json; charset=utf-8', async () => {
  await client().send({ method: 'POST', path: '/products', json: { name: 'Café' } });
  expect(lastRequest().headers['content-type']).toBe(STORE_CONTRACT.jsonContentType);
  expect(JSON.parse(lastRequest().body)).toEqual({ name: 'Café' });
  expect(Number(lastRequest().headers['content-length'])).toBe(Buffer.byteLength(lastRequest().body));
});

test('store.http.put-empty-body-content-length: a bodyless PUT sends Content-Length: 0, or nothing when told', async () => {
  await client().send({ method: 'PUT', path: '/categories/7' });
  expect(lastRequest().headers['content-length']).toBe('0');
  expect(lastRequest().headers['transfer-encoding']).toBeUndefined();

  await client().send({ method: 'PUT', path: '/categories/7', contentLength0: false });
  expect(lastRequest().method).toBe('PUT');
  expect(lastRequest().headers['content-length']).toBeUndefined();
  expect(lastRequest().headers['transfer-encoding']).toBeUndefined();
  expect(lastRequest().headers['authentication']).toBe(`bearer ${TOKEN}`);
});

test('switches for the suites: no User-Agent, no Content-Type, raw bodies, no or other auth, extra headers', async () => {
  await client().send({ method: 'GET', path: '/products', userAgent: null, auth: 'none' });
  expect(lastRequest().headers['user-agent']).toBeUndefined();
  expect(lastRequest().headers['authentication']).toBeUndefined();

  await client().send({ method: 'POST', path: '/products', rawBody: '{"name":', contentType: null });
  expect(lastRequest().body).toBe('{"name":');
  expect(lastRequest().headers['content-type']).toBeUndefined();

  await client().send({ method: 'POST', path: '/products', rawBody: 'x', contentType: 'text/plain' });
  expect(lastRequest().headers['content-type']).toBe('text/plain');

  await client().send({
    method: 'GET',
    path: '/products',
    auth: { header: 'Authorization', value: 'Bearer other' },
    headers: { 'user-agent': 'Override (x@example.com)' },
  });
  expect(lastRequest().headers['authorization']).toBe('Bearer other');
  expect(lastRequest().headers['authentication']).toBeUndefined();
  expect(lastRequest().headers['user-agent']).toBe('Override (x@example.com)');
});

test('paths join under /v1/{store_id}, keep their query, and take query values (undefined left out)', async () => {
  await client().send({ method: 'GET', path: '/products?fields=id,name', query: { page: 2, per_page: undefined } });
  expect(lastRequest().url).toBe(`/v1/${STORE_ID}/products?fields=id%2Cname&page=2`);
  await client().send({ method: 'GET', path: 'categories/5' });
  expect(lastRequest().url).toBe(`/v1/${STORE_ID}/categories/5`);
  await client().send({ method: 'GET', url: `${store.origin}/v2/${STORE_ID}/products?page=3` });
  expect(lastRequest().url).toBe(`/v2/${STORE_ID}/products?page=3`);
});

test('the token never goes to another origin', async () => {
  const error = await client()
    .send({ method: 'GET', url: 'https://elsewhere.example/v1/1/products?page=2' })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(StoreRequestError);
  expect((error as StoreRequestError).code).toBe('STORE_ERR_INVALID_REQUEST');
  expect((error as Error).message).toContain('https://elsewhere.example');
  expect(store.requests).toHaveLength(0);
});

test('the answer: lower-case headers, rate headers, Link targets and X-Total-Count; statuses never throw', async () => {
  next = {
    status: 200,
    headers: {
      'x-rate-limit-limit': '40',
      'x-rate-limit-remaining': '37',
      'x-rate-limit-reset': '1500',
      'X-Total-Count': '156',
      Link: `<${store.baseUrl}/products?page=2>; rel="next", <${store.baseUrl}/products?page=6>; rel="last"`,
    },
    json: [{ id: 1 }],
  };
  const res = await client().send({ method: 'GET', path: '/products' });
  expect(res.headers['x-total-count']).toBe('156');
  expect(res.rate).toEqual({ limit: 40, remaining: 37, reset: 1500 });
  expect(res.totalCount).toBe(156);
  expect(res.links).toEqual({ next: `${store.baseUrl}/products?page=2`, last: `${store.baseUrl}/products?page=6` });
  expect(res.json()).toEqual([{ id: 1 }]);
  expect(res.url).toBe(`${store.baseUrl}/products`);
  expect(res.method).toBe('GET');

  for (const status of [400, 401, 404, 415, 500]) {
    next = { status, json: { code: status, message: 'x', description: null } };
    expect((await client().send({ method: 'GET', path: '/products', retry: false })).status).toBe(status);
  }
});

test('HEAD answers headers and an empty text', async () => {
  next = { status: 200, headers: { 'x-total-count': '3' }, json: [1, 2, 3] };
  const res = await client().send({ method: 'HEAD', path: '/products' });
  expect(res.status).toBe(200);
  expect(res.text).toBe('');
  expect(res.totalCount).toBe(3);
});

test('exchanges record each attempt with every secret redacted', async () => {
  const exchanges: Exchange[] = [];
  const secretive = new StoreClient({
    baseUrl: store.baseUrl,
    token: TOKEN,
    userAgent: USER_AGENT,
    clock: new VirtualClock(0),
    secrets: ['app-secret-value'],
    onExchange: (e) => exchanges.push(e),
  });
  next = { status: 401, headers: { 'set-cookie': 'session=abc' }, json: { error: `bad token ${TOKEN}`, hint: 'app-secret-value' } };
  await secretive.send({ method: 'POST', path: '/products', json: { name: 'A', note: TOKEN } });
  await secretive.send({ method: 'GET', path: '/products', auth: { header: 'X-Custom-Key', value: 'custom-credential' } });
  const dump = JSON.stringify(exchanges);
  expect(dump).not.toContain(TOKEN);
  expect(dump).not.toContain('app-secret-value');
  expect(dump).not.toContain('custom-credential');
  expect(dump).not.toContain('session=abc');
  expect(exchanges[0]!.request.headers['authentication']).toBe('bearer [REDACTED]');
  expect(exchanges[0]!.request.headers['User-Agent']).toBe(USER_AGENT);
  expect(exchanges[0]!.response!.status).toBe(401);
  expect(exchanges[0]!.attempt).toBe(0);
});

test('a configured undici dispatcher is used (MockAgent)', async () => {
  const agent = new MockAgent();
  agent.disableNetConnect();
  agent
    .get('https://api.example.test')
    .intercept({ path: '/v1/42/store', method: 'GET', headers: { authentication: `bearer ${TOKEN}` } })
    .reply(200, { id: 42, main_language: 'es', languages: ['es', 'pt'] }, { headers: { 'content-type': 'application/json' } });
  const mocked = new StoreClient({
    baseUrl: 'https://api.example.test/v1/42/',
    token: TOKEN,
    userAgent: USER_AGENT,
    clock: new VirtualClock(0),
    dispatcher: agent,
  });
  expect(mocked.baseUrl).toBe('https://api.example.test/v1/42');
  expect(await mocked.getStore()).toEqual({ id: 42, mainLanguage: 'es', languages: ['es', 'pt'] });
  agent.assertNoPendingInterceptors();
  await agent.close();
});

test('unusable options fail at construction with the option and the fix', () => {
  expect(() => new StoreClient({ baseUrl: 'localhost:4010/v1/1', token: TOKEN, userAgent: USER_AGENT })).toThrow(StoreConfigError);
  expect(() => new StoreClient({ baseUrl: store.baseUrl, token: '', userAgent: USER_AGENT })).toThrow(/token is missing/);
  expect(() => new StoreClient({ baseUrl: store.baseUrl, token: TOKEN, userAgent: ' ' })).toThrow(/userAgent.*Fix/);
  expect(() => new StoreClient({ baseUrl: store.baseUrl, token: TOKEN, userAgent: USER_AGENT, retry: { maxRetries: -1 } })).toThrow(/retry.maxRetries/);
});
