/**
 * Store consumer contract for the install flow's last step: exchangeCode
 * trades an approved code at POST /apps/authorize/token (field notes, OAuth)
 * and relies on the answer's user_id naming the store (store.oauth.user-id-is-store-id).
 * The app's id, its secret and the code come from the provider state.
 */
import { expect, test } from '../../src/testing/harnessTest.ts';
import { MatchersV3 } from '@pact-foundation/pact';
import { exchangeCode, TOKEN_PATH } from '../../src/clients/store/install.ts';
import { STORE_STATES } from './providerStates.ts';
import { EXAMPLE_STORE_ID, storePact, USER_AGENT } from './storePact.ts';

const { fromProviderState, like, regex } = MatchersV3;

/** The example app of the pact; the provider's state says which app, secret and code are real. */
const EXAMPLE = { clientId: '4001', clientSecret: 'consumer-client-secret', code: 'consumer-code' } as const;

test('an approved code: the token answer, and a client on the store user_id names', async () => {
  await storePact()
    .addInteraction()
    .given(STORE_STATES.codeApproved, { storeId: EXAMPLE_STORE_ID })
    .uponReceiving('an exchange of an approved authorization code')
    .withRequest('POST', TOKEN_PATH, (b) =>
      b.headers({ 'User-Agent': like(USER_AGENT) }).jsonBody({
        client_id: fromProviderState('${clientId}', EXAMPLE.clientId),
        client_secret: fromProviderState('${clientSecret}', EXAMPLE.clientSecret),
        grant_type: 'authorization_code',
        code: fromProviderState('${code}', EXAMPLE.code),
      }),
    )
    .willRespondWith(200, (b) =>
      b.jsonBody({
        access_token: like('consumer-token'),
        token_type: regex('^[Bb]earer$', 'bearer'),
        scope: like('read_products,write_products'),
        // A string of digits: the store id the client's base URL is built on.
        user_id: regex('^\\d+$', String(EXAMPLE_STORE_ID)),
      }),
    )
    .executeTest(async (server) => {
      const installed = await exchangeCode({
        ...EXAMPLE,
        userAgent: USER_AGENT,
        authUrl: server.url,
        apiUrl: server.url,
        client: { retry: { maxRetries: 0 } },
      });
      expect(installed.storeId).toBe(String(EXAMPLE_STORE_ID));
      expect(installed.client.baseUrl).toBe(`${server.url}/v1/${EXAMPLE_STORE_ID}`);
      expect(installed.scopes).toEqual(['read_products', 'write_products']);
    });
});
