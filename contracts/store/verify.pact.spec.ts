/**
 * Verifies the store pacts with Pact's own Verifier against the target: the
 * store twin (states arranged through its control API) or the live store
 * (states read off the configured store, or skipped with the reason); on
 * record and replay, the live store through recordings/store/contracts/.
 */
import { declarePactVerification } from '../verification/declarePactVerification.ts';
import { apiTarget } from '../verification/apiTargets.ts';
import { STORE_PACT } from '../pactNames.ts';

declarePactVerification(STORE_PACT, 'store', () => apiTarget('store'));
