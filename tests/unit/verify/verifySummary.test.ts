import { expect, test } from '../../../src/testing/harnessTest.ts';
import type { Rule } from '../../../src/rules/Rule.ts';
import {
  areaLine,
  countRules,
  failureLine,
  firstLine,
  groupLine,
  lastRequest,
  notVerifiedCell,
  summaryTable,
  type RuleCounts,
} from '../../../src/verify/verifySummary.ts';

const rule = (id: string, source: Rule['source'] = 'contract'): Rule => ({ id, text: id, section: 'Pagination', source, needs: 'any' });

const RULES = [
  rule('store.pagination.a'),
  rule('store.pagination.b', 'reliance'),
  rule('store.pagination.c'),
  rule('store.pagination.d'),
  rule('store.pagination.e'),
  rule('store.pagination.notes', 'field-notes'),
  rule('store.pagination.observed', 'field-notes'),
];

const COUNTS: RuleCounts = {
  verified: 2,
  failed: 1,
  notVerified: [
    { id: 'x', why: 'twin only' },
    { id: 'y', why: 'needs the write flag' },
    { id: 'z', why: 'needs the write flag' },
  ],
  observations: 1,
  fieldNotesHeld: 4,
  fieldNotesFailed: 0,
};

test('rules are counted as rule-coverage.md counts them: the reason classed, no test and an observation told apart, field notes aside', () => {
  const counts = countRules(RULES, {
    'store.pagination.a': [{ status: 'passed' }, { status: 'passed' }],
    // One failed test of a rule fails it, whatever its other tests did.
    'store.pagination.b': [{ status: 'passed' }, { status: 'failed' }],
    'store.pagination.c': [{ status: 'skipped', reason: 'store.pagination.c creates data; set STORE_ALLOW_WRITES=1 to check it on live.' }],
    'store.pagination.e': [{ status: 'observation' }],
    'store.pagination.notes': [{ status: 'passed' }],
    'store.pagination.observed': [{ status: 'observation' }],
  });
  expect(counts).toEqual({
    verified: 1,
    failed: 1,
    notVerified: [
      { id: 'store.pagination.c', why: 'needs the write flag' },
      { id: 'store.pagination.d', why: 'no test ran' },
      { id: 'store.pagination.e', why: 'observation' },
    ],
    observations: 2,
    fieldNotesHeld: 1,
    fieldNotesFailed: 0,
  });
});

test("an area's line: the brief's counts, the reasons by class, field notes only when there are any", () => {
  expect(areaLine('store.pagination', COUNTS)).toBe(
    'store pagination: 2 verified, 1 failed, 3 not verified (2 needs the write flag, 1 twin only); field notes 4 held, 1 observation',
  );
  expect(areaLine('media.relationships', { ...COUNTS, failed: 0, notVerified: [], observations: 0, fieldNotesHeld: 0 })).toBe(
    'media relationships: 2 verified, 0 failed, 0 not verified',
  );
  expect(notVerifiedCell({ notVerified: [] })).toBe('0');
  expect(groupLine('store pact', { passed: 9, failed: 1, skipped: 0 })).toBe('store pact: 9 passed, 1 failed, 0 skipped');
});

test('the table: a row per API, columns aligned, the pact where it ran', () => {
  const lines = summaryTable([
    { api: 'store', counts: COUNTS, pact: { passed: 9, failed: 1, skipped: 2 } },
    { api: 'media', counts: { ...COUNTS, verified: 22, notVerified: [] } },
  ]);
  expect(lines).toEqual([
    '  API    verified  failed  not verified                             observations  pact',
    '  store  2         1       3 (2 needs the write flag, 1 twin only)  1             9 passed, 1 failed, 2 skipped',
    '  media  22        1       0                                        1             -',
  ]);
});

test("a failure is one line: what broke, the test's last request, the first line of the error; a long one is cut", () => {
  expect(failureLine({ what: 'store.pagination.total-count', request: 'GET /v1/1/products?page=2 → 200', reason: 'X-Total-Count is 45' })).toBe(
    '  ✗ store.pagination.total-count  GET /v1/1/products?page=2 → 200  X-Total-Count is 45',
  );
  expect(failureLine({ what: 'store pact: a request for one category', reason: 'x'.repeat(300) }, 80)).toHaveLength(80);
  expect(firstLine('\u001b[31mError: [store.x] the count\u001b[39m\n\nexpect(received)')).toBe('[store.x] the count');
  expect(firstLine('\n  \n')).toBe('failed without a message');
});

test("the last request comes from exchanges.json, else from the readable exchanges' names", () => {
  const exchange = (method: string, url: string, status: number) => ({ request: { method, url, headers: {} }, response: { status, headers: {} } });
  const record = {
    name: 'exchanges.json',
    body: Buffer.from(JSON.stringify([exchange('GET', 'http://t/v1/1/products', 200), exchange('POST', 'http://t/v1/1/products?x=1', 422)])),
  };
  expect(lastRequest([{ name: 'HTTP 1: GET /v1/1/products → 200' }, record])).toBe('POST /v1/1/products?x=1 → 422');
  expect(lastRequest([{ name: 'HTTP 1: GET /a → 200' }, { name: 'HTTP 2: DELETE /b → 404' }, { name: 'screenshot' }])).toBe('DELETE /b → 404');
  expect(lastRequest([{ name: 'pact mismatch report', body: 'x' }])).toBeUndefined();
});
