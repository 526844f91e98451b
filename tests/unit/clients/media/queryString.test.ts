import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { queryPairs, queryString } from '../../../../src/clients/media/queryString.ts';

// Field notes: Filters, sort, include, fields; Pagination (the real links percent-encode brackets).

test('include, sparse fieldsets, filters, sort and page, brackets percent-encoded and list commas kept', () => {
  const query = queryString({
    include: ['categories', 'mediaRelationships.destination'],
    fields: { anime: ['slug', 'titles'], categories: ['title'] },
    filter: { seasonYear: 2017, subtype: ['TV', 'movie'], text: 'cowboy bebop' },
    sort: ['-averageRating', 'startDate'],
    page: { limit: 2, offset: 4 },
  });
  expect(query).toBe(
    'include=categories,mediaRelationships.destination' +
      '&fields%5Banime%5D=slug,titles&fields%5Bcategories%5D=title' +
      '&filter%5BseasonYear%5D=2017&filter%5Bsubtype%5D=TV,movie&filter%5Btext%5D=cowboy%20bebop' +
      '&sort=-averageRating,startDate' +
      '&page%5Blimit%5D=2&page%5Boffset%5D=4',
  );
  // What a server reads back: the names and values meant, decoded.
  expect(new URLSearchParams(query).get('filter[text]')).toBe('cowboy bebop');
  expect([...new URLSearchParams(query)]).toEqual(
    queryPairs({
      include: ['categories', 'mediaRelationships.destination'],
      fields: { anime: ['slug', 'titles'], categories: ['title'] },
      filter: { seasonYear: 2017, subtype: ['TV', 'movie'], text: 'cowboy bebop' },
      sort: ['-averageRating', 'startDate'],
      page: { limit: 2, offset: 4 },
    }),
  );
});

test('the real service reads back what was meant', () => {
  const query = new URLSearchParams(queryString({ filter: { userId: 5554, status: ['current', 'on_hold'] }, page: { limit: 10, offset: 0 } }));
  expect(query.get('filter[userId]')).toBe('5554');
  expect(query.get('filter[status]')).toBe('current,on_hold');
  expect(query.get('page[limit]')).toBe('10');
  expect(query.get('page[offset]')).toBe('0');
});

test('nothing asked, nothing sent; empty include and sort are left out, an empty fieldset is sent empty', () => {
  expect(queryString()).toBe('');
  expect(queryString({ include: [], sort: [], page: {} })).toBe('');
  expect(queryString({ fields: { anime: [] } })).toBe('fields%5Banime%5D=');
});

test('values are encoded: reserved characters and non-ASCII text survive the trip', () => {
  const query = queryString({ filter: { text: 'a&b=c?d/é' }, page: { cursor: 'x+y' } });
  expect(query).toBe('filter%5Btext%5D=a%26b%3Dc%3Fd%2F%C3%A9&page%5Bcursor%5D=x%2By');
  expect(new URLSearchParams(query).get('filter[text]')).toBe('a&b=c?d/é');
});
