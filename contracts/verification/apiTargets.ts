/**
 * The provider target of each API on this run's target (twin, live, and live
 * recorded or replayed): the one choice both the harness's own pacts and an
 * outside consumer's are verified against.
 */
import { harnessConfig } from '../../src/config/harnessConfig.ts';
import { mediaLiveTarget, mediaTwinTarget } from '../media/providerStates.ts';
import { storeLiveTarget, storeTwinTarget } from '../store/providerStates.ts';
import type { PactProvider } from './pactProvider.ts';

export type PactApi = 'store' | 'media';
export const PACT_APIS: readonly PactApi[] = ['store', 'media'];

/** `{ skip }` when this run leaves the API out (a one-API live run): its interactions are skipped with the reason. */
export function apiTarget(api: PactApi): PactProvider | { skip: string } {
  if (api === 'store') {
    const config = harnessConfig().store;
    if (config.mode === 'off') return { skip: config.reason };
    return config.mode === 'twin' ? storeTwinTarget(config) : storeLiveTarget(config);
  }
  const config = harnessConfig().media;
  if (config.mode === 'off') return { skip: config.reason };
  return config.mode === 'twin' ? mediaTwinTarget(config) : mediaLiveTarget(config);
}
