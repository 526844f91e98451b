/**
 * Store consumer contracts for the refusals an integration must handle: the
 * 402 of a suspended store, the 429 of a full bucket with its rate headers,
 * and the 400 of a request without a User-Agent. Bodies the contract does not
 * specify are not promised.
 */
import { expect, test } from '../../src/testing/harnessTest.ts';
import { MatchersV3 } from '@pact-foundation/pact';
import { PaymentRequiredError, RateLimitError } from '../../src/clients/store/errors.ts';
import { STORE_CONTRACT } from '../../src/rules/storeContract.ts';
import { STORE_STATES } from './providerStates.ts';
import { AUTHENTICATED, EXAMPLE_STORE_ID, storeClient, storePact, storePath } from './storePact.ts';

const { regex } = MatchersV3;
const TOKEN_ONLY = { [STORE_CONTRACT.tokenHeader]: AUTHENTICATED[STORE_CONTRACT.tokenHeader] };

test('a suspended store: 402, which the client reports as payment to resume', async () => {
  await storePact()
    .addInteraction()
    .given(STORE_STATES.suspended, { storeId: EXAMPLE_STORE_ID })
    .uponReceiving('a request to a suspended store')
    .withRequest('GET', storePath('/products'), (b) => b.headers(AUTHENTICATED))
    .willRespondWith(402)
    .executeTest(async (server) => {
      const error = await storeClient(server.url)
        .listProducts()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PaymentRequiredError);
    });
});

test('a full bucket: 429 with the rate headers, which the client reads', async () => {
  await storePact()
    .addInteraction()
    .given(STORE_STATES.bucketFull, { storeId: EXAMPLE_STORE_ID })
    .uponReceiving('a request when the rate-limit bucket is full')
    .withRequest('GET', storePath('/products'), (b) => b.headers(AUTHENTICATED))
    .willRespondWith(429, (b) =>
      b.headers({
        'X-Rate-Limit-Limit': regex('^\\d+$', String(STORE_CONTRACT.bucketSize)),
        // Nothing remains before the bucket is full; Reset is milliseconds until it is empty.
        'X-Rate-Limit-Remaining': regex('^0$', '0'),
        'X-Rate-Limit-Reset': regex('^\\d+$', '20000'),
      }),
    )
    .executeTest(async (server) => {
      const error = await storeClient(server.url)
        .listProducts()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RateLimitError);
      expect((error as RateLimitError).rate).toEqual({ limit: STORE_CONTRACT.bucketSize, remaining: 0, reset: 20000 });
    });
});

test('a request without a User-Agent: 400', async () => {
  await storePact()
    .addInteraction()
    .given(STORE_STATES.exists, { storeId: EXAMPLE_STORE_ID })
    .uponReceiving('a request without a User-Agent header')
    // No User-Agent in the pact: the verification sends none (contracts/verification/verifyInteraction.ts).
    .withRequest('GET', storePath('/products'), (b) => b.headers(TOKEN_ONLY))
    .willRespondWith(400)
    .executeTest(async (server) => {
      const response = await storeClient(server.url).send({ method: 'GET', path: '/products', userAgent: null });
      expect(response.status).toBe(400);
    });
});
