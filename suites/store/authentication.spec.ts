import { expect, test, verifies } from '../fixtures/storeFixtures.ts';
import { expectSchema, expectStatus, jsonOf } from '../fixtures/storeChecks.ts';
import { says } from '../../src/testing/ruleTest.ts';

// Authentication: the token travels in the header named Authentication as "bearer <token>".

test(
  ...verifies('store.auth.authentication-header', 'a request with Authentication: bearer <token> is served', async ({ store, rule }) => {
    const res = await store.send({
      method: 'GET',
      path: '/products',
      query: { per_page: 1 },
      auth: { header: 'Authentication', value: `bearer ${store.token}` },
    });
    expectStatus(res, 200, rule);
  }),
);

test(
  ...verifies('store.auth.authentication-header', 'without the token the request is not served', async ({ store, rule }) => {
    const res = await store.send({ method: 'GET', path: '/products', auth: 'none', retry: false });
    expect(res.status, says(rule, `a request without Authentication must be refused, got ${res.status}`)).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  }),
);

test(
  ...verifies('store.auth.missing-or-invalid-token-401', 'missing token', async ({ store, rule }) => {
    const res = await store.send({ method: 'GET', path: '/products', auth: 'none', retry: false });
    expectStatus(res, 401, rule);
    const body = jsonOf(res, rule);
    expectSchema(body, 'store/error-standard', rule);
    expect(body, says(rule, 'the real 401 body')).toEqual({ code: 401, message: 'Unauthorized', description: 'Invalid access token' });
  }),
);

test(
  ...verifies('store.auth.missing-or-invalid-token-401', 'wrong token', async ({ store, rule }) => {
    const res = await store.send({
      method: 'GET',
      path: '/products',
      auth: { header: 'Authentication', value: 'bearer not-a-real-token' },
      retry: false,
    });
    expectStatus(res, 401, rule);
    expectSchema(jsonOf(res, rule), 'store/error-standard', rule);
  }),
);

test(
  ...verifies('store.auth.token-scoped-to-store', "store A's token is refused on store B", async ({ store, rule }) => {
    const other = await store.openTwinStore({ preset: 'single-language' });
    const res = await other.client.send({
      method: 'GET',
      path: '/products',
      auth: { header: 'Authentication', value: `bearer ${store.token}` },
      retry: false,
    });
    expectStatus(res, 401, rule);
  }),
);
