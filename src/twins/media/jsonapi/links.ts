/**
 * Query strings of the links the twin hands out, written the way Rails'
 * `to_query` writes them (fixtures: `page%5Blimit%5D=2&page%5Boffset%5D=0`):
 * CGI-escaped, brackets percent-encoded, pairs sorted.
 */

const UNRESERVED = /^[A-Za-z0-9_.~-]*$/;

/** Ruby's CGI.escape: unreserved `A-Za-z0-9_.-~` kept, space as `+`, the rest percent-encoded. */
export function escapeQueryComponent(text: string): string {
  // Most values (offsets, limits, slugs) are unreserved already: nothing to rewrite.
  if (UNRESERVED.test(text)) return text;
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** One `key=value` of a query, escaped. */
export function queryPair([key, value]: readonly [string, string]): string {
  return `${escapeQueryComponent(key)}=${escapeQueryComponent(value)}`;
}

export function toQuery(pairs: readonly (readonly [string, string])[]): string {
  return pairs.map(queryPair).sort().join('&');
}

export function withQuery(url: string, pairs: readonly (readonly [string, string])[]): string {
  const query = toQuery(pairs);
  return query === '' ? url : `${url}?${query}`;
}

/**
 * `url?query` of `sorted` (pairs queryPair wrote, in toQuery's order) and one
 * more pair put in its place: the query toQuery writes for all of them,
 * without sorting again for each link of a page.
 */
export function withQueryPlus(url: string, sorted: readonly string[], pair: string): string {
  const at = sorted.findIndex((other) => other > pair);
  const pairs = at < 0 ? [...sorted, pair] : [...sorted.slice(0, at), pair, ...sorted.slice(at)];
  return `${url}?${pairs.join('&')}`;
}
