/** The request a failed test's error is about (src/reporting/failingRequest.ts), not the clean-up sent after it. */
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { failingRequest } from '../../../src/reporting/failingRequest.ts';

type Sent = [method: string, url: string, status: number, body?: unknown, cleanUp?: boolean];

const BASE = 'https://api.example/v1/1';

function exchanges(...list: Sent[]) {
  return [
    {
      name: 'exchanges.json',
      body: JSON.stringify(
        list.map(([method, url, status, body, cleanUp]) => ({
          request: { method, url: `${BASE}${url}`, headers: {} },
          response: { status, headers: {}, body: body === undefined ? '' : JSON.stringify(body) },
          ...(cleanUp ? { cleanUp } : {}),
        })),
      ),
    },
  ];
}

test('the request the error names, even when others came after it', () => {
  const sent = exchanges(['GET', '/products?page=1', 200], ['GET', '/products?page=2', 200], ['GET', '/products?page=3', 200]);
  expect(failingRequest(sent, 'Error: [store.pagination.follow-links] GET /v1/1/products?page=2 answered 200, expected a Link')).toBe(
    'GET /v1/1/products?page=2 → 200',
  );
  // Named by its full URL (jsonOf's message), or by its path without the query.
  expect(failingRequest(sent, `GET ${BASE}/products?page=1 answered 200 with a body that is not JSON`)).toBe('GET /v1/1/products?page=1 → 200');
});

test('not the clean-up: the trailing DELETE of what the test created is skipped', () => {
  const sent = exchanges(['POST', '/categories', 201, { id: 7 }], ['PUT', '/categories/7', 500, { code: 500 }], ['DELETE', '/categories/7', 200, {}]);
  expect(failingRequest(sent, 'expected 200, got 500')).toBe('PUT /v1/1/categories/7 → 500');
  // The clean-up is skipped even when the error names its path: it names the method too.
  expect(failingRequest(sent, 'PUT /v1/1/categories/7 answered 500')).toBe('PUT /v1/1/categories/7 → 500');
});

test("the test's own DELETE, then the clean-up's of the same record: the test's", () => {
  const sent = exchanges(['POST', '/categories', 201, { id: 7 }], ['DELETE', '/categories/7', 500, {}], ['DELETE', '/categories/7', 404, { code: 404 }]);
  expect(failingRequest(sent, 'Expected: {}')).toBe('DELETE /v1/1/categories/7 → 500');
});

test('a DELETE the test sent of something it did not create is no clean-up; an exchange a fixture marked is', () => {
  expect(failingRequest(exchanges(['GET', '/products', 200], ['DELETE', '/products/3', 500]), 'x')).toBe('DELETE /v1/1/products/3 → 500');
  expect(failingRequest(exchanges(['GET', '/products', 200], ['GET', '/products/1', 200, {}, true]), 'x')).toBe('GET /v1/1/products → 200');
});

test('without exchanges.json, the readable attachments; without any, nothing', () => {
  const readable = [{ name: 'HTTP 1: GET /v1/1/products?page=2 → 404' }, { name: 'HTTP 2: GET /v1/1/products?page=3 → ECONNRESET' }];
  expect(failingRequest(readable, 'GET /v1/1/products?page=2 answered 404')).toBe('GET /v1/1/products?page=2 → 404');
  expect(failingRequest(readable)).toBe('GET /v1/1/products?page=3 → ECONNRESET');
  expect(failingRequest([{ name: 'pact verification', body: 'ok' }], 'x')).toBeUndefined();
});
