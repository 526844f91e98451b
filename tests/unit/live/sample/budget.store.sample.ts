/** The budget guard's sample, run with a tiny LIVE_REQUEST_BUDGET: the first test spends it, the next is refused. */
import { test } from '../../../../suites/fixtures/storeFixtures.ts';

test('spends the budget: reads until one is refused; the clean-up still goes', async ({ store }) => {
  const created = await store.client.createProduct({ name: 'Budget sample' });
  store.track('products', created.id);
  for (let read = 0; read < 20; read++) await store.client.listProducts({ per_page: 1 });
});

test('after the budget is spent: refused before anything is sent', async ({ store }) => {
  await store.client.listProducts({ per_page: 1 });
});
