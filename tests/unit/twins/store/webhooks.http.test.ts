import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { systemClock, VirtualClock } from '../../../../src/clock/Clock.ts';
import type { RunningStoreTwin } from '../../../../src/twins/store/server.ts';
import { RETRY_SCHEDULE_MS, RETRY_WINDOW_MS } from '../../../../src/twins/store/webhookDelivery.ts';
import { WebhookOutbox, type DeliveryRecord } from '../../../../src/twins/store/webhookOutbox.ts';
import { WEBHOOK_EVENTS } from '../../../../src/twins/store/resources/webhooks.ts';
import { advanceClock, control, createStore, startTestTwin, storeApi, type TwinStoreInfo } from './twinHttp.ts';

interface Received {
  readonly path: string;
  readonly body: string;
  readonly signature: string | undefined;
  readonly contentType: string | undefined;
}

let twin: RunningStoreTwin;
let internalErrors: unknown[];
let receiver: Server;
let receiverUrl: string;
let garbage: NetServer;
let garbageUrl: string;
const received: Received[] = [];
/** `/flaky-N-<tag>` answers 500 to its first N deliveries, then 200. */
const flakyCounts = new Map<string, number>();

test.beforeAll(async () => {
  ({ twin, internalErrors } = await startTestTwin());
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({
        path,
        body: Buffer.concat(chunks).toString('utf8'),
        signature: req.headers['x-linkedstore-hmac-sha256'] as string | undefined,
        contentType: req.headers['content-type'],
      });
      if (path === '/hang') return; // never answers: the attempt's time limit ends it
      const flaky = /^\/flaky-(\d+)/.exec(path);
      const seen = (flakyCounts.get(path) ?? 0) + 1;
      flakyCounts.set(path, seen);
      res.statusCode = path === '/fail' || (flaky && seen <= Number(flaky[1])) ? 500 : 200;
      res.end(res.statusCode === 200 ? 'ok' : 'try later');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // A receiver whose answer is not HTTP at all.
  garbage = createNetServer((socket) => {
    socket.on('error', () => undefined);
    socket.resume(); // reads the request, so it sees the twin close the connection
    socket.end('\x00\x01 not http at all \r\n\r\n');
  });
  await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
  garbageUrl = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}/hook`;
});
test.afterAll(async () => {
  receiver.closeAllConnections(); // the /hang request stays open until closed
  await new Promise((resolve) => receiver.close(resolve));
  await new Promise((resolve) => garbage.close(resolve));
  await twin.close();
  expect(internalErrors).toEqual([]);
});
test.beforeEach(() => {
  received.length = 0;
});

async function register(store: TwinStoreInfo, event: string, path = '/hook'): Promise<void> {
  const answer = await storeApi(store)('/webhooks', { method: 'POST', json: { event, url: path.startsWith('http') ? path : `${receiverUrl}${path}` } });
  expect(answer.status).toBe(201);
}

function flush(store: TwinStoreInfo): Promise<DeliveryRecord[]> {
  return control(twin.url, 'POST', `/stores/${store.storeId}/deliveries/flush`);
}

function deliveries(store: TwinStoreInfo): Promise<DeliveryRecord[]> {
  return control(twin.url, 'GET', `/stores/${store.storeId}/deliveries`);
}

test('store.webhooks.hmac-signature: product events are POSTed with the lower-case hex HMAC of the raw body', async () => {
  const store = await createStore(twin.url, { products: 0 });
  for (const event of ['product/created', 'product/updated', 'product/deleted', 'category/created']) await register(store, event);
  const api = storeApi(store);
  const product = (await api('/products', { method: 'POST', json: { name: 'Hook me' } })).json();
  await api(`/products/${product.id}`, { method: 'PUT', json: { name: 'Hooked' } });
  await api(`/products/${product.id}`, { method: 'PUT', headers: { 'Content-Length': '0' } }); // no change: no event
  await api(`/products/${product.id}`, { method: 'DELETE' });
  const outbox = await flush(store);
  expect(outbox.map((delivery) => [delivery.event, delivery.state, delivery.status, delivery.attempts.length])).toEqual([
    ['product/created', 'delivered', 200, 1],
    ['product/updated', 'delivered', 200, 1],
    ['product/deleted', 'delivered', 200, 1],
  ]);
  expect(received.map((delivery) => JSON.parse(delivery.body))).toEqual([
    { store_id: store.storeId, event: 'product/created', id: product.id },
    { store_id: store.storeId, event: 'product/updated', id: product.id },
    { store_id: store.storeId, event: 'product/deleted', id: product.id },
  ]);
  for (const delivery of received) {
    expect(delivery.contentType).toBe('application/json');
    expect(delivery.signature).toBe(createHmac('sha256', store.appSecret).update(delivery.body).digest('hex'));
    expect(delivery.signature).toMatch(/^[0-9a-f]{64}$/);
  }
});

test('store.webhooks.suspension-events and not-called-while-suspended', async () => {
  const store = await createStore(twin.url, { products: 2 });
  await register(store, 'app/suspended');
  await register(store, 'app/resumed');
  await register(store, 'product/created');
  await control(twin.url, 'POST', `/stores/${store.storeId}/suspend`);
  await control(twin.url, 'POST', `/stores/${store.storeId}/suspend`); // already suspended: no second event
  expect((await storeApi(store)('/products', { method: 'POST', json: { name: 'While suspended' } })).status).toBe(402);
  await control(twin.url, 'POST', `/stores/${store.storeId}/resume`);
  const outbox = await flush(store);
  expect(outbox.map((delivery) => delivery.event)).toEqual(['app/suspended', 'app/resumed']);
  expect(received.map((delivery) => JSON.parse(delivery.body))).toEqual([
    { store_id: store.storeId, event: 'app/suspended', id: store.storeId },
    { store_id: store.storeId, event: 'app/resumed', id: store.storeId },
  ]);
});

test('store.webhooks.retry-schedule: a failed first answer is tried again when the clock reaches the next slot, not before', async () => {
  const store = await createStore(twin.url, { products: 0 });
  await register(store, 'category/created', '/flaky-2-a');
  await storeApi(store)('/categories', { method: 'POST', json: { name: 'Nueva' } });
  let [delivery] = await flush(store);
  expect(delivery!.state).toBe('pending');
  expect(delivery!.attempts.map((a) => [a.attempt, a.at - delivery!.eventAt, a.status])).toEqual([[1, 0, 500]]);
  expect(delivery!.nextAttemptAt! - delivery!.eventAt).toBe(RETRY_SCHEDULE_MS[1]);
  expect(delivery!.attempts[0]!.answer?.body).toBe('try later');

  await advanceClock(twin.url, store.storeId, RETRY_SCHEDULE_MS[1]! - 1); // one ms short: nothing new
  expect((await deliveries(store))[0]!.attempts).toHaveLength(1);
  await advanceClock(twin.url, store.storeId, 1);
  [delivery] = await deliveries(store); // the clock's answer came after the due attempts
  expect(delivery!.attempts.map((a) => a.status)).toEqual([500, 500]);
  await advanceClock(twin.url, store.storeId, RETRY_SCHEDULE_MS[2]! - RETRY_SCHEDULE_MS[1]!);
  [delivery] = await deliveries(store);
  expect(delivery!.state).toBe('delivered');
  expect(delivery!.nextAttemptAt).toBeNull();
  expect(delivery!.attempts.map((a) => [a.attempt, a.at - delivery!.eventAt, a.status])).toEqual([
    [1, 0, 500],
    [2, RETRY_SCHEDULE_MS[1], 500],
    [3, RETRY_SCHEDULE_MS[2], 200],
  ]);
  expect(new Set(received.map((r) => r.body)).size, 'every attempt sends the same body').toBe(1);
});

test('store.webhooks.retry-window: a receiver that never answers 2xx is tried on every slot until 48 h after the event, then given up', async () => {
  const store = await createStore(twin.url, { products: 0 });
  await register(store, 'category/created', '/fail');
  await register(store, 'category/created', 'http://127.0.0.1:1/refused');
  await register(store, 'category/created', garbageUrl);
  await storeApi(store)('/categories', { method: 'POST', json: { name: 'Nunca' } });
  await advanceClock(twin.url, store.storeId, RETRY_WINDOW_MS); // one jump: every slot it passed over runs, each at its time
  const outbox = await deliveries(store);
  expect(outbox).toHaveLength(3);
  for (const delivery of outbox) {
    expect(delivery.state).toBe('failed');
    expect(delivery.nextAttemptAt).toBeNull();
    expect(delivery.attempts.map((a) => a.at - delivery.eventAt)).toEqual(RETRY_SCHEDULE_MS);
    expect(delivery.error).toMatch(/gave up after 15 attempts/);
  }
  const [fail, refused, notHttp] = outbox;
  expect(fail!.attempts.every((a) => a.status === 500)).toBe(true);
  expect(refused!.attempts[0]!.error).toMatch(/ECONNREFUSED/);
  expect(notHttp!.attempts[0]!.status).toBeNull();
  expect(notHttp!.attempts[0]!.error).toBeTruthy();
  await advanceClock(twin.url, store.storeId, 24 * 3_600_000);
  expect(
    (await deliveries(store)).map((d) => d.attempts.length),
    'nothing after the window',
  ).toEqual([15, 15, 15]);
  expect(await control(twin.url, 'GET', '/health')).toEqual({ ok: true });
});

test('store.webhooks.not-called-while-suspended: a retry due while suspended is skipped, and the schedule goes on after resumption', async () => {
  const store = await createStore(twin.url, { products: 0 });
  await register(store, 'category/created', '/flaky-1-b');
  await storeApi(store)('/categories', { method: 'POST', json: { name: 'Pausa' } });
  await flush(store);
  await control(twin.url, 'POST', `/stores/${store.storeId}/suspend`);
  await advanceClock(twin.url, store.storeId, RETRY_SCHEDULE_MS[3]!); // slots 2, 3 and 4 fall while suspended
  let [delivery] = await deliveries(store);
  expect(delivery!.attempts.map((a) => [a.attempt, a.status, a.skipped ?? false])).toEqual([
    [1, 500, false],
    [2, null, true],
    [3, null, true],
    [4, null, true],
  ]);
  expect(
    received.filter((r) => r.path === '/flaky-1-b'),
    'not called while suspended',
  ).toHaveLength(1);
  await control(twin.url, 'POST', `/stores/${store.storeId}/resume`);
  await advanceClock(twin.url, store.storeId, RETRY_SCHEDULE_MS[4]! - RETRY_SCHEDULE_MS[3]!);
  [delivery] = await deliveries(store);
  expect(delivery!.state).toBe('delivered');
  expect(delivery!.attempts.at(-1)).toMatchObject({ attempt: 5, status: 200 });
});

test('non-loopback URLs are recorded as not sent, never called', async () => {
  const store = await createStore(twin.url, { products: 0 });
  await register(store, 'category/created', 'https://hooks.example.test/in');
  expect((await storeApi(store)('/categories', { method: 'POST', json: { name: 'Lejos' } })).status).toBe(201);
  const outbox = await flush(store);
  expect(outbox.map((delivery) => [delivery.state, delivery.attempts.length, delivery.nextAttemptAt])).toEqual([['not-sent', 0, null]]);
});

test('store.webhooks.every-event-kind: every listed kind and any order kind register; what is not an event kind gets the 422 listing them', async () => {
  const store = await createStore(twin.url, { products: 0, metered: false });
  const api = storeApi(store);
  for (const event of [...WEBHOOK_EVENTS, 'order/some_future_kind']) {
    const answer = await api('/webhooks', { method: 'POST', json: { event, url: 'https://hooks.example.test/in' } });
    expect(answer.status, event).toBe(201);
  }
  for (const event of ['nothing/happened', 'product/exploded', 'customer', 'ORDER/PAID', '']) {
    const answer = await api('/webhooks', { method: 'POST', json: { event, url: 'https://hooks.example.test/in' } });
    expect(answer.status, event).toBe(422);
    expect(Object.keys(answer.json()), 'only the event is wrong').toEqual(['event']);
    expect(answer.json().event[0]).toMatch(/^Invalid event specified\. Events allowed: app\/uninstalled, app\/suspended, app\/resumed, /);
    expect(answer.json().event[0]).toContain('checkout/created');
  }
});

test('store.webhooks.answer-time-limit: a receiver that does not answer in time is a failed attempt, retried', async () => {
  const clock = new VirtualClock(Date.UTC(2026, 0, 1));
  const closing = new AbortController();
  // The twin's limit is 5 s; the same outbox with a short one, so the test does not wait 5 s.
  const outbox = new WebhookOutbox({ signal: closing.signal, clock, timeoutMs: 200 });
  try {
    outbox.enqueue({ event: 'product/created', url: `${receiverUrl}/hang`, body: '{"store_id":1,"event":"product/created","id":2}', secret: 's' });
    await outbox.runDue();
    const [delivery] = outbox.list();
    expect(delivery!.state).toBe('pending');
    expect(delivery!.attempts[0]!.error).toMatch(/^TIMEOUT: no answer within 200 ms/);
    expect(delivery!.nextAttemptAt! - delivery!.eventAt).toBe(RETRY_SCHEDULE_MS[1]);
  } finally {
    closing.abort();
  }
});

test('the schedule backs off: the gaps never shrink, and the last slot is the end of the 48 h window', () => {
  const gaps = RETRY_SCHEDULE_MS.slice(1).map((at, i) => at - RETRY_SCHEDULE_MS[i]!);
  expect(gaps.every((gap, i) => gap > 0 && (i === 0 || gap >= gaps[i - 1]!))).toBe(true);
  expect(RETRY_SCHEDULE_MS[0]).toBe(0);
  expect(RETRY_SCHEDULE_MS.at(-1)).toBe(RETRY_WINDOW_MS);
});

test("store.webhooks.retry-schedule on a real clock: a timer that fires before the store's clock says the slot is due waits again, and the retry is made", async () => {
  const closing = new AbortController();
  // A clock that runs at half the timers' pace: every timer fires early by its clock (as Node's may, by a millisecond).
  const started = Date.now();
  const slowClock = { now: () => started + Math.floor((Date.now() - started) / 2), sleep: systemClock.sleep };
  const outbox = new WebhookOutbox({ signal: closing.signal, clock: slowClock, schedule: [0, 40, 80] });
  try {
    outbox.enqueue({ event: 'product/created', url: `${receiverUrl}/fail`, body: '{"store_id":1,"event":"product/created","id":5}', secret: 's' });
    await expect.poll(() => outbox.list()[0]!.attempts.length, { timeout: 5_000 }).toBe(3);
  } finally {
    closing.abort();
  }
});

test('store.webhooks.retry-schedule on a real clock: a timer makes each retry when it is due, and the twin closing stops them', async () => {
  const closing = new AbortController();
  // The twin's schedule on a real clock is minutes apart; the same outbox on a schedule of milliseconds.
  const outbox = new WebhookOutbox({ signal: closing.signal, clock: systemClock, schedule: [0, 50, 100, 10_000] });
  try {
    outbox.enqueue({ event: 'product/created', url: `${receiverUrl}/flaky-2-real`, body: '{"store_id":1,"event":"product/created","id":3}', secret: 's' });
    await expect.poll(() => outbox.list()[0]!.state, { timeout: 5_000 }).toBe('delivered');
    const [delivery] = outbox.list();
    expect(delivery!.attempts.map((a) => [a.attempt, a.at - delivery!.eventAt, a.status])).toEqual([
      [1, 0, 500],
      [2, 50, 500],
      [3, 100, 200],
    ]);
    outbox.enqueue({ event: 'product/created', url: `${receiverUrl}/fail`, body: '{"store_id":1,"event":"product/created","id":4}', secret: 's' });
    await expect.poll(() => outbox.list()[1]!.attempts.length, { timeout: 5_000 }).toBe(3);
    closing.abort(); // the 10 s slot's timer goes with the twin
    expect(outbox.list()[1]!.state).toBe('pending');
  } finally {
    closing.abort();
  }
});
