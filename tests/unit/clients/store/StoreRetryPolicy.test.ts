import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { VirtualClock } from '../../../../src/clock/Clock.ts';
import { StoreClient } from '../../../../src/clients/store/StoreClient.ts';
import { RateLimitError, StoreApiError, StoreTransportError } from '../../../../src/clients/store/errors.ts';
import { retryAfterMs } from '../../../../src/http/retryAfterMs.ts';
import { rateLimitWaitMs, StoreRetryPolicy } from '../../../../src/clients/store/StoreRetryPolicy.ts';
import type { Exchange, StoreClientOptions } from '../../../../src/clients/store/types.ts';
import { MS_PER_LEAK, STORE_CONTRACT } from '../../../../src/rules/storeContract.ts';
import { refusedOrigin, startFakeStore, STORE_ID, TOKEN, USER_AGENT, type FakeStore, type Reply } from './fakeStore.ts';

// store.errors.server-errors-retried and store.client.paces-to-bucket (waiting out a 429).

let store: FakeStore;
let script: Reply[] = [];

test.beforeAll(async () => {
  store = await startFakeStore(() => script.shift() ?? { status: 200, json: [] });
});
test.afterAll(async () => {
  await store.close();
});
test.beforeEach(() => {
  store.requests.length = 0;
});

function setup(options: Partial<StoreClientOptions> = {}) {
  const clock = new VirtualClock(0);
  const exchanges: Exchange[] = [];
  const client = new StoreClient({ baseUrl: store.baseUrl, token: TOKEN, userAgent: USER_AGENT, clock, onExchange: (e) => exchanges.push(e), ...options });
  return { clock, exchanges, client };
}

const fault = (status: number, headers: Record<string, string> = {}): Reply => ({
  status,
  headers,
  json: { code: status, message: 'Trouble', description: null },
});

for (const status of STORE_CONTRACT.retryableStatuses) {
  test(`${status} twice, then served: back-off 250 ms, then 500 ms`, async () => {
    script = [fault(status), fault(status), { status: 200, json: [{ id: 1 }] }];
    const { client, clock, exchanges } = setup();
    const page = await client.listProducts();
    expect(page.items).toEqual([{ id: 1 }]);
    expect(clock.now()).toBe(250 + 500);
    expect(exchanges.map((e) => [e.attempt, e.response?.status, e.retry?.afterMs])).toEqual([
      [0, status, 250],
      [1, status, 500],
      [2, 200, undefined],
    ]);
  });
}

test('back-off is bounded: a lasting 503 ends in a StoreApiError after maxRetries', async () => {
  script = Array.from({ length: 10 }, () => fault(503));
  const { client, clock } = setup({ retry: { maxRetries: 3, baseDelayMs: 1_000, maxDelayMs: 3_000 } });
  const error = await client.listCategories().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(StoreApiError);
  expect((error as StoreApiError).status).toBe(503);
  expect((error as StoreApiError).code).toBe('STORE_ERR_API');
  expect((error as Error).message).toMatch(/retried 3 time/);
  expect(store.requests).toHaveLength(4);
  expect(clock.now()).toBe(1_000 + 2_000 + 3_000);
});

test('Retry-After is honoured, capped at maxDelayMs', async () => {
  script = [fault(503, { 'Retry-After': '2' }), fault(503, { 'retry-after': '120' }), { status: 200, json: [] }];
  const { client, clock } = setup();
  await client.listProducts();
  expect(clock.now()).toBe(2_000 + 8_000);
});

