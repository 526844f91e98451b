/**
 * A failed status check reads the right way round (suites/fixtures/expectContract.ts): the first line says what the
 * provider answered and what the contract wants, and the matcher's own lines agree: Expected is the contract's
 * status(es), Received the provider's.
 */
import { stripVTControlCharacters } from 'node:util';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { expectStatus as expectStoreStatus } from '../../../suites/fixtures/storeChecks.ts';
import { expectStatus as expectMediaStatus } from '../../../suites/fixtures/mediaChecks.ts';
import { expect as contractExpect, expectOneOf } from '../../../suites/fixtures/expectContract.ts';
import { STORE_RULES } from '../../../src/rules/storeRules.ts';
import { MEDIA_RULES } from '../../../src/rules/mediaRules.ts';
import type { StoreResponse } from '../../../src/clients/store/types.ts';
import type { MediaResponse } from '../../../src/clients/media/types.ts';

/** What a failed check throws, as the report shows it: colour codes gone. */
function failureOf(check: () => void): string {
  try {
    check();
  } catch (error) {
    return stripVTControlCharacters((error as Error).message);
  }
  throw new Error('the check passed: it was meant to fail');
}

const answer = { status: 429, headers: {}, text: '<html><body>Too Many Requests</body></html>', json: () => ({}), method: 'POST' };

test("a store status check that fails prints the contract's status as Expected and the provider's as Received", () => {
  const rule = STORE_RULES['store.errors.validation-422']!;
  const res = { ...answer, url: 'https://api.example/v1/100001/products', links: {} } as unknown as StoreResponse;
  const message = failureOf(() => expectStoreStatus(res, 422, rule));
  expect(message.split('\n')[0]).toBe('[store.errors.validation-422] POST /v1/100001/products answered 429, expected 422');
  expect(message).toContain('expect(received).toBeOneOf(expected)');
  expect(message).toMatch(/\nExpected: 422\nReceived: 429$/);
  // The body is in the test's attachments; its markup never reaches the message.
  expect(message).not.toContain('<html>');
  expect(() => expectStoreStatus({ ...res, status: 422 } as StoreResponse, 422, rule)).not.toThrow();
});

test('a media status check that accepts a set names every status the contract allows as Expected', () => {
  const rule = Object.values(MEDIA_RULES)[0]!;
  const res = { ...answer, status: 500, url: 'https://media.example/api/edge/anime/1' } as unknown as MediaResponse;
  const message = failureOf(() => expectMediaStatus(res, [400, 404], rule));
  expect(message.split('\n')[0]).toBe(`[${rule.id}] POST https://media.example/api/edge/anime/1 answered 500, expected 400 or 404`);
  expect(message).toMatch(/\nExpected: one of 400, 404\nReceived: 500$/);
  expect(() => expectMediaStatus({ ...res, status: 404 } as MediaResponse, [400, 404], rule)).not.toThrow();
});

test('a value the provider gave outside the contract’s set reads the same way, and .not says “not”', () => {
  expect(failureOf(() => expectOneOf('prev', ['next', 'last'], 'Link rel'))).toMatch(/\nExpected: one of "next", "last"\nReceived: "prev"$/);
  expect(failureOf(() => contractExpect<unknown>(1).not.toBeOneOf([1]))).toMatch(/\nExpected: not 1\nReceived: 1$/);
});

test("a header outside the range the contract's model allows prints the range as Expected and the header as Received", () => {
  expect(failureOf(() => contractExpect(19845, 'X-Rate-Limit-Reset').toBeWithin(0, 500))).toMatch(/\nExpected: from 0 to 500\nReceived: 19845$/);
  expect(() => contractExpect(500, 'X-Rate-Limit-Reset').toBeWithin(0, 500)).not.toThrow();
});
