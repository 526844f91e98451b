/**
 * The URL a request names: `path` joined under the base URL (keeping the
 * base's own path, e.g. /v1/{store_id} or /api/edge), or `url` taken as an
 * absolute URL. Each client appends its query after, in its own encoding.
 * `refuse` makes the client's own error; `who` names the client in messages.
 */
export function resolveRequestUrl(request: { path?: string; url?: string }, base: URL, who: string, refuse: (message: string) => Error): URL {
  if (request.url !== undefined && request.path !== undefined) {
    throw refuse(`${who}.send: the request has both path and url. Fix: pass path (relative to the base URL) or url (absolute), not both.`);
  }
  if (request.url !== undefined) {
    try {
      return new URL(request.url);
    } catch {
      throw refuse(
        `${who}.send: url ${JSON.stringify(request.url)} is not an absolute URL. Fix: pass an absolute URL, or use path for one relative to the base URL.`,
      );
    }
  }
  const url = new URL(base.href);
  const path = request.path ?? '';
  const queryAt = path.indexOf('?');
  const pathname = queryAt < 0 ? path : path.slice(0, queryAt);
  const basePath = base.pathname.replace(/\/+$/, '');
  url.pathname = pathname === '' ? basePath : `${basePath}${pathname.startsWith('/') ? '' : '/'}${pathname}`;
  url.search = queryAt < 0 ? '' : path.slice(queryAt);
  return url;
}
