/**
 * The Link deviations are spellings RFC 8288 allows: every Link reader of the
 * harness (the break rewrites, the client, the suites' strict parser) reads
 * them as the twin's published spelling, so the live suites have no reason
 * to go red on them.
 */
import { expect, test } from '../../../src/testing/harnessTest.ts';
import type { ProxiedResponse } from '../../../src/testing/providerBreaks/breakingProxy.ts';
import { STORE_DEVIATIONS } from '../../../src/testing/providerBreaks/storeDeviations.ts';
import { parseLink } from '../../../src/testing/providerBreaks/rewrite.ts';
import { parseLinkHeader } from '../../../src/clients/store/parseLinkHeader.ts';
import { expectLinkEntriesValid, parseLinkStrict } from '../../../suites/fixtures/storeChecks.ts';
import { STORE_RULES } from '../../../src/rules/storeRules.ts';

const BASE = 'http://127.0.0.1:9/v1/100001/products';
const PUBLISHED = `<${BASE}?page=1&per_page=10>; rel="first", <${BASE}?page=1&per_page=10>; rel="prev", <${BASE}?page=3&per_page=10>; rel="next", <${BASE}?page=26&per_page=10>; rel="last"`;
const LINKS = {
  first: `${BASE}?page=1&per_page=10`,
  prev: `${BASE}?page=1&per_page=10`,
  next: `${BASE}?page=3&per_page=10`,
  last: `${BASE}?page=26&per_page=10`,
};
const RULE = STORE_RULES['store.pagination.link-full-urls'];

const respelt = (name: string): string => {
  const page: ProxiedResponse = { status: 200, headers: { link: PUBLISHED }, body: '[]' };
  const req = { method: 'GET', path: '/v1/100001/products?page=2&per_page=10', headers: {}, body: Buffer.alloc(0) };
  return STORE_DEVIATIONS[name]!.onResponse!(page, req, new Map()).headers['link'] as string;
};

test('the Link deviations respell the header and nothing else', () => {
  expect(respelt('link-without-spaces')).toBe(
    `<${BASE}?page=1&per_page=10>;rel="first",<${BASE}?page=1&per_page=10>;rel="prev",<${BASE}?page=3&per_page=10>;rel="next",<${BASE}?page=26&per_page=10>;rel="last"`,
  );
  expect(respelt('link-spaced-out')).toBe(
    `<${BASE}?page=1&per_page=10> ; rel="first" , <${BASE}?page=1&per_page=10> ; rel="prev" , <${BASE}?page=3&per_page=10> ; rel="next" , <${BASE}?page=26&per_page=10> ; rel="last"`,
  );
});

for (const [what, header] of [
  ['the published spelling', PUBLISHED],
  ['link-without-spaces', respelt('link-without-spaces')],
  ['link-spaced-out', respelt('link-spaced-out')],
  [
    'whitespace around "=", an unquoted and an upper-case rel, another parameter',
    `<${LINKS.first}>;REL = first,<${LINKS.prev}>; rel=prev ,<${LINKS.next}> ; title="p; 2" ; rel = "Next", <${LINKS.last}>;rel="last"`,
  ],
] as const) {
  test(`every Link reader of the harness reads ${what} alike`, () => {
    expect(parseLinkHeader(header)).toEqual(LINKS);
    expect(expectLinkEntriesValid(parseLinkStrict(header, RULE), RULE)).toEqual(LINKS);
    expect(Object.fromEntries(parseLink(header).map((e) => [e.rel.toLowerCase(), e.url]))).toEqual(LINKS);
  });
}

test('the strict parser still refuses an entry that is no Link entry, naming the rule', () => {
  for (const header of [`${LINKS.next}; rel="next"`, `<${LINKS.next}>`, `<${LINKS.next}>; rel=""`, `<${LINKS.next}>; rel="next" junk`]) {
    expect(() => parseLinkStrict(header, RULE), header).toThrow(/\[store\.pagination\.link-full-urls\] Link entry/);
  }
});
