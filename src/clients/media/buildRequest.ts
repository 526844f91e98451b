import { HeaderMap } from '../../http/HeaderMap.ts';
import { requestBody, requestMethodAndUrl, type Builder } from '../../http/requestParts.ts';
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

const BUILDER: Builder = { who: 'MediaClient', refuse: (message) => new MediaRequestError(message) };

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
  // The query appended by hand: URLSearchParams would re-encode the caller's own query and the list commas.
  const { method, url } = requestMethodAndUrl(request, defaults.baseUrl, BUILDER, (target) => {
    const extra = Object.entries(request.query ?? {})
      .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
      .map(([name, value]) => `${encodeName(name)}=${encodeValue(String(value))}`);
    if (extra.length > 0) target.search = target.search.length > 1 ? `${target.search.slice(1)}&${extra.join('&')}` : extra.join('&');
  });
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

  const body = requestBody(request, { name: 'body', value: request.body, contentType: MEDIA_CONTRACT.mediaType }, headers, BUILDER);

  for (const [name, value] of Object.entries(request.headers ?? {})) headers.set(name, value);
  return { method, url, headers: headers.toRecord(), body, secrets };
}
