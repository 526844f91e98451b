/**
 * Consumer contract (PactV4) of the Store API, written by driving the typed
 * client (never raw HTTP) against Pact's mock server. First interaction of
 * issue 4: paging a product list. Matchers, not literals; a parameterised state.
 */
import { expect, test } from '@playwright/test';
import { MatchersV3, PactV4, SpecificationVersion } from '@pact-foundation/pact';
import { StoreClient } from '../../src/clients/store/StoreClient.ts';
import { STORE_CONTRACT } from '../../src/rules/storeContract.ts';
import { STORE_PACT } from './storePact.ts';

const { eachLike, integer, like, regex } = MatchersV3;

const TIMESTAMP = '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}[+-]\\d{4}';

test('paging a product list: an array of products with X-Total-Count and a Link to the next page', async () => {
  const pact = new PactV4({ ...STORE_PACT, spec: SpecificationVersion.SPECIFICATION_VERSION_V4, logLevel: 'warn' });
  await pact
    .addInteraction()
    .given('store {storeId} has {count} products', { storeId: 100001, count: 45 })
    .uponReceiving('a request for the first page of products, 30 per page')
    .withRequest('GET', '/v1/100001/products', (b) =>
      b
        .query({ per_page: '30' })
        .headers({ Authentication: regex('^bearer \\S+$', 'bearer consumer-token'), 'User-Agent': like('harness (https://example.invalid)') }),
    )
    .willRespondWith(200, (b) =>
      b
        .headers({
          'X-Total-Count': regex('^\\d+$', '45'),
          Link: regex('^<https?://[^>]+[?&]page=2[^>]*>; rel="next".*$', '<https://api.tiendanube.com/v1/100001/products?page=2&per_page=30>; rel="next"'),
          'X-Rate-Limit-Limit': regex('^\\d+$', String(STORE_CONTRACT.bucketSize)),
        })
        .jsonBody(
          eachLike({
            id: integer(1),
            name: like({ es: 'Mochila' }),
            created_at: regex(TIMESTAMP, '2025-01-01T00:00:00+0000'),
          }),
        ),
    )
    .executeTest(async (server) => {
      const client = new StoreClient({ baseUrl: `${server.url}/v1/100001`, token: 'consumer-token', userAgent: 'harness (https://example.invalid)' });
      const page = await client.listProducts({ per_page: 30 });
      expect(page.items.length).toBeGreaterThan(0);
      expect(page.totalCount).toBe(45);
      expect(page.links.next).toContain('page=2');
    });
});
