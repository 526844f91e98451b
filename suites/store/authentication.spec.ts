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

/** Tokens the store never issued, shaped like one; none is derived from the real token, so none leaks it. */
const WRONG_TOKENS: Readonly<Record<string, string | null>> = {
  'a token the store never issued': 'bearer not-a-real-token',
  'a token of the same length and alphabet, never issued': `bearer ${'0a1b2c3d4e5f'.repeat(6).slice(0, 40)}`,
  'no token at all': null,
};

test(
  ...verifies('store.auth.token-validated', 'a wrong or missing token is refused, also once a right one was used', async ({ store, rule }) => {
    // A right token first: a provider that lets a wrong token through once it has seen a right one breaks OAuth 2.
    expectStatus(await store.send({ method: 'GET', path: '/products', query: { per_page: 1 } }), 200, rule);
    for (const [what, value] of Object.entries(WRONG_TOKENS)) {
      const res = await store.send({
        method: 'GET',
        path: '/products',
        query: { per_page: 1 },
        auth: value === null ? 'none' : { header: 'Authentication', value },
        retry: false,
      });
      const refused = res.status >= 400 && res.status < 500 && res.status !== 429;
      expect(refused, says(rule, `${what} must be refused with a 4xx other than 429 (the resource server validates the token), got ${res.status}`)).toBe(true);
    }
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
