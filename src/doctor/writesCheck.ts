/**
 * Whether a live run may write (STORE_ALLOW_WRITES, KITSU_ALLOW_WRITES): reported
 * from the configuration, never tried by writing.
 */
import type { LiveMediaConfig, LiveStoreConfig } from '../config/harnessConfig.ts';
import { note, ok, type Check } from './Check.ts';

export function writesCheck(api: 'store' | 'media', config: LiveStoreConfig | LiveMediaConfig): Check {
  const variable = api === 'store' ? 'STORE_ALLOW_WRITES' : 'KITSU_ALLOW_WRITES';
  const what =
    api === 'store'
      ? `the suites create, change and delete products, categories and webhooks in store ${(config as LiveStoreConfig).storeId}, each test deleting what it made`
      : "the suites create and delete library entries in the signed-in user's library, each test deleting what it made";
  if (!config.allowWrites) {
    return note(
      api,
      'writes',
      `read-only (${variable} unset): the write checks are skipped`,
      `set ${variable}=1 to run them, ${api === 'store' ? 'on an allow-listed sandbox store' : 'with a test account'} only`,
    );
  }
  if (api === 'media' && !(config as LiveMediaConfig).token) {
    return note(
      api,
      'writes',
      `${variable}=1, but without KITSU_ACCESS_TOKEN every write is refused: the write checks are skipped`,
      'set KITSU_ACCESS_TOKEN too',
    );
  }
  return ok(api, 'writes', `allowed (${variable}=1): ${what}`);
}
