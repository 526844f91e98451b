/**
 * The handler's message pact (pact-js V4 asynchronous messages): what a delivery must hold for this handler,
 * `{"store_id","event","id"}` with integers where it reads them, after the provider state "a product was created".
 * The handler handles the message as it would a delivery; the pact lands in ./pacts.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { MatchersV3, PactV4, SpecificationVersion } from '@pact-foundation/pact';
import { WebhookHandler, type Delivery } from '../src/webhookHandler.ts';

// Pact merges into an existing file: start from none, so a message dropped here leaves the pact too.
const PACTS = resolve('pacts');
rmSync(resolve(PACTS, 'store-webhook-handler-store-commerce-api.json'), { force: true });

const { integer, regex } = MatchersV3;

test('a product/created delivery is handled once, whatever its ids', async () => {
  const pact = new PactV4({
    consumer: 'store-webhook-handler',
    provider: 'store-commerce-api',
    dir: PACTS,
    spec: SpecificationVersion.SPECIFICATION_VERSION_V4,
    logLevel: 'warn',
  });
  await pact
    .addAsynchronousInteraction()
    .given('a product was created')
    .expectsToReceive('a product/created delivery', (builder) => {
      builder
        .withJSONContent({ store_id: integer(100001), event: 'product/created', id: integer(1948209) })
        .withMetadata({ contentType: 'application/json', 'X-Linkedstore-HMAC-SHA256': regex('^[0-9a-f]{64}$', 'a'.repeat(64)) });
    })
    .executeTest(async (message) => {
      const handler = new WebhookHandler({ secret: 'unused: the signature is checked at the HTTP door' });
      await handler.handle(message.contents.content as unknown as Delivery);
      await handler.handle(message.contents.content as unknown as Delivery); // delivered again: nothing more to do
      assert.deepEqual([...handler.toSync], ['100001:product/created:1948209']);
    });
});
