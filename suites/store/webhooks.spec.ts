import { createHmac } from 'node:crypto';
import { expect, test, verifies, type StoreUnderTest } from '../fixtures/storeFixtures.ts';
import { expectSchema, expectStatus, jsonOf, WRITE_SUCCESS } from '../fixtures/storeChecks.ts';
import { startWebhookReceiver, type ReceiverAnswer, type WebhookReceiver } from '../../src/testing/webhookReceiver.ts';
import { says } from '../../src/testing/ruleTest.ts';
import { STORE_CONTRACT } from '../../src/rules/storeContract.ts';
import type { Rule } from '../../src/rules/Rule.ts';
import { WEBHOOK_EVENT_SOURCES, WEBHOOK_EVENTS } from '../../src/twins/store/resources/webhooks.ts';
import { RETRY_SCHEDULE_MS, RETRY_WINDOW_MS, DELIVERY_TIMEOUT_MS } from '../../src/twins/store/webhookDelivery.ts';
import type { DeliveryRecord } from '../../src/twins/store/webhookOutbox.ts';
import { attachDeliveries } from '../../src/testing/deliveryAttachments.ts';

// Webhooks: registration, the app/suspended and app/resumed events, delivery signatures.

async function register(store: StoreUnderTest, event: string, url: string, rule: Rule): Promise<void> {
  const res = await store.send({ method: 'POST', path: '/webhooks', json: { event, url } });
  expectStatus(res, 201, rule);
  store.track('webhooks', (jsonOf(res, rule) as { id: number }).id);
}

/** Registers a loopback receiver for `events`, runs `act`, waits for the deliveries and returns them. */
async function withReceiver(
  store: StoreUnderTest,
  rule: Rule,
  events: readonly string[],
  act: () => Promise<void>,
  respond?: (count: number) => ReceiverAnswer,
): Promise<WebhookReceiver> {
  const receiver = await startWebhookReceiver(respond);
  try {
    for (const event of events) await register(store, event, receiver.url, rule);
    await act();
    attachDeliveries(test.info(), await store.twin!.control.flushDeliveries(store.twin!.info.storeId));
    return receiver;
  } finally {
    await receiver.close();
  }
}

function eventsOf(receiver: WebhookReceiver): string[] {
  return receiver.received.map((d) => (d.json as { event?: string } | undefined)?.event ?? '(no event)');
}

test(
  ...verifies('store.webhooks.registration', 'POST /webhooks answers 201 with the registration', async ({ store, rule }) => {
    const res = await store.send({ method: 'POST', path: '/webhooks', json: { event: 'product/created', url: 'https://example.com/harness-hooks' } });
    expectStatus(res, 201, rule);
    const body = jsonOf(res, rule) as { id: number; event: string; url: string };
    store.track('webhooks', body.id);
    expectSchema(body, 'store/webhook', rule);
    expect(body, says(rule, 'the registration as asked')).toMatchObject({ event: 'product/created', url: 'https://example.com/harness-hooks' });
  }),
);

test(
  ...verifies('store.webhooks.app-events-registrable', 'app/suspended and app/resumed: registered, read back, deleted', async ({ store, rule }) => {
    for (const event of STORE_CONTRACT.appEvents) {
      const res = await store.send({ method: 'POST', path: '/webhooks', json: { event, url: 'https://example.com/harness-hooks' } });
      expectStatus(res, WRITE_SUCCESS, rule);
      const { id } = jsonOf(res, rule) as { id: number };
      // Not tracked: deleted here; if a check fails first, the fixture deletes what was created and not deleted.
      const read = await store.send({ method: 'GET', path: `/webhooks/${id}` });
      expectStatus(read, 200, rule);
      expect((jsonOf(read, rule) as { event?: unknown }).event, says(rule, `the registration reads back as ${event}`)).toBe(event);
      expectStatus(await store.send({ method: 'DELETE', path: `/webhooks/${id}` }), WRITE_SUCCESS, rule);
    }
  }),
);

test(
  ...verifies('store.webhooks.every-event-kind', 'kinds the twin never fires, registered by consumers in the wild', async ({ store, rule }) => {
    // customer/created and checkout/created: a community automation node registers them; order/packed: the public docs.
    for (const event of ['customer/created', 'checkout/created', 'order/packed']) {
      const res = await store.send({ method: 'POST', path: '/webhooks', json: { event, url: 'https://example.com/harness-hooks' } });
      if (res.status === 201) store.track('webhooks', (jsonOf(res, rule) as { id: number }).id);
      expectStatus(res, 201, rule);
    }
  }),
);

test(
  ...verifies(
    'store.webhooks.every-event-kind',
    "every kind of the twin's list, with its source",
    async ({ store, rule }) => {
      // A store whose bucket never fills: the list is longer than the bucket.
      const { client } = await store.openTwinStore({ metered: false });
      for (const event of WEBHOOK_EVENTS) {
        const res = await client.send({ method: 'POST', path: '/webhooks', json: { event, url: 'https://example.com/harness-hooks' } });
        expect(res.status, says(rule, `${event} (${WEBHOOK_EVENT_SOURCES[event]}) is accepted`)).toBe(201);
      }
    },
    { needsTwin: "registers every kind of the twin's own list (over 40 writes); on live the kinds consumers use are checked" },
  ),
);

