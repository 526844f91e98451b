import { HeaderMap } from '../../http/HeaderMap.ts';
import { resolveTarget } from '../../http/resolveTarget.ts';
import type { WireRequest } from '../../http/transport.ts';
import { MEDIA_CONTRACT } from '../../rules/mediaContract.ts';
import { MediaRequestError } from './errors.ts';
import { encodeName, encodeValue } from './queryString.ts';
import type { MediaRequest } from './types.ts';

/** A MediaRequest made concrete, with the credentials it carries beyond the client's own. */
export interface PreparedRequest extends WireRequest {
  body: string | undefined;
  /** Credential values of this request (another token), to redact. */
  secrets: string[];
}

export interface RequestDefaults {
  /** Ends with /api/edge, no trailing slash. */
  baseUrl: URL;
  /** The client's current token; undefined when anonymous. */
  token: string | undefined;
  userAgent: string;
}

/**
 * Builds the wire request (field notes: Media type, keys, ids; Authentication):
 * - `Accept: application/vnd.api+json` on every request;
 * - a JSON:API body as application/vnd.api+json;
 * - the token as `Authorization: Bearer <token>`, only to the base URL's origin;
 * - a User-Agent.
 * Each can be switched off or overridden, for the suites that check the provider's refusals.
 */
export function buildRequest(request: MediaRequest, defaults: RequestDefaults): PreparedRequest {
  const method = request.method;
  if (!method) throw new MediaRequestError('MediaClient.send: the request has no method. Fix: set method, e.g. "GET".');
  const url = targetUrl(request, defaults.baseUrl);
  const headers = new HeaderMap();
  const secrets: string[] = [];

  const auth = request.auth ?? 'token';
  const token = auth === 'token' ? defaults.token : auth === 'none' ? undefined : auth;
  if (auth !== 'token' && auth !== 'none') secrets.push(auth);
  if (token !== undefined) {
    // The token goes only where the service lives: a link (or a typo) must not carry it elsewhere.
    if (url.origin !== defaults.baseUrl.origin) {
      throw new MediaRequestError(
        `MediaClient.send: refusing to send a token to ${url.origin}; the base URL is on ${defaults.baseUrl.origin}. ` +
          "Fix: reach the service through path (or a URL on its origin); for another origin pass auth: 'none'.",
      );
    }
    headers.set('Authorization', `Bearer ${token}`);
  }

  headers.set('User-Agent', defaults.userAgent);
  if (request.accept !== null) headers.set('Accept', request.accept ?? MEDIA_CONTRACT.mediaType);

  if (request.body !== undefined && request.rawBody !== undefined) {
    throw new MediaRequestError('MediaClient.send: the request has both body and rawBody. Fix: pass one of them.');
  }
  const body = request.body !== undefined ? JSON.stringify(request.body) : request.rawBody;
  if (body !== undefined && request.contentType !== null) headers.set('Content-Type', request.contentType ?? MEDIA_CONTRACT.mediaType);
  if (body === undefined && typeof request.contentType === 'string') headers.set('Content-Type', request.contentType);

  for (const [name, value] of Object.entries(request.headers ?? {})) headers.set(name, value);
  return { method, url, headers: headers.toRecord(), body, secrets };
}

/** Joins a path under the base (keeping /api/edge), or takes an absolute URL; then appends the query. */
function targetUrl(request: MediaRequest, base: URL): URL {
  const url = resolveTarget(request, base, 'MediaClient', (message) => new MediaRequestError(message));
  // Appended by hand: URLSearchParams would re-encode the caller's own query and the list commas.
  const extra = Object.entries(request.query ?? {})
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => `${encodeName(name)}=${encodeValue(String(value))}`);
  if (extra.length > 0) url.search = url.search.length > 1 ? `${url.search.slice(1)}&${extra.join('&')}` : extra.join('&');
  return url;
}
