import { expect, test, verifies } from '../fixtures/mediaFixtures.ts';
import { errorsOf, expectMediaType, expectSchema, expectStatus } from '../fixtures/mediaChecks.ts';
import { says } from '../../src/testing/ruleTest.ts';

// Errors: the JSON:API error structure.

test(
  ...verifies('media.errors.jsonapi-errors', 'a 404, a 400 and an unknown route', async ({ media, rule }) => {
    for (const [path, query] of [
      ['/anime/0', {}],
      ['/anime', { 'page[limit]': 'x' }],
      ['/anime', { 'filter[foo_bar]': '1' }],
    ] as const) {
      const res = await media.anonymous.send({ method: 'GET', path, query, retry: false });
      expect(res.status, says(rule, `${path} must be refused`)).toBeGreaterThanOrEqual(400);
      errorsOf(res, rule);
      expectSchema(JSON.parse(res.text), 'media/error-document', rule);
    }
  }),
);

test(
  ...verifies('media.errors.hidden-404', 'a record that does not exist', async ({ media, rule }) => {
    const res = await media.anonymous.send({ method: 'GET', path: '/anime/999999999', retry: false });
    expectStatus(res, 404, rule);
    errorsOf(res, rule);
  }),
);

test(
  ...verifies('media.errors.members', 'Record not found with title, detail, code and status', async ({ media, rule }) => {
    const res = await media.anonymous.send({ method: 'GET', path: '/anime/0', retry: false });
    expectStatus(res, 404, rule);
    expectMediaType(res, rule);
    const [error] = errorsOf(res, rule);
    expect(error, says(rule, 'the real members of a 404')).toEqual({
      title: 'Record not found',
      detail: 'The record identified by 0 could not be found.',
      code: '404',
      status: '404',
    });
  }),
);

test(
  ...verifies('media.jsonapi.unsupported-query-400', 'an include path and a sort the server does not have', async ({ media, rule }) => {
    // JSON:API's MUST is the status and an error document; which code and title: media.errors.bad-query-400.
    const queries: Record<string, string>[] = [{ include: 'notARelationship' }, { sort: 'notAnAttribute' }];
    for (const query of queries) {
      const res = await media.anonymous.send({ method: 'GET', path: '/anime', query, retry: false });
      expect(res.status, says(rule, `GET /anime?${new URLSearchParams(query).toString()} must answer 400 Bad Request, got ${res.status}`)).toBe(400);
      expect(errorsOf(res, rule).length, says(rule, 'the 400 carries a JSON:API error document (an errors array)')).toBeGreaterThan(0);
    }
  }),
);

test(
  ...verifies('media.errors.bad-query-400', 'filter, include, sort and id', async ({ media, rule }) => {
    const cases = [
      { path: '/anime', query: { 'filter[foo_bar]': '1' }, title: 'Filter not allowed', code: '102' },
      { path: '/anime', query: { include: 'notARelationship' }, title: 'Invalid field', code: '112' },
      { path: '/anime', query: { sort: 'notAnAttribute' }, title: 'Invalid sort criteria', code: '114' },
      { path: '/anime/abc', query: {}, title: 'Invalid field value', code: '103' },
    ];
    for (const c of cases) {
      const res = await media.anonymous.send({ method: 'GET', path: c.path, query: c.query, retry: false });
      expectStatus(res, 400, rule);
      expect(errorsOf(res, rule)[0], says(rule, `${c.title} for ${c.path} ${JSON.stringify(c.query)}`)).toMatchObject({ title: c.title, code: c.code });
    }
  }),
);

test(
  ...verifies('media.errors.library-entries-need-filter', 'GET /library-entries without a filter', async ({ media, rule }) => {
    const res = await media.anonymous.send({ method: 'GET', path: '/library-entries', retry: false });
    expectStatus(res, 400, rule);
    expect(errorsOf(res, rule)[0]?.detail, says(rule, 'the real detail')).toBe('No filter provided');
  }),
);

test(
  ...verifies('media.routes.unknown-route-404', 'a path the API does not have', async ({ media, rule }) => {
    const res = await media.anonymous.send({ method: 'GET', path: '/no-such-collection', retry: false });
    expectStatus(res, 404, rule);
    expect(errorsOf(res, rule)[0], says(rule, 'Route Not Found')).toMatchObject({ title: 'Route Not Found' });
  }),
);
