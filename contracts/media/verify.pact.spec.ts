/**
 * Verifies the media pacts with Pact's own Verifier against the target: the
 * media twin (each state from the seed) or the live service (states checked
 * there, or skipped with the reason); on record and replay, the live service
 * through recordings/media/contracts/.
 */
import { harnessConfig } from '../../src/config/harnessConfig.ts';
import { declarePactVerification } from '../verification/declarePactVerification.ts';
import { MEDIA_PACT } from '../pactNames.ts';
import { mediaLiveTarget, mediaTwinTarget } from './providerStates.ts';

declarePactVerification(MEDIA_PACT, 'media', () => {
  const config = harnessConfig().media;
  if (config.mode === 'off') return { skip: config.reason };
  return config.mode === 'twin' ? mediaTwinTarget(config) : mediaLiveTarget(config);
});
