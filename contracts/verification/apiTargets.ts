/**
 * The provider target of each API on this run's target (twin, live, and live
 * recorded or replayed): the one choice both the harness's own pacts and an
 * outside consumer's are verified against.
 */
import { harnessConfig } from '../../src/config/harnessConfig.ts';
import { mediaLiveTarget, mediaTwinTarget } from '../media/providerStates.ts';
import { storeLiveTarget, storeTwinTarget } from '../store/providerStates.ts';
import type { PactProvider } from './pactProvider.ts';
import type { PactApi } from './sandboxes.ts';

/**
 * `{ skip }` when this run leaves the API out (a one-API live run): its interactions are skipped with the reason.
 * On a live store, an outside consumer with a sandbox of its own (STORE_TEAM_SANDBOXES) is verified as its own app:
 * its store, its token (so its scopes), its bucket; one without is verified with the harness's, and the target says which.
 */
export function apiTarget(api: PactApi, consumer?: string): PactProvider | { skip: string } {
  if (api === 'store') {
    const config = harnessConfig().store;
    if (config.mode === 'off') return { skip: config.reason };
    if (config.mode === 'twin') return storeTwinTarget(config);
    if (consumer === undefined || config.teamSandboxes === undefined) return storeLiveTarget(config);
    const sandbox = config.teamSandboxes[consumer];
    if (!sandbox)
      return storeLiveTarget(config, { credentials: `the harness's store ${config.storeId} and token (STORE_TEAM_SANDBOXES has no entry for ${consumer})` });
    const { secondStore: _second, teamSandboxes: _teams, ...shared } = config;
    return storeLiveTarget(
      { ...shared, apiUrl: sandbox.apiUrl ?? config.apiUrl, storeId: sandbox.storeId, token: sandbox.token, userAgent: sandbox.userAgent ?? config.userAgent },
      { credentials: `${consumer}'s own app on its sandbox store ${sandbox.storeId} (STORE_TEAM_SANDBOXES)`, team: consumer },
    );
  }
  const config = harnessConfig().media;
  if (config.mode === 'off') return { skip: config.reason };
  return config.mode === 'twin' ? mediaTwinTarget(config) : mediaLiveTarget(config);
}
