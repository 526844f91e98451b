import { expect, test } from '../../../src/testing/harnessTest.ts';
import { CATALOGUES } from '../../../src/rules/catalogues.ts';
import { defineRules } from '../../../src/rules/Rule.ts';
import { skipReason } from '../../../src/testing/ruleTest.ts';

test('every rule id is <api>.<area>.<rule> under its own catalogue', () => {
  for (const [api, catalogue] of Object.entries(CATALOGUES)) {
    for (const id of Object.keys(catalogue)) expect(id).toMatch(new RegExp(`^${api}\\.[a-z]+\\.[a-z0-9-]+$`));
  }
});

test('a duplicate rule id is refused', () => {
  const rule = { id: 'x.y.z', text: 't', section: 's', source: 'contract', needs: 'any' } as const;
  expect(() => defineRules([rule, rule])).toThrow(/Duplicate rule id x.y.z/);
});

test('live skips twin-only rules and, without STORE_ALLOW_WRITES, rules that write, each with the reason', () => {
  const store = CATALOGUES.store!;
  expect(skipReason(store['store.suspension.every-call-402']!, { target: 'live', allowWrites: true })).toMatch(/control API/);
  expect(skipReason(store['store.products.create']!, { target: 'live', allowWrites: false })).toMatch(/STORE_ALLOW_WRITES=1/);
  expect(skipReason(store['store.products.create']!, { target: 'twin', allowWrites: true })).toBeUndefined();
  expect(skipReason(store['store.pagination.follow-links']!, { target: 'live', allowWrites: false })).toBeUndefined();
});
