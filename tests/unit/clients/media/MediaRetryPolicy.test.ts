import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { VirtualClock } from '../../../../src/clock/Clock.ts';
import { MediaClient } from '../../../../src/clients/media/MediaClient.ts';
import { MediaApiError, MediaTransportError } from '../../../../src/clients/media/errors.ts';
import { MediaRetryPolicy } from '../../../../src/clients/media/MediaRetryPolicy.ts';
import type { Exchange, MediaClientOptions } from '../../../../src/clients/media/types.ts';
import { refusedOrigin, resource, startFakeMedia, TOKEN, type FakeMedia, type Reply } from './fakeMedia.ts';

// Service trouble (5xx) and the per-token throttle (429 text/plain "Retry later", field notes: Limits).

let media: FakeMedia;
let script: Reply[] = [];

test.beforeAll(async () => {
  media = await startFakeMedia(() => script.shift() ?? { status: 200, json: { data: [] } });
});
test.afterAll(async () => {
  await media.close();
});
test.beforeEach(() => {
  media.requests.length = 0;
});

function setup(options: Partial<MediaClientOptions> = {}) {
  const clock = new VirtualClock(0);
  const exchanges: Exchange[] = [];
  const client = new MediaClient({ baseUrl: media.baseUrl, token: TOKEN, clock, onExchange: (e) => exchanges.push(e), ...options });
  return { clock, exchanges, client };
}

const fault = (status: number, headers: Record<string, string> = {}): Reply => ({
  status,
  headers,
  json: { errors: [{ status: String(status), title: 'Trouble' }] },
});
const throttled = (retryAfter?: string): Reply => ({
  status: 429,
  headers: { 'content-type': 'text/plain', ...(retryAfter ? { 'retry-after': retryAfter } : {}) },
  text: 'Retry later',
});

for (const status of [500, 502, 503, 504]) {
  test(`${status} twice, then served: back-off 250 ms, then 500 ms`, async () => {
    script = [fault(status), fault(status), { status: 200, json: { data: [resource('anime', '1')], meta: { count: 1 } } }];
    const { client, clock, exchanges } = setup();
    const page = await client.list('anime');
    expect(page.data.map((r) => r.id)).toEqual(['1']);
    expect(clock.now()).toBe(250 + 500);
    expect(exchanges.map((e) => [e.attempt, e.response?.status, e.retry?.afterMs])).toEqual([
      [0, status, 250],
      [1, status, 500],
      [2, 200, undefined],
    ]);
  });
}

test('429 "Retry later" with Retry-After: waits exactly that long on the clock, then the write goes through', async () => {
  script = [throttled('5'), { status: 201, json: { data: resource('posts', '9') } }];
  const { client, clock, exchanges } = setup();
  const doc = await client.create('posts', 'posts', { content: 'hi' });
  expect(doc.data!.id).toBe('9');
  expect(clock.now()).toBe(5_000);
  expect(exchanges[0]!.retry).toEqual({ reason: '429 Too Many Requests: throttled, retrying later (Retry-After)', afterMs: 5_000 });
  expect(media.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
});

test('a Retry-After longer than maxDelayMs is not retried early: the 429 goes to the caller, saying how long to wait', async () => {
  script = [throttled('60')];
  const { client, clock } = setup();
  const error = await client.create('posts', 'posts', { content: 'hi' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MediaApiError);
  expect((error as MediaApiError).retryAfter).toBe('60');
  expect((error as Error).message).toContain('(Retry-After: 60)');
  expect(clock.now()).toBe(0);
  expect(media.requests).toHaveLength(1);
});

test('429 with a short Retry-After (seconds or an HTTP date) is honoured as given', async () => {
  script = [throttled('2'), throttled(new Date(3_000).toUTCString()), { status: 200, json: { data: [] } }];
  const { client, clock, exchanges } = setup();
  await client.list('anime');
  expect(exchanges.map((e) => e.retry?.afterMs)).toEqual([2_000, 1_000, undefined]);
  expect(clock.now()).toBe(3_000);
});

test('429 without Retry-After backs off like 5xx', async () => {
  script = [throttled(), { status: 200, json: { data: [] } }];
  const { client, clock } = setup();
  await client.list('anime');
  expect(clock.now()).toBe(250);
});

test('back-off is bounded: a lasting 503 ends in a MediaApiError after maxRetries', async () => {
  script = Array.from({ length: 10 }, () => fault(503));
  const { client, clock } = setup({ retry: { maxRetries: 3, baseDelayMs: 1_000, maxDelayMs: 3_000 } });
  const error = await client.list('anime').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MediaApiError);
  expect((error as MediaApiError).status).toBe(503);
  expect((error as MediaApiError).retries).toBe(3);
  expect((error as Error).message).toMatch(/retried 3 time/);
  expect(clock.now()).toBe(1_000 + 2_000 + 3_000);
  expect(media.requests).toHaveLength(4);
});

test('a lasting 429 ends in a MediaApiError that says so and shows the text', async () => {
  script = Array.from({ length: 5 }, () => throttled('1'));
  const { client } = setup({ retry: { maxRetries: 2 } });
  const error = await client.create('follows', 'follows', {}).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MediaApiError);
  expect((error as Error).message).toMatch(/^Media API answered 429 Too Many Requests to POST .*\/follows \("Retry later"\)\. The service throttled/);
  expect((error as Error).message).toContain('Fix: slow down');
});

