import { expect, test } from '../../../src/testing/harnessTest.ts';
import { PROJECT_SET, problemsOf, type BreakSet } from '../../../src/testing/providerBreaks/breakSet.ts';
import { STORE_BREAKS } from '../../../src/testing/providerBreaks/storeBreaks.ts';
import { MEDIA_BREAKS } from '../../../src/testing/providerBreaks/mediaBreaks.ts';
import { findRule } from '../../../src/rules/catalogues.ts';

test("every rule id the project's breaks name is a rule of that API's catalogue, and the set is consistent", () => {
  expect(problemsOf(PROJECT_SET)).toEqual([]);
  const unknown = [
    ...Object.entries(STORE_BREAKS).flatMap(([name, b]) =>
      b.rules.filter((id) => !findRule(id) || !id.startsWith('store.')).map((id) => `store ${name}: ${id}`),
    ),
    ...Object.entries(MEDIA_BREAKS).flatMap(([name, b]) =>
      b.rules.filter((id) => !findRule(id) || !id.startsWith('media.')).map((id) => `media ${name}: ${id}`),
    ),
  ];
  expect(unknown, 'rule ids no catalogue has').toEqual([]);
});

test('a misspelt rule id, a rule of the other API, a break without rules and a name used twice are problems', () => {
  const change = { onResponse: <T>(res: T) => res };
  const set: BreakSet = {
    store: {
      breaks: {
        misspelt: { breaks: 'x', kind: 'contract', rules: ['store.pagination.total-cuont'], ...change },
        none: { breaks: 'x', kind: 'reliance', rules: [], ...change },
        'link-relative-urls': { breaks: 'x', kind: 'contract', rules: ['store.pagination.link-full-urls'], ...change },
      },
      deviations: { idle: { allows: 'nothing' } },
    },
    media: {
      // A store rule named by a media break: not in the media catalogue.
      breaks: { crossed: { breaks: 'x', kind: 'contract', rules: ['media.pagination.total-count'], ...change } },
    },
  };
  expect(problemsOf(set, undefined, [PROJECT_SET])).toEqual([
    'store break misspelt: no rule store.pagination.total-cuont in the store catalogue (src/rules)',
    'store break none: names no rule it breaks',
    'store break link-relative-urls: the name is taken by another set',
    'store deviation idle: changes nothing (no onRequest, no onResponse)',
    'media break crossed: no rule media.pagination.total-count in the media catalogue (src/rules)',
  ]);
});

test('the breaks the pact verification of provider breaks names are in the set', async () => {
  const { readFileSync } = await import('node:fs');
  const spec = readFileSync('tests/self-tests/pacts/providerBreaks.verify.spec.ts', 'utf8');
  const named = [...spec.matchAll(/api: '(store|media)', breakName: '([^']+)'/g)].map((m) => [m[1]!, m[2]!] as const);
  expect(named.length, 'the spec lists its breaks').toBeGreaterThan(0);
  const missing = named.filter(([api, name]) => !(api === 'store' ? STORE_BREAKS : MEDIA_BREAKS)[name]).map(([api, name]) => `${api} ${name}`);
  expect(missing).toEqual([]);
});
