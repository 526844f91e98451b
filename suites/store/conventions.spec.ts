import { expect, test, verifies } from '../fixtures/storeFixtures.ts';
import { expectMainLanguage, expectSchema, expectStatus, jsonOf, listOf, snakeCaseViolations, ownCategory, uniqueName } from '../fixtures/storeChecks.ts';
import { expectOneOf } from '../fixtures/expectContract.ts';
import { says } from '../../src/testing/ruleTest.ts';
import { STORE_CONTRACT } from '../../src/rules/storeContract.ts';

// What the service does, Common request rules, Versioning.

test(
  ...verifies('store.json.no-root-element', 'a collection is a bare array and a resource a bare object', async ({ store, rule }) => {
    const list = await store.send({ method: 'GET', path: '/products', query: { per_page: 2 } });
    expectStatus(list, 200, rule);
    expect(list.headers['content-type'] ?? '', says(rule, 'responses are JSON')).toMatch(/application\/json/);
    const items = jsonOf(list, rule);
    expect(Array.isArray(items), says(rule, `GET /products must answer a bare JSON array, got ${list.text.slice(0, 80)}`)).toBe(true);
    const first = (items as { id: number }[])[0]!;
    const one = await store.send({ method: 'GET', path: `/products/${first.id}` });
    if (one.status === 200) {
      const body = jsonOf(one, rule) as Record<string, unknown>;
      expect(Object.keys(body), says(rule, 'a resource is the object itself, not wrapped in a root element')).toContain('name');
    }
  }),
);

test(
  ...verifies('store.json.snake-case-keys', 'every key of products and categories is snake_case', async ({ store, rule }) => {
    const products = jsonOf(await store.send({ method: 'GET', path: '/products', query: { per_page: 5 } }), rule);
    const categories = jsonOf(await store.send({ method: 'GET', path: '/categories', query: { per_page: 5 } }), rule);
    const bad = [...snakeCaseViolations(products, '/products'), ...snakeCaseViolations(categories, '/categories')];
    expect(bad, says(rule, `keys that are not snake_case: ${bad.join(', ')}`)).toEqual([]);
  }),
);

test(
  ...verifies('store.versioning.v1-path', 'the API answers under /v1/{store_id}', async ({ store, rule }) => {
    expect(new URL(store.baseUrl).pathname, says(rule, 'the base path is /v1/{store_id}')).toBe(`/${STORE_CONTRACT.version}/${store.storeId}`);
    const res = await store.send({ method: 'GET', path: '/products', query: { per_page: 1 } });
    expectStatus(res, 200, rule);
  }),
);

