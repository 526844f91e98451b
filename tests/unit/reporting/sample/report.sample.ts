/** The sample run of the report test (sample.config.ts): one rule holds, one is broken on purpose. */
import { expect } from '@playwright/test';
import { test, verifies } from '../../../../suites/fixtures/storeFixtures.ts';
import { says } from '../../../../src/testing/ruleTest.ts';

test(
  ...verifies('store.pagination.total-count', 'sample that holds', async ({ store, rule }) => {
    const page = await store.send({ method: 'GET', path: '/products', query: { per_page: '5' } });
    expect(page.headers['x-total-count'], says(rule, 'a list answers with X-Total-Count')).toMatch(/^\d+$/);
  }),
);

test(
  ...verifies('store.pagination.total-count', 'sample that fails on purpose', async ({ store, rule }) => {
    const page = await store.send({ method: 'GET', path: '/products', query: { per_page: '5' } });
    expect(page.headers['x-total-count'], says(rule, 'deliberately wrong expectation, so the report shows a failure')).toBe('-1');
  }),
);