test(
  ...verifies('store.webhooks.invalid-registration-422', 'a missing event and a missing url', async ({ store, rule }) => {
    const res = await store.send({ method: 'POST', path: '/webhooks', json: {}, retry: false });
    if (res.status === 201) store.track('webhooks', (jsonOf(res, rule) as { id: number }).id);
    expectStatus(res, 422, rule);
    const body = jsonOf(res, rule) as Record<string, unknown>;
    expectSchema(body, 'store/error-validation', rule);
    expect(Object.keys(body).sort(), says(rule, 'the 422 names both missing fields')).toEqual(['event', 'url']);
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

/** The store's deliveries as the control API lists them, every attempt with its time, status or error and the next one. */
async function deliveriesOf(store: StoreUnderTest): Promise<DeliveryRecord[]> {
  return store.twin!.control.deliveries(store.twin!.info.storeId);
}

test(
  ...verifies('store.webhooks.retry-schedule', 'a non-2xx answer is tried again when the clock reaches the next slot', async ({ store, rule }) => {
    test.skip(!store.twin, 'needs the twin: its clock and a receiver it can reach');
    const twin = store.twin!;
    let deliveries: DeliveryRecord[] = [];
    const receiver = await withReceiver(
      store,
      rule,
      ['product/created'],
      async () => {
        await store.client.createProduct({ name: 'Retried delivery' });
        await twin.control.flushDeliveries(twin.info.storeId);
        await twin.advance(RETRY_SCHEDULE_MS[1]!);
        await twin.advance(RETRY_SCHEDULE_MS[2]! - RETRY_SCHEDULE_MS[1]!);
        deliveries = await deliveriesOf(store);
      },
      (count) => (count <= 2 ? 503 : 204),
    );
    expect(receiver.received, says(rule, 'three attempts reached the receiver')).toHaveLength(3);
    const [delivery] = deliveries;
    expect(
      delivery!.attempts.map((a) => [a.attempt, a.at - delivery!.eventAt, a.status]),
      says(rule, 'attempts at 0, 1 and 5 minutes after the event'),
    ).toEqual([
      [1, 0, 503],
      [2, RETRY_SCHEDULE_MS[1], 503],
      [3, RETRY_SCHEDULE_MS[2], 204],
    ]);
    expect(delivery!.state, says(rule, 'delivered by the third attempt')).toBe('delivered');
    expect(new Set(receiver.received.map((d) => d.rawBody)).size, says(rule, 'every attempt carries the same body')).toBe(1);
  }),
);

test(
  ...verifies('store.webhooks.retry-window', 'never answered 2xx: every slot up to 48 h, then given up', async ({ store, rule }) => {
    test.skip(!store.twin, 'needs the twin: its clock and a receiver it can reach');
    const twin = store.twin!;
    let deliveries: DeliveryRecord[] = [];
    const receiver = await withReceiver(
      store,
      rule,
      ['category/created'],
      async () => {
        await store.client.createCategory({ name: 'Never delivered' });
        await twin.advance(RETRY_WINDOW_MS);
        await twin.advance(24 * 3_600_000); // a day past the window: nothing more
        deliveries = await deliveriesOf(store);
      },
      () => 500,
    );
    const [delivery] = deliveries;
    expect(
      delivery!.attempts.map((a) => a.at - delivery!.eventAt),
      says(rule, 'one attempt per slot of the schedule, the last at 48 h'),
    ).toEqual(RETRY_SCHEDULE_MS);
    expect(receiver.received, says(rule, 'no attempt after 48 h')).toHaveLength(RETRY_SCHEDULE_MS.length);
    expect(delivery!.state, says(rule, 'given up')).toBe('failed');
    expect(delivery!.nextAttemptAt, says(rule, 'no next attempt')).toBeNull();
  }),
);

test(
  ...verifies('store.webhooks.answer-time-limit', 'a receiver that does not answer within 5 s has failed the attempt', async ({ store, rule }) => {
    test.skip(!store.twin, 'needs a receiver the twin can reach');
    test.setTimeout(30_000); // the time limit is real time: the receiver is a real server
    const twin = store.twin!;
    let deliveries: DeliveryRecord[] = [];
    await withReceiver(
      store,
      rule,
      ['product/created'],
      async () => {
        await store.client.createProduct({ name: 'Slow receiver' });
        await twin.control.flushDeliveries(twin.info.storeId);
        deliveries = await deliveriesOf(store);
      },
      () => 'hang',
    );
    const [delivery] = deliveries;
    expect(delivery!.attempts[0]!.error, says(rule, 'the first attempt timed out')).toMatch(/^TIMEOUT/);
    expect(delivery!.attempts[0]!.durationMs, says(rule, `ended at the ${DELIVERY_TIMEOUT_MS} ms limit`)).toBeGreaterThanOrEqual(DELIVERY_TIMEOUT_MS - 50);
    expect(delivery!.state, says(rule, 'another attempt is due')).toBe('pending');
  }),
);
