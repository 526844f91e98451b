/**
 * store.products.sort-by: the suite's walk (suites/fixtures/storeOrder.ts; it runs on the twin in the store suite)
 * goes red, naming the page boundary, against a twin that sorts each page alone (twin break sort-within-page-only).
 * On live the rule is field notes, an observation, so npm run breaks cannot prove it.
 */
import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { StoreClient } from '../../../../src/clients/store/StoreClient.ts';
import { HARNESS_USER_AGENT } from '../../../../src/config/harnessConfig.ts';
import { STORE_RULES } from '../../../../src/rules/storeRules.ts';
import { startStoreTwin } from '../../../../src/twins/store/server.ts';
import { SORT_BY_VALUES } from '../../../../src/twins/store/productOrder.ts';
import { expectSortedWalk, SORT_BY_KEYS } from '../../../../suites/fixtures/storeOrder.ts';

const rule = STORE_RULES['store.products.sort-by']!;

/** Every walk, on the seeded single-language store (40 products); the twin with the break given. */
async function walkAll(twinBreak: 'sort-within-page-only'): Promise<void> {
  const twin = await startStoreTwin({ port: 0, twinBreak });
  try {
    const client = new StoreClient({ baseUrl: `${twin.url}/v1/100002`, token: 'twin-token-100002', userAgent: HARNESS_USER_AGENT, pace: false });
    const total = Number((await client.send({ method: 'GET', path: '/products', query: { per_page: 1 } })).headers['x-total-count']);
    for (const value of Object.keys(SORT_BY_KEYS)) await expectSortedWalk((request) => client.send(request), rule, { value, total, mainLanguage: 'pt' });
  } finally {
    await twin.close();
  }
}

test('every sort_by value the walk checks is one the twin serves', () => {
  expect(SORT_BY_VALUES).toEqual(expect.arrayContaining(Object.keys(SORT_BY_KEYS)));
});

test('a provider that sorts each page alone is red at a page boundary', async () => {
  await expect(walkAll('sort-within-page-only')).rejects.toThrow(/\[store\.products\.sort-by\] sort_by=[a-z-]+: product \d+ .* across pages \d and \d/);
});
