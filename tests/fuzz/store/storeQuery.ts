/**
 * Query parameters of the Store API the fuzzer sends odd values to, and
 * which values the documentation accepts. page and per_page are the
 * contract's (Limits); the date filters and `fields` are the twin's documented
 * filters (ASSUMPTIONS.md, Filters and localization).
 */
import fc from 'fast-check';
import { oddNumberTextArb, queryTextArb } from '../malformedValues.ts';
import type { Verdict } from '../verdict.ts';

export const PAGE_PARAMS = ['page', 'per_page'] as const;

/** Read by the product and category lists only ("Product filters: ... created_at_min/max, updated_at_min/max"). */
export const DATE_FILTERS = ['created_at_min', 'created_at_max', 'updated_at_min', 'updated_at_max'] as const;
export const DATE_FILTERED_COLLECTIONS: ReadonlySet<string> = new Set(['products', 'categories']);

/** "A `page` or `per_page` that is not a positive integer: 400"; a huge one stays valid (past the last page: 404). */
export function pageValueAccepted(value: string): boolean {
  return /^[0-9]+$/.test(value) && !/^0+$/.test(value);
}

function isCalendarDate(year: string, month: string, day: string): boolean {
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
}

/**
 * "Date filters take ISO 8601 dates or date-times with +0000, -03:00, Z or no
 * offset (UTC); a + that arrived as a space is read as +; a bad value is 400
 * naming the parameter; an empty value is ignored". Forms the row does not
 * settle (no seconds, fractions, other offsets) are left unclear.
 */
export function dateVerdict(value: string): Verdict {
  const text = value.trim().replace(' ', '+');
  if (text === '') return 'accepted';
  const date = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!date) return 'refused';
  const [, year = '', month = '', day = ''] = date;
  if (!isCalendarDate(year, month, day)) return 'refused';
  if (text.length === 10) return 'accepted';
  const time = /^T(\d{2}):(\d{2}):(\d{2})(?:Z|[+-]\d{2}:?\d{2})?$/.exec(text.slice(10));
  if (time && Number(time[1]) < 24 && Number(time[2]) < 60 && Number(time[3]) < 60) return 'accepted';
  return 'unclear';
}

const dateTextArb = fc.oneof(
  fc.constantFrom(
    '2025-01-31',
    '2025-01-31T00:00:00+0000',
    '2025-01-31T00:00:00-03:00',
    '2025-01-31T00:00:00Z',
    '2025-02-30',
    'yesterday',
    '2025-13-01',
    '31/01/2025',
    '0',
    '-1',
  ),
  queryTextArb,
);

/** One odd parameter for a store route: a page parameter, a date filter, `fields`, or a name no route reads. */
export const storeQueryParamArb: fc.Arbitrary<readonly [string, string]> = fc.oneof(
  fc.tuple(fc.constantFrom(...PAGE_PARAMS), oddNumberTextArb),
  fc.tuple(fc.constantFrom(...DATE_FILTERS), dateTextArb),
  fc.tuple(fc.constant('fields'), queryTextArb),
  fc.tuple(fc.constantFrom('zz_fuzz', 'page[limit]', 'per-page', 'PAGE'), queryTextArb),
);
