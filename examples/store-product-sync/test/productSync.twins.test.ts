/**
 * The product sync against the harness's twins, from the team's own tests: `startTwins()` serves the Store API
 * on a free port, and its control API makes a store of the size the test needs, or suspends it.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTwins, type Twins } from 'api-contract-harness/twins';
import { syncProducts } from '../src/productSync.ts';

const USER_AGENT = 'product-sync (sync@example.invalid)';
let twins: Twins;

before(async () => {
  twins = await startTwins();
});
after(() => twins.close());

test('the sync reads every product of a store, page after page', async () => {
  const store = await twins.store.control.createStore({ products: 65 });
  const products = await syncProducts({ baseUrl: twins.store.url, storeId: store.storeId, token: store.token, userAgent: USER_AGENT });
  assert.equal(products.length, 65);
  assert.equal(new Set(products.map((p) => p.id)).size, 65, 'no product twice');
  assert.ok(
    products.every((p) => p.price === null || /^\d+\.\d{2}$/.test(p.price)),
    'prices as the API writes them',
  );
});

test("a suspended store stops the sync with the API's 402", async () => {
  const store = await twins.store.control.createStore({ products: 3 });
  await twins.store.control.suspend(store.storeId);
  await assert.rejects(syncProducts({ baseUrl: twins.store.url, storeId: store.storeId, token: store.token, userAgent: USER_AGENT }), /answered 402/);
});
