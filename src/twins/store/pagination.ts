import { STORE_CONTRACT } from '../../rules/storeContract.ts';
import { lastLinkPage, pageStart, type StoreTwinBreak } from './twinBreaks.ts';
import { StoreApiError } from './errors.ts';

/** A client's paging parameters after validation. */
export interface PageRequest {
  readonly page: number;
  /** Items per page actually served: per_page capped at the maximum. */
  readonly perPage: number;
  /** Whether the client sent per_page; Link URLs carry it only then. */
  readonly perPageSent: boolean;
}

/**
 * Reads page and per_page (store.pagination.first-page-default,
 * store.pagination.default-page-size, store.pagination.max-page-size, store.pagination.per-page-over-max,
 * store.pagination.invalid-page-400).
 */
export function parsePageRequest(query: URLSearchParams): PageRequest {
  const page = readPositiveInteger(query, 'page') ?? 1;
  const sent = readPositiveInteger(query, 'per_page');
  return {
    page,
    perPage: sent === undefined ? STORE_CONTRACT.defaultPerPage : Math.min(sent, STORE_CONTRACT.maxPerPage),
    perPageSent: sent !== undefined,
  };
}

function readPositiveInteger(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  if (!/^[0-9]+$/.test(raw) || /^0+$/.test(raw)) {
    throw StoreApiError.standard(400, `${name} must be a positive integer`);
  }
  // A huge page stays huge (past the last page: 404); a huge per_page is capped.
  return Number(raw);
}

/** One page of a filtered collection, and what it takes to describe the rest. */
export interface PageSlice<T> {
  readonly items: readonly T[];
  /** Items matching the filters: X-Total-Count (store.pagination.total-count). */
  readonly total: number;
  readonly lastPage: number;
}

/**
 * Filters and pages in one pass without copying the collection: only the
 * page's items are kept, the rest are counted. Pages meet end to start, so following next visits every item
 * once (store.pagination.follow-links).
 */
export function selectPage<T>(source: Iterable<T>, accept: (item: T) => boolean, request: PageRequest, twinBreak?: StoreTwinBreak): PageSlice<T> {
  const start = pageStart(twinBreak, request.page, request.perPage);
  const end = start + request.perPage;
  const items: T[] = [];
  let total = 0;
  for (const item of source) {
    if (!accept(item)) continue;
    if (total >= start && total < end) items.push(item);
    total += 1;
  }
  return { items, total, lastPage: Math.ceil(total / request.perPage) };
}

/**
 * A page past the last answers 404 "Last page is N" (store.pagination.past-last-page-404).
 * For products and categories an empty collection answers 404 "Last page is 0"
 * for page 1, as observed in client code; other collections (webhooks, images,
 * variants) answer an empty array then (see ASSUMPTIONS.md).
 */
export function assertPageExists(slice: PageSlice<unknown>, request: PageRequest, options: { readonly emptyIs404: boolean }): void {
  const last = options.emptyIs404 ? slice.lastPage : Math.max(1, slice.lastPage);
  if (request.page > last) throw StoreApiError.standard(404, `Last page is ${last}`);
}

export interface LinkInput {
  /** Full URL of the collection without a query: `http://{host}/v1/{id}/products`. */
  readonly collectionUrl: string;
  /** The client's query; its parameters other than page and per_page are echoed in order. */
  readonly query: URLSearchParams;
  readonly request: PageRequest;
  readonly lastPage: number;
  /** A deliberate break of the twin (twinBreaks.ts); undefined on a faithful twin. */
  readonly twinBreak?: StoreTwinBreak | undefined;
}

/**
 * The Link header (store.pagination.link-full-urls, store.pagination.link-rels-presence):
 * first and prev after page 1, next and last before the last page, entries
 * `<url>; rel="x"` joined by ", ". Undefined when everything fits on one page.
 */
export function buildLinkHeader(input: LinkInput): string | undefined {
  const { request, lastPage } = input;
  if (lastPage <= 1) return undefined;
  // store.pagination.links-same-listing: every entry keeps the client's query (filters, fields, per_page); only page differs.
  const echoed: string[] = [];
  for (const [key, value] of input.query) {
    if (key === 'page' || key === 'per_page') continue;
    echoed.push(`${encodeURIComponent(key)}=${encodeURIComponent(value)}`);
  }
  const urlOf = (page: number): string => {
    const params = [...echoed, `page=${page}`];
    if (request.perPageSent) params.push(`per_page=${request.perPage}`);
    return `${input.collectionUrl}?${params.join('&')}`;
  };
  const entries: string[] = [];
  if (request.page > 1) {
    entries.push(`<${urlOf(1)}>; rel="first"`, `<${urlOf(request.page - 1)}>; rel="prev"`);
  }
  if (request.page < lastPage) {
    entries.push(`<${urlOf(request.page + 1)}>; rel="next"`, `<${urlOf(lastLinkPage(input.twinBreak, lastPage))}>; rel="last"`);
  }
  return entries.length > 0 ? entries.join(', ') : undefined;
}

/** X-Total-Count and, when there is more than one page, Link. */
export function paginationHeaders(slice: PageSlice<unknown>, input: Omit<LinkInput, 'lastPage'>): Record<string, string> {
  const headers: Record<string, string> = { 'X-Total-Count': String(slice.total) };
  const link = buildLinkHeader({ ...input, lastPage: slice.lastPage });
  if (link !== undefined) headers['Link'] = link;
  return headers;
}
