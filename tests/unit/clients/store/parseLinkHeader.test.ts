import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { parseLinkHeader } from '../../../../src/clients/store/parseLinkHeader.ts';

// store.pagination.link-full-urls: the Link forms published in the docs and an SDK fixture
// (tests/captured/store/headers.txt), and the looser forms a client should still read.

test('the two published examples', () => {
  expect(
    parseLinkHeader(
      '<https://api.tiendanube.com/v1/123456/products?page=3&per_page=100>; rel="next", <https://api.tiendanube.com/v1/123456/products?page=50&per_page=100>; rel="last"',
    ),
  ).toEqual({
    next: 'https://api.tiendanube.com/v1/123456/products?page=3&per_page=100',
    last: 'https://api.tiendanube.com/v1/123456/products?page=50&per_page=100',
  });
  expect(
    parseLinkHeader(
      '<https://api.tiendanube.com/v1/1234/products?page=1>; rel="first", <https://api.tiendanube.com/v1/1234/products?page=4>; rel="prev", <https://api.tiendanube.com/v1/1234/products?page=6>; rel="next", <https://api.tiendanube.com/v1/1234/products?page=10>; rel="last"',
    ),
  ).toEqual({
    first: 'https://api.tiendanube.com/v1/1234/products?page=1',
    prev: 'https://api.tiendanube.com/v1/1234/products?page=4',
    next: 'https://api.tiendanube.com/v1/1234/products?page=6',
    last: 'https://api.tiendanube.com/v1/1234/products?page=10',
  });
});

test('commas inside URLs, unquoted, upper-case and multi-valued rels, unknown rels, extra params', () => {
  expect(
    parseLinkHeader(
      '<https://x.test/p?fields=id,name&page=2>; rel=NEXT,<https://x.test/p?page=9>;title="a, b"; rel="last canonical", <https://x.test/h>; rel="help"',
    ),
  ).toEqual({ next: 'https://x.test/p?fields=id,name&page=2', last: 'https://x.test/p?page=9' });
});

test('absent, empty or malformed headers give no links; the first entry of a rel wins', () => {
  expect(parseLinkHeader(undefined)).toEqual({});
  expect(parseLinkHeader('')).toEqual({});
  expect(parseLinkHeader('https://x.test/p?page=2; rel="next"')).toEqual({});
  expect(parseLinkHeader('<a>; rel="next", <b>; rel="next"')).toEqual({ next: 'a' });
});
