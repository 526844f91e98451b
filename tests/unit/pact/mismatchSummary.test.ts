/**
 * The short account of a failed interaction (contracts/verification/mismatchSummary.ts, whoActs.ts): each of
 * Pact's mismatches once, over every item, and who acts by the contract's schema for the route.
 */
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { generalisePath, summariseMismatches, verifierMismatches, type VerifierMismatch } from '../../../contracts/verification/mismatchSummary.ts';
import { whoActs } from '../../../contracts/verification/whoActs.ts';

const product = (id: number) => ({ id, name: { es: `P ${id}` }, variants: [{ price: '1.00' }, { price: '2.00' }] });
const page = Array.from({ length: 30 }, (_, i) => product(i + 1));
const missingStock = (i: number): VerifierMismatch => ({ type: 'BodyMismatch', path: `$[${i}]`, mismatch: 'Actual map is missing the following keys: stock' });

test('the same missing member in every item is one line, counted against the items the provider answered', () => {
  const mismatches = Array.from({ length: 30 }, (_, i) => missingStock(i));
  expect(summariseMismatches(mismatches, page)).toEqual(['$[*].stock: missing in 30 of 30 items']);
  expect(summariseMismatches(mismatches.slice(0, 3), page)).toEqual(['$[*].stock: missing in 3 of 30 items']);
});

test('values that differ from item to item still make one line; a status and a header are their own lines', () => {
  const lines = summariseMismatches(
    [
      { type: 'BodyMismatch', path: '$[0].variants[1].price', mismatch: "Expected '2.00' to match '^\\d+,\\d{2}$'" },
      { type: 'BodyMismatch', path: '$[7].variants[0].price', mismatch: "Expected '1.00' to match '^\\d+,\\d{2}$'" },
      { type: 'StatusMismatch', expected: 200, actual: 404, mismatch: 'expected 200 but was 404' },
      { type: 'HeaderMismatch', key: 'Link', mismatch: "Expected header 'Link' to have value '…' but was ''" },
    ],
    page,
  );
  expect(lines).toEqual([
    "$[*].variants[*].price: Expected '2.00' to match '^\\d+,\\d{2}$' in 2 of 30 items",
    'status: the pact expects 200, the provider answered 404',
    "header Link: Expected header 'Link' to have value '…' but was ''",
  ]);
  expect(generalisePath('$[3].a[0][12].b')).toBe('$[*].a[*][*].b');
});

test("the Verifier's JSON gives its mismatches; anything else gives none", () => {
  const json = JSON.stringify({
    errors: [
      { interaction: 'x', mismatch: { mismatches: [missingStock(0)] } },
      { interaction: 'y', mismatch: { type: 'error', message: 'connection refused' } },
    ],
  });
  expect(verifierMismatches(json)).toEqual([missingStock(0), { type: 'error', mismatch: 'connection refused' }]);
  expect(verifierMismatches('Verification failed')).toEqual([]);
});

test('who acts: an answer the contract schema accepts puts it on the consumer; one it refuses, on the provider', () => {
  const answer = { method: 'GET', path: '/v1/100001/products', status: 200 };
  const consumer = whoActs('store', 'live', [missingStock(0)], { ...answer, body: page });
  expect(consumer).toMatch(/^Who acts: the consumer\. .*store\/product-list/);
  // Wrapped in a root element, which the contract rules out (store.json.no-root-element).
  const broken = whoActs('store', 'live', [missingStock(0)], { ...answer, body: { products: page } });
  expect(broken).toMatch(/^Who acts: the provider\. Its answer breaks the contract \(the store\/product-list schema\): /);
  // A header the schemas do not cover: decided on the twin (held to the contract), left to the spec on live.
  const header: VerifierMismatch = { type: 'HeaderMismatch', key: 'Link', mismatch: 'missing' };
  expect(whoActs('store', 'twin', [header], { ...answer, body: page })).toMatch(/^Who acts: the consumer\. The twin answers as the contract reads/);
  expect(whoActs('store', 'live', [header], { ...answer, body: page })).toMatch(/^Who acts: not decided by the contract schemas/);
});
