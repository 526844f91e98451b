/**
 * The parts of a wire request every client builds alike, by the same rules:
 * a method, the URL the request names (the client appends its query in its
 * own encoding), and a body given as the client's JSON or as raw text, with
 * its Content-Type. The client adds its credentials and its API's headers.
 */
import type { ClientRequest } from './ClientRequest.ts';
import type { HeaderMap } from './HeaderMap.ts';
import { resolveRequestUrl } from './resolveRequestUrl.ts';

/** Who builds, for messages and errors: `StoreClient`, and its request error. */
export interface Builder {
  who: string;
  refuse: (message: string) => Error;
}

/** The method and the URL of `request`, under `base` or absolute; `appendQuery` adds the client's query. */
export function requestMethodAndUrl(request: ClientRequest, base: URL, builder: Builder, appendQuery: (url: URL) => void): { method: string; url: URL } {
  const method = request.method;
  if (!method) throw builder.refuse(`${builder.who}.send: the request has no method. Fix: set method, e.g. "GET".`);
  const url = resolveRequestUrl(request, base, builder.who, builder.refuse);
  appendQuery(url);
  return { method, url };
}

/**
 * The body to send: the client's JSON (`json`, the option named `name`) or `request.rawBody`, not both.
 * A body gets `contentType` unless the request names its own (null: none); a bodyless request gets one only when it names it.
 */
export function requestBody(
  request: ClientRequest,
  json: { name: string; value: unknown; contentType: string },
  headers: HeaderMap,
  builder: Builder,
): string | undefined {
  if (json.value !== undefined && request.rawBody !== undefined) {
    throw builder.refuse(`${builder.who}.send: the request has both ${json.name} and rawBody. Fix: pass one of them.`);
  }
  const body = json.value !== undefined ? JSON.stringify(json.value) : request.rawBody;
  if (body !== undefined && request.contentType !== null) headers.set('Content-Type', request.contentType ?? json.contentType);
  if (body === undefined && typeof request.contentType === 'string') headers.set('Content-Type', request.contentType);
  return body;
}
