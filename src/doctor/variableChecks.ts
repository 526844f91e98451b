/**
 * The lines about the variables of a configuration loadConfig accepted: what
 * each API will use (secrets only as "set"), that STORE_ID is allow-listed
 * (loadConfig refuses it otherwise), or that the API is off for this run.
 */
import type { MediaConfig, StoreConfig } from '../config/harnessConfig.ts';
import { note, ok, type Check } from './Check.ts';

export function storeVariableChecks(store: StoreConfig): Check[] {
  if (store.mode === 'off') return [note('store', 'variables', `off: ${store.reason}`)];
  if (store.mode !== 'live') return [];
  const storefront = store.storefrontUrl ? `STOREFRONT_URL ${store.storefrontUrl}` : 'STOREFRONT_URL unset (storefront checks skipped)';
  return [
    ok(
      'store',
      'variables',
      `STORE_API_URL ${store.apiUrl}, STORE_ID ${store.storeId}, STORE_ACCESS_TOKEN set (not shown), STORE_USER_AGENT set, ${storefront}`,
    ),
    ok('store', 'allow-list', `STORE_ID ${store.storeId} is in LIVE_STORE_ALLOWLIST`),
  ];
}

export function mediaVariableChecks(media: MediaConfig): Check[] {
  if (media.mode === 'off') return [note('media', 'variables', `off: ${media.reason}`)];
  if (media.mode !== 'live') return [];
  return [ok('media', 'variables', `KITSU_API_URL ${media.apiUrl}, KITSU_ACCESS_TOKEN ${media.token ? 'set (not shown)' : 'unset'}`)];
}