test(
  ...verifies('store.versioning.unknown-version-404', 'a v0 path is not served', async ({ store, rule }) => {
    const res = await store.send({ method: 'GET', url: store.baseUrl.replace(/\/v1\//, '/v0/') + '/products' });
    expectStatus(res, 404, rule);
  }),
);

test(
  ...verifies('store.http.head-any-resource', 'HEAD of a collection, a product and a category: GET headers, no body', async ({ store, rule }) => {
    const products = listOf<{ id: number }>(await store.send({ method: 'GET', path: '/products', query: { per_page: 1 } }), rule);
    const categories = listOf<{ id: number }>(await store.send({ method: 'GET', path: '/categories', query: { per_page: 1 } }), rule);
    const paths = ['/products', ...(products[0] ? [`/products/${products[0].id}`] : [])];
    if (categories[0]) paths.push(`/categories/${categories[0].id}`);
    for (const path of paths) {
      const get = await store.send({ method: 'GET', path });
      const head = await store.send({ method: 'HEAD', path });
      expect(head.status, says(rule, `HEAD ${path} must be allowed and answer like GET (${get.status})`)).toBe(get.status);
      expect(head.text, says(rule, `HEAD ${path} must not return a body`)).toBe('');
      for (const name of ['x-total-count', 'link', 'x-main-language']) {
        expect(head.headers[name], says(rule, `HEAD ${path} must carry the ${name} header of the GET`)).toBe(get.headers[name]);
      }
    }
  }),
);

test(
  ...verifies('store.http.user-agent-required', 'a request without User-Agent answers 400', async ({ store, rule }) => {
    const res = await store.send({ method: 'GET', path: '/products', userAgent: null, retry: false });
    expectStatus(res, 400, rule);
    const withIt = await store.send({ method: 'GET', path: '/products', query: { per_page: 1 } });
    expectStatus(withIt, 200, rule);
  }),
);

test(
  ...verifies('store.http.content-type-required', 'a JSON body sent without Content-Type answers 415', async ({ store, rule }) => {
    const res = await store.send({ method: 'POST', path: '/products', rawBody: '{}', contentType: null, retry: false });
    expectStatus(res, 415, rule);
  }),
);

test(
  ...verifies(
    'store.http.content-type-required',
    'an update whose body has no Content-Type answers 415 too',
    async ({ store, rule }) => {
      const id = await ownCategory(store, rule);
      const res = await store.send({ method: 'PUT', path: `/categories/${id}`, rawBody: '{}', contentType: null, retry: false });
      expectStatus(res, 415, rule);
    },
    { writes: true },
  ),
);

test(
  ...verifies(
    'store.http.user-agent-required',
    'a write without User-Agent answers 400 too',
    async ({ store, rule }) => {
      const res = await store.send({ method: 'POST', path: '/categories', json: { name: uniqueName('No User-Agent') }, userAgent: null, retry: false });
      if (res.status >= 200 && res.status < 300) store.track('categories', (jsonOf(res, rule) as { id: number }).id);
      expectStatus(res, 400, rule);
    },
    { writes: true },
  ),
);

test(
  ...verifies('store.http.non-json-content-type-415', 'a body sent as text/plain answers 415', async ({ store, rule }) => {
    const res = await store.send({
      method: 'POST',
      path: '/products',
      rawBody: '{}',
      contentType: 'text/plain',
      retry: false,
    });
    expectStatus(res, 415, rule);
  }),
);

test(
  ...verifies('store.http.put-empty-body-content-length', 'a bodyless PUT with Content-Length: 0 is accepted', async ({ store, rule }) => {
    const created = await store.client.createCategory({ name: 'Bodyless PUT target' });
    store.track('categories', created.id);
    const res = await store.send({ method: 'PUT', path: `/categories/${created.id}`, contentLength0: true });
    // Accepted: a 2xx. (The contract leaves open what a PUT without a body changes; a 4xx or 5xx is a refusal.)
    expect(
      res.status >= 200 && res.status < 300,
      says(rule, `PUT with Content-Length: 0 must be accepted (got ${res.status}: ${res.text.slice(0, 200)})`),
    ).toBe(true);
  }),
);

test(
  ...verifies('store.http.put-without-length-411', 'a bodyless PUT without Content-Length answers 411', async ({ store, rule }) => {
    const created = await store.client.createCategory({ name: 'Length required target' });
    store.track('categories', created.id);
    const res = await store.send({ method: 'PUT', path: `/categories/${created.id}`, contentLength0: false, retry: false });
    expectStatus(res, 411, rule);
  }),
);

test(
  ...verifies('store.headers.main-language', 'on successes and on errors', async ({ store, rule }) => {
    const answers = [
      await store.send({ method: 'GET', path: '/products', query: { per_page: 1 } }),
      await store.send({ method: 'GET', path: '/categories', query: { per_page: 1 } }),
      await store.send({ method: 'GET', path: '/products', userAgent: null, retry: false }),
      await store.send({ method: 'GET', path: '/products', auth: 'none', retry: false }),
      await store.send({ method: 'GET', path: '/categories/999999999', retry: false }),
    ];
    expect(
      answers.map((a) => a.status).some((s) => s >= 400),
      'some answers are errors',
    ).toBe(true);
    for (const res of answers) expectMainLanguage(res, store.mainLanguage, rule);
  }),
);

test(
  ...verifies('store.headers.main-language', 'the main language is one of the localized keys', async ({ store, rule }) => {
    const res = await store.send({ method: 'GET', path: '/products', query: { per_page: 1 } });
    const [product] = listOf<{ name: Record<string, string> }>(res, rule);
    expectSchema(product, 'store/product', rule);
    expectOneOf(res.headers['x-main-language'], Object.keys(product!.name), says(rule, 'X-Main-Language must name a language the store has'));
  }),
);
