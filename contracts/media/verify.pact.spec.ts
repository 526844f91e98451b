/**
 * Verifies the media pacts with Pact's own Verifier against the target: the
 * media twin (each state from the seed) or the live service (states checked
 * there, or skipped with the reason); on record and replay, the live service
 * through recordings/media/contracts/.
 */
import { declarePactVerification } from '../verification/declarePactVerification.ts';
import { apiTarget } from '../verification/apiTargets.ts';
import { MEDIA_PACT } from '../pactNames.ts';

declarePactVerification(MEDIA_PACT, 'media', () => apiTarget('media'));
