/**
 * Store consumer contracts for what an integration relies on besides paging:
 * creating a product (plain and localized name), a 422 with field messages, the
 * 402 of a suspended store. Each drives the typed client against Pact's mock
 * server. (The missing-User-Agent 400 is not here yet: Pact's Verifier always
 * sends a User-Agent of its own, so that interaction needs a request filter
 * that knows which interaction it is replaying.)
 */
import { expect, test } from '@playwright/test';
import { MatchersV3, PactV4, SpecificationVersion } from '@pact-foundation/pact';
import { StoreClient } from '../../src/clients/store/StoreClient.ts';
import { PaymentRequiredError, ValidationError } from '../../src/clients/store/errors.ts';
import { STORE_PACT } from './storePact.ts';

const { eachLike, integer, like, regex } = MatchersV3;
const TOKEN = regex('^bearer \\S+$', 'bearer consumer-token');
const USER_AGENT = 'harness (https://example.invalid)';

function pact(): PactV4 {
  return new PactV4({ ...STORE_PACT, spec: SpecificationVersion.SPECIFICATION_VERSION_V4, logLevel: 'warn' });
}

function client(url: string): StoreClient {
  return new StoreClient({ baseUrl: `${url}/v1/100001`, token: 'consumer-token', userAgent: USER_AGENT, retry: { maxRetries: 0 } });
}

for (const [what, name] of [
  ['a plain-string name', 'Mochila'],
  ['a localized name', { es: 'Mochila', pt: 'Mochila' }],
] as const) {
  test(`creating a product with ${what}`, async () => {
    await pact()
      .addInteraction()
      .given('store {storeId} exists', { storeId: 100001 })
      .uponReceiving(`a request to create a product with ${what}`)
      .withRequest('POST', '/v1/100001/products', (b) => b.headers({ Authentication: TOKEN }).jsonBody({ name }))
      .willRespondWith(201, (b) => b.jsonBody({ id: integer(1), name: like({ es: 'Mochila' }) }))
      .executeTest(async (server) => {
        const product = await client(server.url).createProduct({ name });
        expect(product.name.es).toBe('Mochila');
      });
  });
}

test('a product without a name: 422 with the field messages', async () => {
  await pact()
    .addInteraction()
    .given('store {storeId} exists', { storeId: 100001 })
    .uponReceiving('a request to create a product with a blank name')
    .withRequest('POST', '/v1/100001/products', (b) => b.headers({ Authentication: TOKEN }).jsonBody({ name: '' }))
    .willRespondWith(422, (b) => b.jsonBody({ name: eachLike("can't be blank") }))
    .executeTest(async (server) => {
      const error = await client(server.url)
        .createProduct({ name: '' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).fields.name).toEqual(["can't be blank"]);
    });
});

test('a suspended store: 402, which the client reports as payment to resume', async () => {
  await pact()
    .addInteraction()
    .given('store {storeId} is suspended', { storeId: 100001 })
    .uponReceiving('a request to a suspended store')
    .withRequest('GET', '/v1/100001/products', (b) => b.headers({ Authentication: TOKEN }))
    .willRespondWith(402)
    .executeTest(async (server) => {
      const error = await client(server.url)
        .listProducts()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PaymentRequiredError);
    });
});
