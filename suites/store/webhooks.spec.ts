import { createHmac } from 'node:crypto';
import { expect, test, verifies, type StoreUnderTest } from '../fixtures/storeFixtures.ts';
import { expectSchema, expectStatus, jsonOf } from '../fixtures/storeChecks.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhookReceiver.ts';
import { says } from '../../src/testing/ruleTest.ts';
import { STORE_CONTRACT } from '../../src/rules/storeContract.ts';
import type { Rule } from '../../src/rules/Rule.ts';

// Webhooks: registration, the app/suspended and app/resumed events, delivery signatures.

async function register(store: StoreUnderTest, event: string, url: string, rule: Rule): Promise<void> {
  const res = await store.send({ method: 'POST', path: '/webhooks', json: { event, url } });
  expectStatus(res, 201, rule);
  store.track('webhooks', (jsonOf(res, rule) as { id: number }).id);
}

/** Registers a loopback receiver for `events`, runs `act`, waits for the deliveries and returns them. */
async function withReceiver(store: StoreUnderTest, rule: Rule, events: readonly string[], act: () => Promise<void>): Promise<WebhookReceiver> {
  const receiver = await startWebhookReceiver();
  try {
    for (const event of events) await register(store, event, receiver.url, rule);
    await act();
    await store.twin!.control.flushDeliveries(store.twin!.info.storeId);
    return receiver;
  } finally {
    await receiver.close();
  }
}

function eventsOf(receiver: WebhookReceiver): string[] {
  return receiver.received.map((d) => (d.json as { event?: string } | undefined)?.event ?? '(no event)');
}

test(
  ...verifies('store.webhooks.registration', 'app/suspended and app/resumed can be registered', async ({ store, rule }) => {
    for (const event of STORE_CONTRACT.appEvents) {
      const res = await store.send({ method: 'POST', path: '/webhooks', json: { event, url: 'https://example.com/harness-hooks' } });
      expectStatus(res, 201, rule);
      const body = jsonOf(res, rule) as { id: number; event: string; url: string };
      store.track('webhooks', body.id);
      expectSchema(body, 'store/webhook', rule);
      expect(body.event, says(rule, 'the webhook is registered for the event asked')).toBe(event);
    }
  }),
);

test(
  ...verifies('store.webhooks.invalid-registration-422', 'an unknown event and a plain-http url', async ({ store, rule }) => {
    const res = await store.send({ method: 'POST', path: '/webhooks', json: { event: 'nothing/happened', url: 'http://example.com/hooks' }, retry: false });
    if (res.status === 201) store.track('webhooks', (jsonOf(res, rule) as { id: number }).id);
    expectStatus(res, 422, rule);
    const body = jsonOf(res, rule) as Record<string, unknown>;
    expectSchema(body, 'store/error-validation', rule);
    expect(Object.keys(body), says(rule, 'the 422 names the event')).toContain('event');
    expect(Object.keys(body), says(rule, 'the 422 names the url')).toContain('url');
  }),
);

test(
  ...verifies('store.webhooks.suspension-events', 'app/suspended on suspension, app/resumed on resumption', async ({ store, rule }) => {
    test.skip(!store.twin, 'needs the twin to suspend the store and a receiver it can reach');
    const twin = store.twin!;
    const receiver = await withReceiver(store, rule, STORE_CONTRACT.appEvents, async () => {
      await twin.suspend();
      await twin.control.flushDeliveries(twin.info.storeId);
      await twin.resume();
    });
    const events = eventsOf(receiver);
    expect(events, says(rule, 'one app/suspended, then one app/resumed')).toEqual(['app/suspended', 'app/resumed']);
    for (const delivery of receiver.received) {
      expect(delivery.json, says(rule, 'the delivery names the store')).toMatchObject({ store_id: twin.info.storeId });
    }
  }),
);

test(
  ...verifies('store.webhooks.not-called-while-suspended', 'nothing but app/suspended until resumption', async ({ store, rule }) => {
    test.skip(!store.twin, 'needs the twin to suspend the store');
    const twin = store.twin!;
    const receiver = await withReceiver(store, rule, ['product/created', 'category/created', ...STORE_CONTRACT.appEvents], async () => {
      await twin.suspend();
      await store.send({ method: 'POST', path: '/products', json: { name: 'Not while suspended' }, retry: false });
      await store.send({ method: 'POST', path: '/categories', json: { name: 'Not while suspended' }, retry: false });
      await twin.advance(60_000);
      await twin.resume();
      await store.client.createProduct({ name: 'After resumption' });
    });
    const events = eventsOf(receiver);
    const resumedAt = events.indexOf('app/resumed');
    expect(resumedAt, says(rule, `app/resumed was delivered (got ${events.join(', ')})`)).toBeGreaterThan(-1);
    expect(events.slice(0, resumedAt), says(rule, 'while suspended only the suspension itself is announced')).toEqual(['app/suspended']);
    expect(events.slice(resumedAt), says(rule, 'webhooks are called again after resumption')).toEqual(['app/resumed', 'product/created']);
  }),
);

test(
  ...verifies('store.webhooks.hmac-signature', 'HMAC-SHA256 of the raw body with the app secret, lower-case hex', async ({ store, rule }) => {
    test.skip(!store.twin, 'needs a receiver the twin can reach');
    const twin = store.twin!;
    const receiver = await withReceiver(store, rule, ['product/created'], async () => {
      await store.client.createProduct({ name: 'Signed delivery' });
    });
    expect(receiver.received, says(rule, 'product/created was delivered')).toHaveLength(1);
    const [delivery] = receiver.received;
    const expected = createHmac('sha256', twin.info.appSecret).update(delivery!.rawBody).digest('hex');
    expect(delivery!.headers['x-linkedstore-hmac-sha256'], says(rule, 'the signature of the raw body')).toBe(expected);
  }),
);
