import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { MS_PER_LEAK, STORE_CONTRACT } from '../../../../src/rules/storeContract.ts';
import type { ApiContext } from '../../../../src/twins/store/apiContext.ts';
import { handleApiRequest } from '../../../../src/twins/store/apiPipeline.ts';
import { parseRequestTarget } from '../../../../src/twins/serving/requestTarget.ts';
import { Router } from '../../../../src/twins/store/router.ts';
import type { RunningStoreTwin } from '../../../../src/twins/store/server.ts';
import { TwinState } from '../../../../src/twins/store/twinState.ts';
import { USER_AGENT, advanceClock, control, createStore, send, sendRaw, startTestTwin, storeApi } from './twinHttp.ts';

const { bucketSize } = STORE_CONTRACT;
let twin: RunningStoreTwin;
let internalErrors: unknown[];

test.beforeAll(async () => {
  ({ twin, internalErrors } = await startTestTwin());
});
test.afterAll(async () => {
  await twin.close();
  expect(internalErrors, 'no request reached the 500 fallback').toEqual([]);
});

test('store.versioning.unknown-version-404: another version is 404 with a null description', async () => {
  const answer = await send(`${twin.url}/v2/100001/products`, { headers: { 'User-Agent': USER_AGENT, Authentication: 'bearer twin-token-100001' } });
  expect(answer.status).toBe(404);
  expect(answer.json()).toEqual({ code: 404, message: 'Not Found', description: null });
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(answer.headers['x-main-language']).toBe('es');
});

test('store.http.user-agent-required: no or blank User-Agent is 400, before the token is looked at', async () => {
  for (const headers of [{}, { 'User-Agent': '  ' }] as Record<string, string>[]) {
    const answer = await send(`${twin.url}/v1/100002/products`, { headers });
    expect(answer.status).toBe(400);
    expect(answer.json()).toEqual({
      code: 400,
      message: 'Bad Request',
      description: 'User-Agent header is required: name the app and a contact URL or e-mail',
    });
    expect(answer.headers['x-main-language']).toBe('pt');
    expect(answer.headers['x-rate-limit-limit'], 'no rate headers before the token step').toBeUndefined();
  }
});

test('store.auth.missing-or-invalid-token-401 and store.auth.token-scoped-to-store', async () => {
  const store = await createStore(twin.url, { preset: 'single-language', products: 1 });
  const other = await createStore(twin.url, { products: 1 });
  const unauthorized = { code: 401, message: 'Unauthorized', description: 'Invalid access token' };
  const cases: Array<[string, Record<string, string>]> = [
    ['no token', {}],
    ['wrong token', { Authentication: 'bearer nope' }],
    ['another store token', { Authentication: `bearer ${other.token}` }],
    ['no scheme', { Authentication: store.token }],
  ];
  for (const [name, headers] of cases) {
    const answer = await send(`${store.baseUrl}/store`, { headers: { 'User-Agent': USER_AGENT, ...headers } });
    expect(answer.status, name).toBe(401);
    expect(answer.json()).toEqual(unauthorized);
    expect(answer.headers['x-main-language']).toBe('pt');
  }
  const unknownStore = await send(`${twin.url}/v1/999999/store`, { headers: { 'User-Agent': USER_AGENT, Authentication: `bearer ${store.token}` } });
  expect(unknownStore.status).toBe(401);
  expect(unknownStore.headers['x-main-language']).toBe('es');
});

test('store.auth.authentication-header: "bearer" in any case, and Authorization: Bearer as newer guides send it', async () => {
  const store = await createStore(twin.url, { products: 1 });
  for (const headers of [
    { Authentication: `bearer ${store.token}` },
    { Authentication: `BEARER ${store.token}` },
    { Authorization: `Bearer ${store.token}` },
  ] as Record<string, string>[]) {
    const answer = await send(`${store.baseUrl}/store`, { headers: { 'User-Agent': USER_AGENT, ...headers } });
    expect(answer.status).toBe(200);
    expect(answer.headers['x-main-language']).toBe('es');
  }
});

