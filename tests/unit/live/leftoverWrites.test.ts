/** What a test left behind, read from its exchanges: the fixtures delete exactly these after it. */
import { expect, test } from '../../../src/testing/harnessTest.ts';
import type { Exchange } from '../../../src/http/Exchange.ts';
import { leftoverCreations, newestFirst } from '../../../src/testing/leftoverWrites.ts';

const STORE = 'https://api.example.test/v1/123';
const storeRules = { baseUrl: STORE, collections: ['products', 'categories', 'webhooks'], idOf: (b: unknown) => (b as { id?: number } | undefined)?.id };
const mediaRules = { baseUrl: 'https://media.example.test/api/edge', idOf: (b: unknown) => (b as { data?: { id?: string } } | undefined)?.data?.id };

function exchange(method: string, url: string, status: number | undefined, body: unknown = {}): Exchange {
  return {
    attempt: 0,
    startedAt: 0,
    durationMs: 0,
    request: { method, url, headers: {} },
    ...(status === undefined ? { error: { code: 'ECONNRESET', message: 'reset' } } : { response: { status, headers: {}, body: JSON.stringify(body) } }),
  };
}

test('creates the test did not delete are left over, with where to delete them', () => {
  const exchanges = [
    exchange('POST', `${STORE}/products`, 201, { id: 7 }),
    exchange('POST', `${STORE}/categories`, 201, { id: 8 }),
    exchange('DELETE', `${STORE}/categories/8`, 200),
    exchange('POST', `${STORE}/webhooks`, 201, { id: 9 }),
    exchange('DELETE', `${STORE}/webhooks/9`, 404),
  ];
  expect(leftoverCreations(exchanges, storeRules)).toEqual([{ path: '/products/7', index: 0 }]);
});

test('refused creates, failed deletes, other collections and other stores are not creations to delete', () => {
  const exchanges = [
    exchange('POST', `${STORE}/products`, 422, { id: 1 }),
    exchange('POST', `${STORE}/products`, undefined),
    exchange('POST', `${STORE}/orders/5/notes`, 201, { id: 2 }),
    exchange('POST', `${STORE}/orders`, 201, { id: 3 }),
    exchange('POST', 'https://api.example.test/v1/999/products', 201, { id: 4 }),
    exchange('POST', `${STORE}/products`, 201, { id: 6 }),
    exchange('DELETE', `${STORE}/products/6`, 500),
  ];
  expect(leftoverCreations(exchanges, storeRules)).toEqual([{ path: '/products/6', index: 5 }]);
});

test('media: a JSON:API create leaves data.id; an action answered 201 with no record does not', () => {
  const base = mediaRules.baseUrl;
  const exchanges = [
    exchange('POST', `${base}/library-entries`, 201, { data: { id: '41', type: 'libraryEntries' } }),
    exchange('POST', `${base}/group-invites/1/_accept`, 201, {}),
    exchange('POST', 'https://media.example.test/api/oauth/token', 200, { access_token: 'x' }),
  ];
  expect(leftoverCreations(exchanges, mediaRules)).toEqual([{ path: '/library-entries/41', index: 0 }]);
});

test('the clean-up deletes newest first; two tracked after the same exchange, the later one first', () => {
  const order = newestFirst([
    { path: '/categories/1', index: 1 },
    { path: '/categories/2', index: 3 },
    { path: '/products/3', index: 3 },
    { path: '/categories/4', index: 2 },
  ]);
  expect(order.map((c) => c.path)).toEqual(['/products/3', '/categories/2', '/categories/4', '/categories/1']);
});

test('nested records a test created (an image of a product it did not make) are left over too, and go before their parent', () => {
  const exchanges = [
    exchange('POST', `${STORE}/products`, 201, { id: 5 }),
    exchange('POST', `${STORE}/products/5/images`, 201, { id: 2 }),
    exchange('POST', `${STORE}/products/9/variants`, 201, { id: 3 }),
    exchange('DELETE', `${STORE}/products/9/variants/3`, 200),
    exchange('POST', `${STORE}/products/9/images`, 422, { src: ["can't be blank"] }),
  ];
  const leftovers = leftoverCreations(exchanges, storeRules);
  expect(leftovers).toEqual([
    { path: '/products/5', index: 0 },
    { path: '/products/5/images/2', index: 1 },
  ]);
  expect(newestFirst(leftovers).map((c) => c.path)).toEqual(['/products/5/images/2', '/products/5']);
});
