/**
 * Store consumer contracts for products, written by driving the typed client
 * (never raw HTTP) against Pact's mock server: paging a list by its Link
 * header, creating a product with a plain-string and with a localized name,
 * and the 422 of an invalid one.
 */
import { expect, test } from '../../src/testing/harnessTest.ts';
import { HTTPResponseStatusClass, MatchersV3 } from '@pact-foundation/pact';
import { ValidationError } from '../../src/clients/store/errors.ts';
import { PLAN_BUCKET_SIZES, STORE_CONTRACT } from '../../src/rules/storeContract.ts';
import { STORE_STATES } from './providerStates.ts';
import { AUTHENTICATED, EXAMPLE_STORE_ID, storeClient, storePact, storePath } from './storePact.ts';

const { eachLike, integer, like, matchStatus, regex } = MatchersV3;

/** A product as the contract shows it: an id, a localized name, timestamps without a colon in the offset. */
const PRODUCT = {
  id: integer(1),
  name: like({ es: 'Mochila' }),
  created_at: regex(STORE_CONTRACT.timestampPattern.source, '2025-01-01T00:00:00+0000'),
};

test('paging a product list: an array of products with X-Total-Count and a Link to the next page', async () => {
  await storePact()
    .addInteraction()
    .given(STORE_STATES.hasProducts, { storeId: EXAMPLE_STORE_ID, count: 45 })
    .uponReceiving('a request for the first page of products, 30 per page')
    .withRequest('GET', storePath('/products'), (b) => b.query({ per_page: '30' }).headers(AUTHENTICATED))
    .willRespondWith(200, (b) =>
      b
        .headers({
          'X-Total-Count': regex('^\\d+$', '45'),
          // Full URLs, the next page named (store.pagination.link-full-urls), in any order among the other rels;
          // as RFC 8288 allows and the client reads: rel quoted or not, beside other parameters, optional
          // whitespace around ",", ";" and "=".
          Link: regex(
            '^(.*,\\s*)?<https?://[^>]+[?&]page=2(&[^>]*)?>\\s*(;[^;,]*)*;\\s*rel\\s*=\\s*("next"|next)\\s*(;[^,]*)?(,.*)?$',
            `<https://api.tiendanube.com/v1/${EXAMPLE_STORE_ID}/products?page=2&per_page=30>; rel="next"`,
          ),
          // What the pacer reads (reliance): a plan's bucket size exactly (the contract's 40, or a higher plan's,
          // field notes), the room left and the time to empty.
          'X-Rate-Limit-Limit': regex(`^(${PLAN_BUCKET_SIZES.join('|')})$`, String(STORE_CONTRACT.bucketSize)),
          'X-Rate-Limit-Remaining': regex('^\\d+$', '39'),
          'X-Rate-Limit-Reset': regex('^\\d+$', '500'),
        })
        .jsonBody(eachLike(PRODUCT)),
    )
    .executeTest(async (server) => {
      const page = await storeClient(server.url).listProducts({ per_page: 30 });
      expect(page.items.length).toBeGreaterThan(0);
      expect(page.totalCount).toBe(45);
      expect(page.links.next).toContain('page=2');
    });
});

for (const [what, name] of [
  ['a plain-string name', 'Mochila'],
  ['a localized name', { es: 'Mochila', pt: 'Mochila' }],
] as const) {
  test(`creating a product with ${what}`, async () => {
    await storePact()
      .addInteraction()
      // The name lets a live run find what it created and delete it again.
      .given(STORE_STATES.acceptsProducts, { storeId: EXAMPLE_STORE_ID, name: 'Mochila' })
      .uponReceiving(`a request to create a product with ${what}`)
      .withRequest('POST', storePath('/products'), (b) => b.headers(AUTHENTICATED).jsonBody({ name }))
      // The success status is "not shown" in the contract: any 2xx the client accepts (201 in the example), the body a product.
      .willRespondWith(matchStatus(201, HTTPResponseStatusClass.Success), (b) => b.jsonBody(PRODUCT))
      .executeTest(async (server) => {
        const product = await storeClient(server.url).createProduct({ name });
        // Always an object, whatever was written (store.localized.always-object).
        expect(product.name.es).toBe('Mochila');
      });
  });
}

test('a product with a blank name: 422 with the field messages', async () => {
  await storePact()
    .addInteraction()
    // A provider that breaks the contract creates it: the state finds what it made and deletes it (on live, with STORE_ALLOW_WRITES).
    .given(STORE_STATES.acceptsProducts, { storeId: EXAMPLE_STORE_ID, name: '' })
    .uponReceiving('a request to create a product with a blank name')
    .withRequest('POST', storePath('/products'), (b) => b.headers(AUTHENTICATED).jsonBody({ name: '' }))
    .willRespondWith(422, (b) => b.jsonBody({ name: eachLike("can't be blank") }))
    .executeTest(async (server) => {
      const error = await storeClient(server.url)
        .createProduct({ name: '' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).fields.name).toEqual(["can't be blank"]);
    });
});
