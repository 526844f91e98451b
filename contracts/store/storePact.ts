/**
 * The pieces every store interaction shares: the store path taken from the provider state, the token and
 * User-Agent matchers, the typed client under test.
 */
import { MatchersV3, PactV4, SpecificationVersion } from '@pact-foundation/pact';
import { StoreClient } from '../../src/clients/store/StoreClient.ts';
import { STORE_CONTRACT } from '../../src/rules/storeContract.ts';
import { STORE_PACT, PACT_OUTPUT_DIR } from '../pactNames.ts';

const { fromProviderState, like, regex } = MatchersV3;

/** The documented example store; the provider's state says which store it really is. */
export const EXAMPLE_STORE_ID = 100001;

/** `/v1/{store_id}` + rest, with the store id (and any other `${name}`) filled in from the provider state. */
export function storePath(rest: string, examples: Record<string, string | number> = {}): ReturnType<typeof fromProviderState<string>> {
  const example = rest.replace(/\$\{(\w+)\}/g, (_, name: string) => String(examples[name]));
  return fromProviderState(`/v1/\${storeId}${rest}`, `/v1/${EXAMPLE_STORE_ID}${example}`);
}

export const USER_AGENT = 'harness (https://example.invalid)';

/** What every store request carries (store.auth.authentication-header, store.http.user-agent-required). */
export const AUTHENTICATED = {
  [STORE_CONTRACT.tokenHeader]: regex(`^${STORE_CONTRACT.tokenScheme} \\S+$`, `${STORE_CONTRACT.tokenScheme} consumer-token`),
  'User-Agent': like(USER_AGENT),
};

export function storePact(): PactV4 {
  return new PactV4({ ...STORE_PACT, dir: PACT_OUTPUT_DIR, spec: SpecificationVersion.SPECIFICATION_VERSION_V4, logLevel: 'warn' });
}

/** The typed client against Pact's mock server; no retries, so each interaction is one request. */
export function storeClient(mockServerUrl: string): StoreClient {
  return new StoreClient({ baseUrl: `${mockServerUrl}/v1/${EXAMPLE_STORE_ID}`, token: 'consumer-token', userAgent: USER_AGENT, retry: { maxRetries: 0 } });
}
