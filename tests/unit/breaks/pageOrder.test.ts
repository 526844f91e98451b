/**
 * The rewrites of issue 45's break and deviation (src/testing/providerBreaks/): a sort applied to each page alone,
 * and links.last at the last page aligned to the page size.
 */
import { expect, test } from '../../../src/testing/harnessTest.ts';
import type { ProviderChange, ProxiedRequest, ProxiedResponse } from '../../../src/testing/providerBreaks/breakingProxy.ts';
import { MEDIA_BREAKS } from '../../../src/testing/providerBreaks/mediaBreaks.ts';
import { MEDIA_DEVIATIONS } from '../../../src/testing/providerBreaks/mediaDeviations.ts';

const ORIGIN = 'http://127.0.0.1:9/api/edge';
const request = (path: string): ProxiedRequest => ({ method: 'GET', path, headers: { host: '127.0.0.1:9' }, body: Buffer.alloc(0) });
const collection = (doc: unknown): ProxiedResponse => ({ status: 200, headers: {}, body: JSON.stringify(doc) });
const forwarded = (change: ProviderChange, req: ProxiedRequest) => change.onRequest?.(req, {}, new Map()) ?? req;

interface Doc {
  data: { id: string; attributes: Record<string, unknown> }[];
  meta: { count: number };
  links: Record<string, string>;
}

test('sort-within-page-only: the request goes on unsorted, each page comes back sorted alone, and its links keep the sort', () => {
  const brk = MEDIA_BREAKS['sort-within-page-only']!;
  const req = forwarded(brk, request('/api/edge/anime?sort=-averageRating%2CstartDate&page%5Blimit%5D=3'));
  expect(req.path).toBe('/api/edge/anime?page%5Blimit%5D=3');
  const doc = {
    data: [
      { id: '1', type: 'anime', attributes: { averageRating: '60.53', startDate: '1998-04-03' } },
      { id: '2', type: 'anime', attributes: { averageRating: null, startDate: '2001-09-01' } },
      { id: '3', type: 'anime', attributes: { averageRating: '82.26', startDate: '2004-09-30' } },
      { id: '4', type: 'anime', attributes: { averageRating: '60.53', startDate: '1990-01-01' } },
    ],
    meta: { count: 42 },
    links: { first: `${ORIGIN}/anime?page%5Blimit%5D=3&page%5Boffset%5D=0`, next: `${ORIGIN}/anime?page%5Blimit%5D=3&page%5Boffset%5D=3` },
  };
  const out = JSON.parse(brk.onResponse!(collection(doc), req, new Map()).body) as Doc;
  expect(
    out.data.map((r) => r.id),
    'descending by averageRating (as a number), nulls last, then startDate ascending',
  ).toEqual(['3', '4', '1', '2']);
  expect(Object.values(out.links).map((link) => new URL(link).searchParams.get('sort'))).toEqual(['-averageRating,startDate', '-averageRating,startDate']);
  const unknownKey = request('/api/edge/anime?sort=nope');
  expect(forwarded(brk, unknownKey), 'an unknown sort key still reaches the provider, which answers 400').toBe(unknownKey);
});

test('last-link-page-aligned: links.last at the last multiple of page[limit] below meta.count, the rest as it was', () => {
  const deviation = MEDIA_DEVIATIONS['last-link-page-aligned']!;
  const last = (count: number, limit: number, offset: number) => {
    const doc = {
      data: [],
      meta: { count },
      links: {
        first: `${ORIGIN}/anime?page%5Blimit%5D=${limit}&page%5Boffset%5D=0`,
        last: `${ORIGIN}/anime?filter%5Bsubtype%5D=TV&page%5Blimit%5D=${limit}&page%5Boffset%5D=${offset}`,
      },
    };
    const out = JSON.parse(deviation.onResponse!(collection(doc), request('/api/edge/anime'), new Map()).body) as Doc;
    expect(out.links['first']).toBe(doc.links.first);
    const url = new URL(out.links['last']!);
    expect(url.searchParams.get('filter[subtype]')).toBe('TV');
    return Number(url.searchParams.get('page[offset]'));
  };
  expect(last(12, 5, 7), 'count 12 by 5: the page at 10, where max(count − limit, 0) is 7').toBe(10);
  expect(last(10, 5, 5), 'a count the limit divides: the same page either way').toBe(5);
  expect(last(3, 5, 0)).toBe(0);
  expect(last(0, 5, 0)).toBe(0);
});
