/**
 * Query strings of the links the twin hands out, written the way Rails'
 * `to_query` writes them (fixtures: `page%5Blimit%5D=2&page%5Boffset%5D=0`):
 * CGI-escaped, brackets percent-encoded, pairs sorted.
 */

/** Ruby's CGI.escape: unreserved `A-Za-z0-9_.-~` kept, space as `+`, the rest percent-encoded. */
export function escapeQueryComponent(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

export function toQuery(pairs: readonly (readonly [string, string])[]): string {
  return pairs
    .map(([key, value]) => `${escapeQueryComponent(key)}=${escapeQueryComponent(value)}`)
    .sort()
    .join('&');
}

export function withQuery(url: string, pairs: readonly (readonly [string, string])[]): string {
  const query = toQuery(pairs);
  return query === '' ? url : `${url}?${query}`;
}
