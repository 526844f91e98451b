/**
 * Deliberate breaks a media twin can be started with, one at a time, to prove
 * that the properties (properties/) and the fuzzer (tests/fuzz/) go red when a
 * provider breaks the rule they check. Only tests start a twin with a break
 * (startMediaTwin({ twinBreak })); `npm run twins` and the suites' twin never have one.
 */
import type { RawFilter } from './jsonapi/query.ts';

export const MEDIA_TWIN_BREAKS = {
  'page-drops-item': 'media.pagination.follow-next: every page after the first (page[offset] > 0) misses the item at its offset',
  'page-repeats-item': "media.pagination.follow-next: every page after the first (page[offset] > 0) starts with the previous page's last item",
  'wrong-last-link': 'media.pagination.links: links.last points one limit before max(count − limit, 0)',
  'crash-on-repeated-filter': 'media.errors.jsonapi-errors: a filter[...] sent twice arrives as a list of its values and throws a TypeError (answered 500)',
} as const;

export type MediaTwinBreak = keyof typeof MEDIA_TWIN_BREAKS;

export function isMediaTwinBreak(name: string): name is MediaTwinBreak {
  return Object.hasOwn(MEDIA_TWIN_BREAKS, name);
}

/**
 * The filters of an index as a twin with a break reads them:
 * `crash-on-repeated-filter` gives a filter sent twice as the list of its
 * values (as a qs-style parser would), which the filter code then splits as a
 * string: a TypeError (the fuzzer's planted crash).
 */
export function filtersAsRead(twinBreak: MediaTwinBreak | undefined, query: URLSearchParams, filters: readonly RawFilter[]): readonly RawFilter[] {
  if (twinBreak !== 'crash-on-repeated-filter') return filters;
  return filters.map((filter) => {
    const values = query.getAll(`filter[${filter.name}]`);
    return values.length > 1 ? { ...filter, value: values as unknown as string } : filter;
  });
}

/** Where a window that asks for `offset` starts, 0-based, in the filtered, sorted collection. */
export function windowStart(twinBreak: MediaTwinBreak | undefined, offset: number): number {
  if (offset === 0) return offset;
  if (twinBreak === 'page-drops-item') return offset + 1;
  if (twinBreak === 'page-repeats-item') return offset - 1;
  return offset;
}

/** The offset links.last names, given the right one, max(count − limit, 0). */
export function lastLinkOffset(twinBreak: MediaTwinBreak | undefined, lastOffset: number, limit: number): number {
  return twinBreak === 'wrong-last-link' && lastOffset > 0 ? Math.max(lastOffset - limit, 0) : lastOffset;
}