test('a 429 is waited out from the rate headers, lower-case or not, and retried', async () => {
  // A full bucket: room for one after Reset − (Limit − 1) × 500 ms.
  script = [
    fault(429, { 'x-rate-limit-limit': '40', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': '20000' }),
    fault(429, { 'X-Rate-Limit-Limit': '40', 'X-Rate-Limit-Remaining': '0', 'X-Rate-Limit-Reset': '20300' }),
    fault(429),
    { status: 200, json: { id: 9 } },
  ];
  const { client, clock, exchanges } = setup({ pace: false });
  expect(await client.getProduct(9)).toEqual({ id: 9 });
  expect(exchanges.map((e) => e.retry?.afterMs)).toEqual([MS_PER_LEAK, 800, MS_PER_LEAK, undefined]);
  expect(clock.now()).toBe(MS_PER_LEAK + 800 + MS_PER_LEAK);
});

test('429s past the retry budget: RateLimitError; send() itself answers the 429', async () => {
  const limited = () => fault(429, { 'X-Rate-Limit-Limit': '40', 'X-Rate-Limit-Remaining': '0', 'X-Rate-Limit-Reset': '20000' });
  script = Array.from({ length: 3 }, limited);
  const { client } = setup({ retry: { maxRetries: 2 } });
  const error = await client.getProduct(1).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RateLimitError);
  expect((error as RateLimitError).code).toBe('STORE_ERR_RATE_LIMITED');
  expect((error as RateLimitError).rate).toEqual({ limit: 40, remaining: 0, reset: 20_000 });
  expect((error as Error).message).toMatch(/after 2 retries/);

  script = Array.from({ length: 3 }, limited);
  const res = await setup({ retry: { maxRetries: 2 } }).client.send({ method: 'GET', path: '/products' });
  expect(res.status).toBe(429);
});

test('retry: false answers the first status as it came', async () => {
  script = [fault(503)];
  const { client, clock } = setup();
  const res = await client.send({ method: 'GET', path: '/products', retry: false });
  expect(res.status).toBe(503);
  expect(clock.now()).toBe(0);
});

test('every attempt, retries included, waits for the pacer; each exchange says how long it was held', async () => {
  const full = { 'x-rate-limit-limit': '40', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': '20000' };
  script = [{ status: 200, headers: full, json: [] }, fault(503, full), { status: 200, json: [] }];
  const { client, exchanges } = setup();
  await client.send({ method: 'GET', path: '/products' });
  await client.send({ method: 'GET', path: '/products' });
  expect(exchanges.map((e) => [e.attempt, e.startedAt, e.pacedMs, e.response?.status, e.retry?.afterMs])).toEqual([
    [0, 0, 0, 200, undefined],
    // A full bucket: room for one after a leak.
    [0, MS_PER_LEAK, MS_PER_LEAK, 503, 250],
    // The retry waits out its back-off, then what is left of the leak.
    [1, MS_PER_LEAK + 250 + (MS_PER_LEAK - 250), MS_PER_LEAK - 250, 200, undefined],
  ]);
});

test('no answer at all: retried, then a StoreTransportError that names the fix and no secret', async () => {
  const origin = await refusedOrigin();
  const clock = new VirtualClock(0);
  const exchanges: Exchange[] = [];
  const client = new StoreClient({ baseUrl: `${origin}/v1/${STORE_ID}`, token: TOKEN, userAgent: USER_AGENT, clock, onExchange: (e) => exchanges.push(e) });
  const error = await client.send({ method: 'GET', path: '/products' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(StoreTransportError);
  expect((error as StoreTransportError).code).toBe('STORE_ERR_TRANSPORT');
  expect((error as StoreTransportError).causeCode).toBe('ECONNREFUSED');
  expect((error as StoreTransportError).attempts).toBe(4);
  expect((error as Error).message).toMatch(/Fix: check that the Store API/);
  expect((error as Error).message).not.toContain(TOKEN);
  expect(exchanges.map((e) => e.error?.code)).toEqual(Array(4).fill('ECONNREFUSED'));
  expect(clock.now()).toBe(250 + 500 + 1_000);
});

test('a dropped connection is retried like service trouble', async () => {
  script = [{ destroy: true }, { status: 200, json: [] }];
  const { client, clock } = setup();
  expect((await client.send({ method: 'GET', path: '/products' })).status).toBe(200);
  expect(store.requests).toHaveLength(2);
  expect(clock.now()).toBe(250);
});

test('policy arithmetic', () => {
  const policy = new StoreRetryPolicy({ baseDelayMs: 250, maxDelayMs: 1_500 });
  expect([0, 1, 2, 3, 4].map((n) => policy.backoffMs(n))).toEqual([250, 500, 1_000, 1_500, 1_500]);
  expect(rateLimitWaitMs(undefined)).toBe(MS_PER_LEAK);
  expect(rateLimitWaitMs({ limit: 40, remaining: 0, reset: 19_700 })).toBe(MS_PER_LEAK);
  expect(rateLimitWaitMs({ limit: 40, remaining: 0, reset: 25_000 })).toBe(5_500);
  expect(rateLimitWaitMs({ limit: 40, remaining: 0, reset: 20 }), 'a Reset in seconds still waits one leak').toBe(MS_PER_LEAK);
  expect(rateLimitWaitMs({ limit: 40, remaining: 0, reset: 10_000_000 }), 'never more than a full drain').toBe(40 * MS_PER_LEAK);
  expect(retryAfterMs('3', 0)).toBe(3_000);
  expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
  expect(retryAfterMs('soon', 0)).toBeUndefined();
  expect(policy.decide({ status: 404, headers: {} }, 0, 0)).toBeUndefined();
  expect(policy.decideNetwork('UND_ERR_INVALID_ARG', 0)).toBeUndefined();
});
