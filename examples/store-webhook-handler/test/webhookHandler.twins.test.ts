/**
 * The handler against the harness's twins: a product changed through the Store API reaches the handler as a
 * signed delivery; a first answer that fails is retried once the store's (virtual) clock reaches the next slot.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTwins, type Twins } from 'api-contract-harness/twins';
import { WebhookHandler } from '../src/webhookHandler.ts';

const USER_AGENT = 'webhook-handler (hooks@example.invalid)';
let twins: Twins;

before(async () => {
  twins = await startTwins();
});
after(() => twins.close());

async function createProduct(store: { baseUrl: string; token: string }, name: string): Promise<number> {
  const res = await fetch(`${store.baseUrl}/products`, {
    method: 'POST',
    headers: { Authentication: `bearer ${store.token}`, 'User-Agent': USER_AGENT, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  assert.equal(res.status, 201);
  return ((await res.json()) as { id: number }).id;
}

test('a product created through the API arrives at the handler, signed', async () => {
  const store = await twins.store.control.createStore({ products: 0 });
  const handler = new WebhookHandler({ secret: store.appSecret });
  const server = await handler.listen();
  try {
    await twins.store.control.registerWebhooks(store.storeId, server.url, ['product/created']);
    const id = await createProduct(store, 'Remera');
    const [delivery] = await twins.store.control.flushDeliveries(store.storeId);
    assert.equal(delivery?.state, 'delivered');
    assert.deepEqual([...handler.toSync], [`${store.storeId}:product/created:${id}`]);
  } finally {
    await server.close();
  }
});

test('a failing first answer is retried after the clock advances', async () => {
  const store = await twins.store.control.createStore({ products: 0 });
  let failures = 1;
  const handler = new WebhookHandler({
    secret: store.appSecret,
    process: () => {
      if (failures-- > 0) throw new Error('the team database is down');
    },
  });
  const server = await handler.listen();
  try {
    await twins.store.control.registerWebhooks(store.storeId, server.url, ['product/created']);
    await createProduct(store, 'Pantalón');
    let [delivery] = await twins.store.control.flushDeliveries(store.storeId);
    assert.equal(delivery?.state, 'pending');
    assert.equal(delivery?.attempts[0]?.status, 503);
    assert.equal(handler.toSync.size, 0);
    // Nothing sleeps: the store's clock moves to the next attempt, and the twin makes it before answering.
    await twins.store.control.advanceClock(store.storeId, delivery!.nextAttemptAt! - delivery!.eventAt);
    [delivery] = await twins.store.control.deliveries(store.storeId);
    assert.deepEqual(
      delivery?.attempts.map((a) => a.status),
      [503, 200],
    );
    assert.equal(delivery?.state, 'delivered');
    assert.equal(handler.toSync.size, 1);
  } finally {
    await server.close();
  }
});
