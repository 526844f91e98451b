/**
 * Store writes of the clean-up sample: each test creates through the fixture's usual paths, then fails on purpose.
 * Marked to fail (test.fail): the clean-up runs as for any failure, and Playwright keeps the worker, where an
 * unexpected failure costs a new one.
 */
import { expect, test } from '../../../../suites/fixtures/storeFixtures.ts';
import { STORE_CONTRACT } from '../../../../src/rules/storeContract.ts';

test('tracked writes, then an expect that fails on purpose', async ({ store }) => {
  test.fail();
  const product = await store.send({ method: 'POST', path: '/products', json: { name: 'Clean-up sample (tracked)' } });
  store.track('products', (JSON.parse(product.text) as { id: number }).id);
  const category = await store.client.createCategory({ name: 'Clean-up sample (tracked)' });
  store.track('categories', category.id);
  expect(product.status, 'fails on purpose: the fixture must still delete what the test made').toBe(999);
});

test('writes not tracked yet, then a throw', async ({ store }) => {
  test.fail();
  await store.client.createProduct({ name: 'Clean-up sample (not tracked yet)' });
  await store.client.createCategory({ name: 'Clean-up sample (not tracked yet)' });
  await store.client.createWebhook({ event: STORE_CONTRACT.appEvents[0], url: 'https://example.invalid/clean-up-sample' });
  throw new Error('thrown on purpose, between the creates and their track()');
});