test('retry: false answers the first fault; other statuses are never retried', async () => {
  script = [fault(503)];
  const { client } = setup();
  expect((await client.send({ method: 'GET', path: '/anime', retry: false })).status).toBe(503);
  for (const status of [400, 401, 403, 404, 406, 415, 422]) {
    script = [fault(status)];
    expect((await client.send({ method: 'GET', path: '/anime' })).status).toBe(status);
  }
  expect(media.requests).toHaveLength(8);
});

test('network failures are retried, then a MediaTransportError names the address and the fix', async () => {
  const origin = await refusedOrigin();
  const { client, clock, exchanges } = setup({ baseUrl: `${origin}/api/edge`, retry: { maxRetries: 2 } });
  const error = await client.list('anime').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MediaTransportError);
  expect((error as MediaTransportError).causeCode).toBe('ECONNREFUSED');
  expect((error as MediaTransportError).attempts).toBe(3);
  expect((error as Error).message).toContain(`GET ${origin}/api/edge/anime got no answer after 3 attempt(s)`);
  expect((error as Error).message).toContain('Fix: check that the Media API (or its twin) is running');
  expect(clock.now()).toBe(250 + 500);
  expect(exchanges.map((e) => e.error?.code)).toEqual(['ECONNREFUSED', 'ECONNREFUSED', 'ECONNREFUSED']);
});

test('a dropped connection mid-answer is retried', async () => {
  script = [{ destroy: true }, { status: 200, json: { data: [] } }];
  const { client } = setup();
  expect((await client.send({ method: 'GET', path: '/anime' })).status).toBe(200);
  expect(media.requests).toHaveLength(2);
});

test('the policy on its own: caps, budget and the statuses it retries', () => {
  const policy = new MediaRetryPolicy({ maxRetries: 2, baseDelayMs: 100, maxDelayMs: 300 });
  expect([0, 1, 2, 3].map((n) => policy.backoffMs(n))).toEqual([100, 200, 300, 300]);
  expect(policy.decide({ status: 503, headers: {} }, 2, 0)).toBeUndefined();
  expect(policy.decide({ status: 501, headers: {} }, 0, 0)).toBeUndefined();
  expect(policy.decide({ status: 429, headers: { 'retry-after': '0.3' } }, 0, 0)?.afterMs).toBe(300);
  expect(policy.decide({ status: 429, headers: { 'retry-after': '60' } }, 0, 0)).toBeUndefined();
  expect(policy.decideNetwork('ECONNRESET', 0)?.afterMs).toBe(100);
  expect(policy.decideNetwork('ERR_INVALID_URL', 0)).toBeUndefined();
});