test('store.ratelimit.headers, bucket-429, leak-rate: 40 fit, the 41st is 429, one leaks every 500 ms', async () => {
  const store = await createStore(twin.url, { products: 1 });
  const api = storeApi(store);
  for (let i = 1; i <= bucketSize; i += 1) {
    const answer = await api('/store');
    expect(answer.status).toBe(200);
    expect(answer.headers['x-rate-limit-limit']).toBe(String(bucketSize));
    expect(answer.headers['x-rate-limit-remaining']).toBe(String(bucketSize - i));
    expect(answer.headers['x-rate-limit-reset']).toBe(String(i * MS_PER_LEAK));
  }
  const refused = await api('/store');
  expect(refused.status).toBe(429);
  expect(refused.json()).toMatchObject({ code: 429, message: 'Too Many Requests' });
  expect(refused.headers['x-rate-limit-remaining']).toBe('0');
  expect(refused.headers['x-rate-limit-reset']).toBe(String(bucketSize * MS_PER_LEAK));
  await advanceClock(twin.url, store.storeId, MS_PER_LEAK - 1);
  expect((await api('/store')).status, 'not yet').toBe(429);
  await advanceClock(twin.url, store.storeId, 1);
  expect((await api('/store')).status, 'one leaked').toBe(200);
  expect((await api('/store')).status).toBe(429);
});

test('store.ratelimit.per-store-and-token: another token of the same store has its own bucket', async () => {
  const store = await createStore(twin.url, { products: 1 });
  for (let i = 0; i < bucketSize; i += 1) await storeApi(store)('/store');
  expect((await storeApi(store)('/store')).status).toBe(429);
  const { token } = await control<{ token: string }>(twin.url, 'POST', `/stores/${store.storeId}/tokens`);
  const second = await storeApi(store, token)('/store');
  expect(second.status).toBe(200);
  expect(second.headers['x-rate-limit-remaining']).toBe(String(bucketSize - 1));
});

test('store.suspension.every-call-402: suspended calls answer 402 without using the bucket; resuming restores access', async () => {
  const store = await createStore(twin.url, { products: 3 });
  const api = storeApi(store);
  await api('/store');
  expect(await control(twin.url, 'POST', `/stores/${store.storeId}/suspend`)).toEqual({ state: 'suspended' });
  for (const path of ['/store', '/products', '/categories/1']) {
    const answer = await api(path);
    expect(answer.status).toBe(402);
    expect(answer.json()).toMatchObject({ code: 402, message: 'Payment Required' });
    expect(typeof answer.json().description).toBe('string');
    expect(answer.headers['x-rate-limit-remaining'], 'the bucket is untouched').toBe(String(bucketSize - 1));
  }
  expect(await control(twin.url, 'POST', `/stores/${store.storeId}/resume`)).toEqual({ state: 'accessible' });
  expect((await api('/products')).status).toBe(200);
});

test('injected faults answer their status for the next count calls; a 429 fault shows a full bucket', async () => {
  const store = await createStore(twin.url, { products: 1 });
  const api = storeApi(store);
  await control(twin.url, 'POST', `/stores/${store.storeId}/faults`, { status: 503, count: 2, retryAfterMs: 1500 });
  for (let i = 0; i < 2; i += 1) {
    const answer = await api('/store');
    expect(answer.status).toBe(503);
    expect(answer.json()).toEqual({ code: 503, message: 'Service Unavailable', description: null });
    expect(answer.headers['retry-after']).toBe('2');
  }
  expect((await api('/store')).status).toBe(200);
  await control(twin.url, 'POST', `/stores/${store.storeId}/faults`, { status: 429, count: 1 });
  const limited = await api('/store');
  expect(limited.status).toBe(429);
  expect(limited.headers['x-rate-limit-remaining']).toBe('0');
  expect(limited.headers['x-rate-limit-reset']).toBe(String(bucketSize * MS_PER_LEAK));
  await control(twin.url, 'POST', `/stores/${store.storeId}/faults`, { status: 500, count: 5 });
  await send(`${twin.url}/__twin/stores/${store.storeId}/faults`, { method: 'DELETE' });
  expect((await api('/store')).status, 'faults cleared').toBe(200);
});

test('store.http.content-type-required: a body without application/json is 415', async () => {
  const store = await createStore(twin.url, { products: 1 });
  const api = storeApi(store);
  for (const headers of [{}, { 'Content-Type': 'text/plain' }, { 'Content-Type': 'application/jsonx' }] as Record<string, string>[]) {
    const answer = await api('/products', { method: 'POST', headers, body: '{"name":"x"}' });
    expect(answer.status).toBe(415);
    expect(answer.json()).toEqual({ code: 415, message: 'Unsupported Media Type', description: 'Content-Type should be application/json' });
  }
  const plain = await api('/products', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"name":"x"}' });
  expect(plain.status, 'charset is optional').toBe(201);
});

