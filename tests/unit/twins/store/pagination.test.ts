import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { STORE_CONTRACT } from '../../../../src/rules/storeContract.ts';
import { StoreApiError } from '../../../../src/twins/store/errors.ts';
import { assertPageExists, buildLinkHeader, paginationHeaders, parsePageRequest, selectPage } from '../../../../src/twins/store/pagination.ts';

const { defaultPerPage, maxPerPage } = STORE_CONTRACT;
const query = (text: string): URLSearchParams => new URLSearchParams(text);
const collectionUrl = 'http://127.0.0.1:4010/v1/100001/products';

function thrown(action: () => unknown): StoreApiError {
  try {
    action();
  } catch (error) {
    if (error instanceof StoreApiError) return error;
    throw error;
  }
  throw new Error('expected a StoreApiError');
}

test('store.pagination.first-page-default and default-page-size: no parameters is page 1 of the default size', () => {
  expect(parsePageRequest(query(''))).toEqual({ page: 1, perPage: defaultPerPage, perPageSent: false });
  expect(parsePageRequest(query('page=3&per_page=7'))).toEqual({ page: 3, perPage: 7, perPageSent: true });
});

test('store.pagination.per-page-over-max: per_page over the maximum is served as the maximum', () => {
  expect(parsePageRequest(query(`per_page=${maxPerPage + 1}`)).perPage).toBe(maxPerPage);
  expect(parsePageRequest(query(`per_page=${'9'.repeat(40)}`)).perPage).toBe(maxPerPage);
});

test('store.pagination.invalid-page-400: a page or per_page that is not a positive integer names the parameter', () => {
  for (const [text, name] of [
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=1.5', 'page'],
    ['page=', 'page'],
    ['page=abc', 'page'],
    ['per_page=0', 'per_page'],
    ['per_page=1e3', 'per_page'],
  ] as const) {
    const error = thrown(() => parsePageRequest(query(text)));
    expect(error.status, text).toBe(400);
    expect(error.body).toEqual({ code: 400, message: 'Bad Request', description: `${name} must be a positive integer` });
  }
});

test('selectPage filters and pages in one pass and counts every match', () => {
  const numbers = Array.from({ length: 100 }, (_, i) => i + 1);
  const slice = selectPage(numbers, (n) => n % 2 === 0, { page: 2, perPage: 20, perPageSent: true });
  expect(slice.total).toBe(50);
  expect(slice.lastPage).toBe(3);
  expect(slice.items).toEqual(numbers.filter((n) => n % 2 === 0).slice(20, 40));
});

test('store.pagination.past-last-page-404: past the last page, and an empty product list, answer "Last page is N"', () => {
  const request = { page: 4, perPage: 10, perPageSent: false };
  const error = thrown(() => assertPageExists({ items: [], total: 30, lastPage: 3 }, request, { emptyIs404: true }));
  expect(error.body).toEqual({ code: 404, message: 'Not Found', description: 'Last page is 3' });
  const empty = thrown(() => assertPageExists({ items: [], total: 0, lastPage: 0 }, { ...request, page: 1 }, { emptyIs404: true }));
  expect(empty.body).toEqual({ code: 404, message: 'Not Found', description: 'Last page is 0' });
  expect(() => assertPageExists({ items: [], total: 0, lastPage: 0 }, { ...request, page: 1 }, { emptyIs404: false })).not.toThrow();
});

test('store.pagination.link-rels-presence: first and prev after page 1, next and last before the last, joined by ", "', () => {
  const link = (page: number, lastPage: number, text = ''): string | undefined =>
    buildLinkHeader({ collectionUrl, query: query(text), request: parsePageRequest(query(text ? `${text}&page=${page}` : `page=${page}`)), lastPage });
  expect(link(1, 1), 'one page: no Link').toBeUndefined();
  expect(link(1, 3)).toBe(`<${collectionUrl}?page=2>; rel="next", <${collectionUrl}?page=3>; rel="last"`);
  expect(link(3, 3)).toBe(`<${collectionUrl}?page=1>; rel="first", <${collectionUrl}?page=2>; rel="prev"`);
  expect(link(5, 10)).toBe(
    [
      `<${collectionUrl}?page=1>; rel="first"`,
      `<${collectionUrl}?page=4>; rel="prev"`,
      `<${collectionUrl}?page=6>; rel="next"`,
      `<${collectionUrl}?page=10>; rel="last"`,
    ].join(', '),
  );
});

test('store.pagination.link-full-urls: links echo the other parameters in order, then page, then per_page only if sent', () => {
  const request = parsePageRequest(query('since_id=5&page=2&fields=id,name&per_page=500'));
  const link = buildLinkHeader({ collectionUrl, query: query('since_id=5&page=2&fields=id,name&per_page=500'), request, lastPage: 3 });
  expect(link).toBe(
    [
      `<${collectionUrl}?since_id=5&fields=id%2Cname&page=1&per_page=${maxPerPage}>; rel="first"`,
      `<${collectionUrl}?since_id=5&fields=id%2Cname&page=1&per_page=${maxPerPage}>; rel="prev"`,
      `<${collectionUrl}?since_id=5&fields=id%2Cname&page=3&per_page=${maxPerPage}>; rel="next"`,
      `<${collectionUrl}?since_id=5&fields=id%2Cname&page=3&per_page=${maxPerPage}>; rel="last"`,
    ].join(', '),
  );
  for (const url of link!.matchAll(/<([^>]+)>/g)) expect(() => new URL(url[1]!)).not.toThrow();
});

test('store.pagination.total-count: X-Total-Count is the number of matches, Link only with more than one page', () => {
  const request = parsePageRequest(query(''));
  expect(paginationHeaders({ items: [], total: 12, lastPage: 1 }, { collectionUrl, query: query(''), request })).toEqual({ 'X-Total-Count': '12' });
  expect(Object.keys(paginationHeaders({ items: [], total: 31, lastPage: 2 }, { collectionUrl, query: query(''), request }))).toEqual([
    'X-Total-Count',
    'Link',
  ]);
});
