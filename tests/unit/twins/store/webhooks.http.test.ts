import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '../../../../src/testing/harnessTest.ts';
import type { RunningStoreTwin } from '../../../../src/twins/store/server.ts';
import { control, createStore, startTestTwin, storeApi, type TwinStoreInfo } from './twinHttp.ts';

interface Received {
  readonly body: string;
  readonly signature: string | undefined;
  readonly contentType: string | undefined;
}

let twin: RunningStoreTwin;
let internalErrors: unknown[];
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];

test.beforeAll(async () => {
  ({ twin, internalErrors } = await startTestTwin());
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: req.headers['x-linkedstore-hmac-sha256'] as string | undefined,
        contentType: req.headers['content-type'],
      });
      res.statusCode = req.url === '/fail' ? 500 : 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await twin.close();
  await new Promise((resolve) => receiver.close(resolve));
  expect(internalErrors).toEqual([]);
});
test.beforeEach(() => {
  received.length = 0;
});

async function register(store: TwinStoreInfo, event: string, path = '/hook'): Promise<void> {
  const answer = await storeApi(store)('/webhooks', { method: 'POST', json: { event, url: `${receiverUrl}${path}` } });
  expect(answer.status).toBe(201);
}

function flush(store: TwinStoreInfo): Promise<Array<{ event: string; state: string; status: number | null; body: string; headers: Record<string, string> }>> {
  return control(twin.url, 'POST', `/stores/${store.storeId}/deliveries/flush`);
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
  expect(outbox.map((delivery) => [delivery.event, delivery.state, delivery.status])).toEqual([
    ['product/created', 'delivered', 200],
    ['product/updated', 'delivered', 200],
    ['product/deleted', 'delivered', 200],
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

test('failing receivers and non-loopback URLs are recorded, never crash the twin', async () => {
  const store = await createStore(twin.url, { products: 0 });
  await register(store, 'category/created', '/fail');
  await storeApi(store)('/webhooks', { method: 'POST', json: { event: 'category/created', url: 'http://127.0.0.1:1/closed' } });
  await storeApi(store)('/webhooks', { method: 'POST', json: { event: 'category/created', url: 'https://hooks.example.test/in' } });
  expect((await storeApi(store)('/categories', { method: 'POST', json: { name: 'Nueva' } })).status).toBe(201);
  const outbox = await flush(store);
  expect(outbox.map((delivery) => [delivery.state, delivery.status])).toEqual([
    ['failed', 500],
    ['failed', null],
    ['not-sent', null],
  ]);
  expect(await control(twin.url, 'GET', '/health')).toEqual({ ok: true });
});
