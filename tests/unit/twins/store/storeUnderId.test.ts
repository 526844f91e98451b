/**
 * A store made under a given id (POST /__twin/stores {storeId}): how a pact's literal store id is arranged. The copy
 * holds the seeded store's records under the same ids, answers only its own token, and is handled by its controlId;
 * the seeded store and every other copy are untouched by its writes.
 */
import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { control, createStore, storeApi, useTestTwin, type TwinStoreInfo } from './twinHttp.ts';

const twin = useTestTwin();
type Copy = TwinStoreInfo & { controlId: number };
const seeded = (id: number) => ({ baseUrl: `${twin().url}/v1/${id}`, token: `twin-token-${id}` });

test("a copy under a seeded id holds that store's records under their ids, and answers only its own token", async () => {
  const copy = (await createStore(twin().url, { storeId: 100001 })) as Copy;
  expect(copy.storeId).toBe(100001);
  expect(copy.controlId).not.toBe(100001);
  expect(copy.baseUrl).toBe(`${twin().url}/v1/100001`);
  expect(copy.token).not.toBe('twin-token-100001');
  const product = await storeApi(copy)('/products/100001000022');
  expect(product.status).toBe(200);
  expect((product.json() as { id: number }).id).toBe(100001000022);
  expect((await storeApi(copy)('/products?per_page=1')).headers['x-total-count'], 'the seeded preset: 260 products').toBe('260');
  // The seeded store's token opens the seeded store, not the copy; the copy's token opens the copy.
  expect((await storeApi(seeded(100001))('/products/100001000022')).status).toBe(200);
});

test('a write to a copy is seen by neither the seeded store nor another copy; deleting the copy by its controlId leaves the seed', async () => {
  const one = (await createStore(twin().url, { storeId: 100002 })) as Copy;
  const other = (await createStore(twin().url, { storeId: 100002 })) as Copy;
  const deleted = await storeApi(one)('/products/100002000007', { method: 'DELETE' });
  expect(deleted.status).toBe(200);
  expect((await storeApi(one)('/products/100002000007')).status).toBe(404);
  expect((await storeApi(other)('/products/100002000007')).status).toBe(200);
  expect((await storeApi(seeded(100002))('/products/100002000007')).status).toBe(200);
  // Another store's copy token is refused on this id's path: it is not this copy's.
  expect((await storeApi({ ...one, baseUrl: seeded(100001).baseUrl })('/products')).status).toBe(401);
  await control(twin().url, 'DELETE', `/stores/${one.controlId}`);
  expect((await storeApi(seeded(100002))('/products?per_page=1')).status).toBe(200);
  expect((await storeApi(other)('/products/100002000007')).status).toBe(200);
});

test('an id no store has gets a store of its own, its records numbered from that id', async () => {
  const store = (await createStore(twin().url, { storeId: 123456, products: 3 })) as Copy;
  expect(store.storeId).toBe(123456);
  const list = await storeApi(store)('/products');
  expect((list.json() as { id: number }[]).map((p) => p.id)).toEqual([123456000022, 123456000026, 123456000028]); // a variant (and images) take ids between products;
});

test('a storeId that is not a whole number in range is a 400 naming the field', async () => {
  for (const storeId of [0, -1, 1.5, '100001', 9_000_001]) {
    const answer = await control<{ error: string }>(twin().url, 'POST', '/stores', { storeId }).catch((error: Error) => error);
    expect(String(answer instanceof Error ? answer.message : JSON.stringify(answer))).toContain('storeId must be a whole number');
  }
});
