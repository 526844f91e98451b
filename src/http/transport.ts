import { request as undiciRequest, type Dispatcher } from 'undici';
import type { PaceOption } from './interceptors/pacing.ts';
import type { LengthOption } from './interceptors/withoutLength.ts';
import { flatHeaders } from './flatHeaders.ts';
import { requestStackOn } from './requestStack.ts';

/** A request made concrete: what goes on the wire. Each client builds its own. */
export interface WireRequest {
  method: string;
  url: URL;
  /** Every header to send, names as written. */
  headers: Record<string, string>;
  body: string | undefined;
  /** Send with neither Content-Length nor Transfer-Encoding (a bodyless PUT the provider must refuse). */
  omitContentLength?: boolean;
  /** false: each attempt leaves without waiting at the client's gate, though it takes its place there. */
  pace?: boolean;
}

/** An answer as it came: status, lower-case headers, body text. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/**
 * Sends one request on `dispatcher` and reads the whole answer; network failures
 * are thrown as they come. `dispatcher` is a request stack or is composed on one
 * (requestStack.ts), whose base sends a request marked `omitContentLength` with
 * node:http; by default, the unguarded stack on undici's global dispatcher.
 */
export async function transport(request: WireRequest, dispatcher: Dispatcher = requestStackOn()): Promise<RawResponse> {
  // Not a literal: undici's RequestOptions do not know the marks, and undici passes them on to the interceptors as they are.
  const options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & LengthOption & PaceOption & { dispatcher: Dispatcher } = {
    method: request.method as Dispatcher.HttpMethod,
    headers: request.headers,
    body: request.body ?? null,
    ...(request.omitContentLength ? { omitContentLength: true } : {}),
    ...(request.pace === false ? { pace: false } : {}),
    dispatcher,
  };
  const response = await undiciRequest(request.url, options);
  const text = await response.body.text();
  return { status: response.statusCode, headers: flatHeaders(response.headers), text };
}
