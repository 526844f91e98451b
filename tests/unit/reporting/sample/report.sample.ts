/**
 * The sample run of the report test (sample.config.ts): one rule holds, two are broken on purpose (one of them by
 * the status check every suite uses), one is skipped the way a real provider's missing data skips a test.
 */
import { expect } from '@playwright/test';
import { test, verifies } from '../../../../suites/fixtures/storeFixtures.ts';
import { says, unmetPrecondition } from '../../../../src/testing/ruleTest.ts';
import { expectStatus } from '../../../../suites/fixtures/storeChecks.ts';

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

test(
  ...verifies('store.pagination.invalid-page-400', 'sample status check that fails on purpose', async ({ store, rule }) => {
    // A valid page, checked as if it were an invalid one: the provider's 200 against the contract's 400.
    const page = await store.send({ method: 'GET', path: '/products', query: { page: '1', per_page: '5' } });
    expectStatus(page, 400, rule);
  }),
);

test(
  ...verifies('store.pagination.max-page-size', 'sample skipped for want of data', async ({ rule }) => {
    test.skip(true, unmetPrecondition(rule, 'at least 31 products'));
  }),
);
