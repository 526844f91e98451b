import { HeaderMap } from '../../http/HeaderMap.ts';
import { resolveTarget } from '../../http/resolveTarget.ts';
import type { WireRequest } from '../../http/transport.ts';
import { STORE_CONTRACT } from '../../rules/storeContract.ts';
import { StoreRequestError } from './errors.ts';
import type { StoreRequest } from './types.ts';

/** A StoreRequest made concrete: what goes on the wire (a WireRequest with the store's extras). */
export interface PreparedRequest extends WireRequest {
  /** A bodyless PUT that must go without Content-Length (store.http.put-without-length-411). */
  omitContentLength: boolean;
  /** Credential values of this request beyond the client's own, to redact. */
  secrets: string[];
}

export interface RequestDefaults {
  baseUrl: URL;
  token: string;
  userAgent: string;
}

/**
 * Builds the wire request by the Common request rules:
 * - the token as `Authentication: bearer <token>` (store.auth.authentication-header);
 * - a User-Agent on every request (store.http.user-agent-required);
 * - JSON bodies with Content-Type: application/json; charset=utf-8 (store.http.content-type-required);
 * - Content-Length: 0 on a PUT without a body (store.http.put-empty-body-content-length).
 * Each can be switched off or overridden, for the suites that check the provider's refusals.
 */
export function buildRequest(request: StoreRequest, defaults: RequestDefaults): PreparedRequest {
  const method = request.method;
  if (!method) throw new StoreRequestError('StoreClient.send: the request has no method. Fix: set method, e.g. "GET".');
  const url = targetUrl(request, defaults.baseUrl);
  const headers = new HeaderMap();
  const secrets: string[] = [];

  const auth = request.auth ?? 'token';
  if (auth === 'token') {
    // The token goes only where the store lives: a Link (or a typo) must not carry it elsewhere.
    if (url.origin !== defaults.baseUrl.origin) {
      throw new StoreRequestError(
        `StoreClient.send: refusing to send the store token to ${url.origin}; the store's base URL is on ${defaults.baseUrl.origin}. ` +
          "Fix: reach the store through path (or a URL on its origin); for another origin pass auth: 'none' or an explicit { header, value }.",
      );
    }
    headers.set(STORE_CONTRACT.tokenHeader, `${STORE_CONTRACT.tokenScheme} ${defaults.token}`);
  } else if (auth !== 'none') {
    headers.set(auth.header, auth.value);
    secrets.push(auth.value);
  }

  const userAgent = request.userAgent === undefined ? defaults.userAgent : request.userAgent;
  if (userAgent !== null) headers.set('User-Agent', userAgent);

  if (request.json !== undefined && request.rawBody !== undefined) {
    throw new StoreRequestError('StoreClient.send: the request has both json and rawBody. Fix: pass one of them.');
  }
  const body = request.json !== undefined ? JSON.stringify(request.json) : request.rawBody;
  if (body !== undefined && request.contentType !== null) headers.set('Content-Type', request.contentType ?? STORE_CONTRACT.jsonContentType);
  if (body === undefined && typeof request.contentType === 'string') headers.set('Content-Type', request.contentType);

  const bodylessPut = body === undefined && method.toUpperCase() === 'PUT';
  const omitContentLength = bodylessPut && request.contentLength0 === false;
  if (bodylessPut && !omitContentLength) headers.set('Content-Length', '0');

  for (const [name, value] of Object.entries(request.headers ?? {})) headers.set(name, value);
  if (omitContentLength) headers.delete('Content-Length');

  return { method, url, headers: headers.toRecord(), body, omitContentLength, secrets };
}

/** Joins a path under the base (keeping /v1/{store_id}), or takes an absolute URL; then the query. */
function targetUrl(request: StoreRequest, base: URL): URL {
  const url = resolveTarget(request, base, 'StoreClient', (message) => new StoreRequestError(message));
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url;
}
