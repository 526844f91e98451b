/**
 * The offset paginator (field notes, "Pagination"): page[limit] and
 * page[offset] (media.pagination.offset); links first, prev (offset > 0), next (offset + limit < count)
 * and last (offset max(count − limit, 0), not aligned to pages): media.pagination.links.
 */
import { lastLinkOffset, windowStart, type MediaTwinBreak } from '../twinBreaks.ts';
import type { PageLimits } from '../resources/define.ts';
import { ERROR_CODES, JsonApiError, invalidPageValue } from './errors.ts';
import { escapeQueryComponent, queryPair, withQuery, withQueryPlus } from './links.ts';

const LIMIT_KEY = escapeQueryComponent('page[limit]');
const OFFSET_KEY = escapeQueryComponent('page[offset]');

export interface PageWindow {
  readonly limit: number;
  readonly offset: number;
}

export type PageLinks = {
  readonly first: string;
  readonly prev?: string;
  readonly next?: string;
  readonly last: string;
};

function readWhole(page: ReadonlyMap<string, string>, name: string): number | undefined {
  const raw = page.get(name);
  if (raw === undefined) return undefined;
  const trimmed = raw.trim();
  const value = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || !Number.isSafeInteger(value)) throw invalidPageValue(`${raw} is not a valid value for ${name} page parameter.`);
  return value;
}

/**
 * The window a request asks for. Unpaginated collections return everything
 * unless the client asks for a window (undefined), with no maximum.
 */
export function parsePage(page: ReadonlyMap<string, string>, limits: PageLimits, allowed: readonly string[] = ['limit', 'offset']): PageWindow | undefined {
  for (const name of page.keys()) {
    if (!allowed.includes(name)) {
      throw JsonApiError.of(400, 'Page parameter not allowed', `${name} is not an allowed page parameter.`, ERROR_CODES.paramNotAllowed);
    }
  }
  const limit = readWhole(page, 'limit');
  const offset = readWhole(page, 'offset') ?? 0;
  // media.pagination.limit-bounds-400: a limit of 0, or over the maximum of a paginated collection.
  if (limit !== undefined && limit < 1) throw invalidPageValue(`${page.get('limit') ?? ''} is not a valid value for limit page parameter.`);
  if (limits.kind === 'unpaginated') return limit === undefined && !page.has('offset') ? undefined : { limit: limit ?? Number.MAX_SAFE_INTEGER, offset };
  if (limit !== undefined && limit > limits.maxLimit) throw invalidPageValue(`Limit exceeds maximum page size of ${limits.maxLimit}.`);
  return { limit: limit ?? limits.defaultLimit, offset };
}

/**
 * The records a window selects (all of them without a window): consecutive windows meet, so following next
 * visits each record once (media.pagination.follow-next). A twin with a break (twinBreaks.ts) may shift the window.
 */
export function pageOf<T>(records: readonly T[], window: PageWindow | undefined, twinBreak?: MediaTwinBreak): readonly T[] {
  if (window === undefined) return records;
  const start = windowStart(twinBreak, window.offset);
  return records.slice(start, start + window.limit);
}

/**
 * first/prev/next/last for a window over `count` records, echoing the client's other parameters.
 * media.pagination.first-last: first and last on every page, full URLs; no next on the last page.
 */
export function pageLinks(
  url: string,
  echo: readonly (readonly [string, string])[],
  window: PageWindow | undefined,
  count: number,
  twinBreak?: MediaTwinBreak,
): PageLinks {
  if (window === undefined) {
    const all = withQuery(url, echo);
    return { first: all, last: all };
  }
  // media.pagination.same-listing: every link repeats the request's filter, include, fields and sort (echo) and its limit.
  // Escaped and sorted once for all four links: only the offset differs between them (whole numbers need no escaping).
  const shared = echo.map(queryPair);
  // An unpaginated collection read with only an offset has no limit to repeat (not the sentinel "everything").
  if (window.limit !== Number.MAX_SAFE_INTEGER) shared.push(`${LIMIT_KEY}=${window.limit}`);
  shared.sort();
  const at = (offset: number): string => withQueryPlus(url, shared, `${OFFSET_KEY}=${offset}`);
  return {
    first: at(0),
    ...(window.offset > 0 ? { prev: at(Math.max(window.offset - window.limit, 0)) } : {}),
    ...(window.offset + window.limit < count ? { next: at(window.offset + window.limit) } : {}),
    last: at(lastLinkOffset(twinBreak, Math.max(count - window.limit, 0), window.limit)),
  };
}