test('store.errors.invalid-json-400: invalid JSON is {"error":"Problems parsing JSON"}; a non-object is Invalid input format', async () => {
  const store = await createStore(twin.url, { products: 1 });
  const api = storeApi(store);
  for (const body of ['{"name":', 'nope', Buffer.from([0x7b, 0xff, 0x7d])]) {
    const answer = await api('/products', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    expect(answer.status).toBe(400);
    expect(answer.json()).toEqual({ error: 'Problems parsing JSON' });
  }
  for (const body of ['[]', '"name"', '12', 'null']) {
    const answer = await api('/products', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    expect(answer.status, body).toBe(400);
    expect(answer.json()).toEqual({ code: 400, message: 'Bad Request', description: 'Invalid input format' });
  }
});

test('a body over 1 MiB is 413 in the standard shape', async () => {
  const store = await createStore(twin.url, { products: 1 });
  const answer = await storeApi(store)('/products', { method: 'POST', json: { name: 'x', description: 'a'.repeat(1024 * 1024) } });
  expect(answer.status).toBe(413);
  expect(answer.json()).toMatchObject({ code: 413, message: 'Payload Too Large' });
});

test('store.http.put-without-length-411 and put-empty-body-content-length', async () => {
  const store = await createStore(twin.url, { products: 1 });
  const api = storeApi(store);
  const [product] = (await api('/products')).json();
  const raw = (headers: string): string =>
    `PUT /v1/${store.storeId}/products/${product.id} HTTP/1.1\r\nHost: x\r\nUser-Agent: ${USER_AGENT}\r\nAuthentication: bearer ${store.token}\r\n${headers}Connection: close\r\n\r\n`;
  const noLength = await sendRaw(twin.url, raw(''));
  expect(noLength.status).toBe(411);
  expect(JSON.parse(noLength.body)).toMatchObject({ code: 411, message: 'Length Required' });
  const emptyUpdate = await sendRaw(twin.url, raw('Content-Length: 0\r\n'));
  expect(emptyUpdate.status).toBe(200);
  expect(JSON.parse(emptyUpdate.body), 'the unchanged resource').toEqual(product);
});

test('unknown routes are 404, a known path with another method is 405 with Allow', async () => {
  const store = await createStore(twin.url, { products: 1 });
  const api = storeApi(store);
  const unknown = await api('/orders');
  expect(unknown.status).toBe(404);
  expect(unknown.json()).toEqual({ code: 404, message: 'Not Found', description: null });
  const notAllowed = await api('/products/1', { method: 'PATCH', json: {} });
  expect(notAllowed.status).toBe(405);
  expect(notAllowed.headers['allow']).toBe('GET, HEAD, PUT, DELETE');
  expect(notAllowed.headers['x-main-language']).toBe('es');
});

test('store.http.head-any-resource: HEAD has the GET status and headers, Content-Length included, and no body', async () => {
  const store = await createStore(twin.url, { products: 45 });
  const api = storeApi(store);
  const get = await api('/products?page=2');
  const head = await api('/products?page=2', { method: 'HEAD' });
  expect(head.status).toBe(200);
  expect(head.text).toBe('');
  for (const name of ['content-type', 'content-length', 'x-total-count', 'link', 'x-main-language']) {
    expect(head.headers[name], name).toBe(get.headers[name]);
  }
  expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(get.text));
  const missing = await api('/products/123', { method: 'HEAD' });
  expect(missing.status).toBe(404);
  expect(missing.text).toBe('');
});

test('an unexpected exception is reported and answered 500 in the standard shape, with the store headers', async () => {
  const reported: unknown[] = [];
  const state = new TwinState({ clockMode: 'virtual', deliverySignal: new AbortController().signal });
  const failing = new Router<ApiContext>([
    {
      path: 'boom',
      methods: {
        GET: () => {
          throw new Error('handler bug');
        },
      },
    },
  ]);
  const server = createServer((req, res) => {
    void handleApiRequest(req, res, parseRequestTarget(req.url ?? '/'), {
      twin: state,
      router: failing,
      origin: 'http://twin.test',
      reportInternalError: (error) => reported.push(error),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const answer = await send(`http://127.0.0.1:${port}/v1/100002/boom`, { headers: { 'User-Agent': USER_AGENT, Authentication: 'bearer twin-token-100002' } });
    expect(answer.status).toBe(500);
    expect(answer.json()).toEqual({ code: 500, message: 'Internal Server Error', description: null });
    expect(answer.headers['x-main-language']).toBe('pt');
    expect(answer.headers['x-rate-limit-limit']).toBe(String(bucketSize));
    expect(reported).toHaveLength(1);
    expect(String(reported[0])).toContain('handler bug');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
