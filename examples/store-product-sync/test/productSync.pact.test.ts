/**
 * The product sync's own consumer test, with pact-js and Node's test runner: it drives syncProducts (plain
 * fetch) against Pact's mock server, across two pages joined by a Link header, and writes the team's pact
 * into ./pacts, which `npm run pact:verify` then verifies with the harness.
 * The store id in the path comes from the provider state (fromProviderState), so the provider's
 * store can stand in; the token is the provider's business, matched only by its form.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { MatchersV3, PactV4, SpecificationVersion } from '@pact-foundation/pact';
import { syncProducts } from '../src/productSync.ts';

// Pact merges into an existing file: start from none, so an interaction dropped here leaves the pact too.
const PACTS = resolve('pacts');
rmSync(resolve(PACTS, 'store-product-sync-store-commerce-api.json'), { force: true });

const { eachLike, fromProviderState, integer, like, regex } = MatchersV3;

const STORE_ID = 100001;
const HEADERS = {
  Authentication: regex('^bearer \\S+$', 'bearer sync-token'),
  'User-Agent': like('product-sync (sync@example.invalid)'),
};
const PRODUCT = { id: integer(1), name: like({ es: 'Remera' }), variants: eachLike({ price: regex('^\\d+\\.\\d{2}$', '19.90') }) };

test('the sync reads every page of products, following Link rel="next"', async () => {
  const pact = new PactV4({
    consumer: 'store-product-sync',
    provider: 'store-commerce-api',
    dir: PACTS,
    spec: SpecificationVersion.SPECIFICATION_VERSION_V4,
    logLevel: 'warn',
  });
  pact
    .addInteraction()
    // The team's own state (pact-states.ts): a catalogue of more than one page.
    .given('a catalogue for the product sync')
    .uponReceiving('the first page of products for the sync')
    .withRequest('GET', fromProviderState('/v1/${storeId}/products', `/v1/${STORE_ID}/products`), (b) => b.query({ per_page: '30' }).headers(HEADERS))
    .willRespondWith(200, (b) =>
      b
        .headers({
          // The sync follows the URL, whatever its host: a relative one here, the provider's absolute one when verified.
          // RFC 8288's spellings: whitespace around ',', ';' and '=', rel quoted or not, other parameters beside it.
          Link: regex(
            '^(.*,\\s*)?<(https?://[^/>]+)?/v1/\\d+/products\\?[^>]*page=2(&[^>]*)?>\\s*(;[^;,]*)*;\\s*rel\\s*=\\s*("next"|next)\\s*(;[^,]*)?(,.*)?$',
            `</v1/${STORE_ID}/products?page=2&per_page=30>; rel="next"`,
          ),
        })
        .jsonBody(eachLike(PRODUCT)),
    );
  await pact
    .addInteraction()
    .given('store {storeId} has {count} products', { storeId: STORE_ID, count: 31 })
    .uponReceiving('the last page of products for the sync')
    .withRequest('GET', fromProviderState('/v1/${storeId}/products', `/v1/${STORE_ID}/products`), (b) =>
      b.query({ page: '2', per_page: '30' }).headers(HEADERS),
    )
    .willRespondWith(200, (b) => b.jsonBody(eachLike(PRODUCT)))
    .executeTest(async (server) => {
      const products = await syncProducts({ baseUrl: server.url, storeId: STORE_ID, token: 'sync-token', userAgent: 'product-sync (sync@example.invalid)' });
      assert.deepEqual(products, [
        { id: 1, name: 'Remera', price: '19.90' },
        { id: 1, name: 'Remera', price: '19.90' },
      ]);
    });
});
