import type { QueryParams } from './types.ts';

/**
 * The query of a JSON:API request (field notes: Filters, sort, include, fields;
 * Pagination): `include=a,b.c`, `fields[anime]=slug,titles`, `filter[x]=a,b`,
 * `sort=-a,b`, `page[limit]=..&page[offset]=..`. Brackets are percent-encoded,
 * as in the real service's links; list commas stay literal. Without a leading `?`;
 * empty when there is nothing to send.
 */
export function queryString(params: QueryParams = {}): string {
  return queryPairs(params)
    .map(([name, value]) => `${encodeName(name)}=${encodeValue(value)}`)
    .join('&');
}

/** The same parameters as decoded name/value pairs, in the order they are sent. */
export function queryPairs(params: QueryParams = {}): [name: string, value: string][] {
  const pairs: [string, string][] = [];
  if (params.include && params.include.length > 0) pairs.push(['include', params.include.join(',')]);
  for (const [type, names] of Object.entries(params.fields ?? {})) pairs.push([`fields[${type}]`, names.join(',')]);
  for (const [name, value] of Object.entries(params.filter ?? {})) {
    pairs.push([`filter[${name}]`, Array.isArray(value) ? value.join(',') : String(value)]);
  }
  if (params.sort && params.sort.length > 0) pairs.push(['sort', params.sort.join(',')]);
  for (const key of ['limit', 'offset', 'cursor'] as const) {
    const value = params.page?.[key];
    if (value !== undefined) pairs.push([`page[${key}]`, String(value)]);
  }
  return pairs;
}

/** A parameter name: everything but unreserved characters encoded, so `[` `]` become %5B %5D. */
export function encodeName(name: string): string {
  return encodeURIComponent(name);
}

/** A parameter value: like a name, but list commas stay readable (`include=a,b`). */
export function encodeValue(value: string): string {
  return encodeURIComponent(value).replaceAll('%2C', ',');
}
