/** The control of the clean-up test: a product made behind the fixture's back, which nothing cleans up. */
import { test } from '../../../../suites/fixtures/storeFixtures.ts';
import { StoreClient } from '../../../../src/clients/store/StoreClient.ts';
import { harnessConfig } from '../../../../src/config/harnessConfig.ts';

test('a product made with a client of its own, so the count must show it', async ({ store }) => {
  // Not the fixture's client: the fixture sees no exchange of it, so it cannot clean it up.
  const own = new StoreClient({ baseUrl: store.baseUrl, token: store.token, userAgent: (harnessConfig().store as { userAgent: string }).userAgent });
  await own.createProduct({ name: 'Clean-up sample (leaked on purpose)' });
});
