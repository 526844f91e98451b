import { HeaderMap } from '../../http/HeaderMap.ts';
import { requestBody, requestMethodAndUrl, type Builder } from '../../http/requestParts.ts';
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

const BUILDER: Builder = { who: 'StoreClient', refuse: (message) => new StoreRequestError(message) };

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
  const { method, url } = requestMethodAndUrl(request, defaults.baseUrl, BUILDER, (target) => {
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) target.searchParams.set(name, String(value));
    }
  });
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

  const body = requestBody(request, { name: 'json', value: request.json, contentType: STORE_CONTRACT.jsonContentType }, headers, BUILDER);

  const bodylessPut = body === undefined && method.toUpperCase() === 'PUT';
  const omitContentLength = bodylessPut && request.contentLength0 === false;
  if (bodylessPut && !omitContentLength) headers.set('Content-Length', '0');

  for (const [name, value] of Object.entries(request.headers ?? {})) headers.set(name, value);
  if (omitContentLength) headers.delete('Content-Length');

  return { method, url, headers: headers.toRecord(), body, omitContentLength, secrets };
}
