import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { STORE_CONTRACT } from '../../../../src/rules/storeContract.ts';
import { createStore, send, storeApi, useTestTwin } from './twinHttp.ts';

const { bucketSize } = STORE_CONTRACT;
const twin = useTestTwin();

/** Statuses of one burst of requests sent together, on the store's virtual clock (which does not move). */
async function burst(store: { baseUrl: string; token: string }, count: number): Promise<number[]> {
  const api = storeApi(store);
  const answers = await Promise.all(Array.from({ length: count }, () => api('/products?per_page=1')));
  return answers.map((answer) => answer.status);
}

test('a metered store (the default) refuses the request after a full bucket with 429', async () => {
  const store = await createStore(twin().url, { products: 1 });
  const statuses = await burst(store, bucketSize + 1);
  expect(statuses.filter((status) => status === 200)).toHaveLength(bucketSize);
  expect(statuses.filter((status) => status === 429)).toHaveLength(1);
});

test('an unmetered store answers every request, and its rate headers read an empty bucket', async () => {
  const created = await createStore(twin().url, { products: 1, metered: false });
  expect(created).toMatchObject({ metered: false });
  const statuses = await burst(created, bucketSize * 2);
  expect(statuses.every((status) => status === 200)).toBe(true);

  const last = await storeApi(created)('/products?per_page=1');
  expect(last.headers['x-rate-limit-limit']).toBe(String(bucketSize));
  expect(last.headers['x-rate-limit-remaining']).toBe(String(bucketSize));
  expect(last.headers['x-rate-limit-reset']).toBe('0');
});

test('metered must be a boolean: anything else is a 400 naming the option', async () => {
  for (const metered of ['false', 0, {}]) {
    const answer = await send(`${twin().url}/__twin/stores`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ metered }),
    });
    expect(answer.status, JSON.stringify(metered)).toBe(400);
    expect(answer.json().error).toMatch(/metered must be true or false/);
  }
});
