import type { ServerResponse } from 'node:http';
import { STORE_CONTRACT } from '../../rules/storeContract.ts';
import { writeJsonAnswer } from '../serving/writeParts.ts';

/**
 * What a handler answers; written to the socket in one place. The body is the
 * resource or the bare array itself (store.json.no-root-element), with the
 * snake_case keys the resources render (store.json.snake-case-keys).
 */
export interface TwinResponse {
  readonly status: number;
  /** JSON-serialisable, or a JsonText (../serving/jsonText.ts) written as it is; omitted for 204. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export function jsonResponse(status: number, body: unknown, headers?: Readonly<Record<string, string>>): TwinResponse {
  return headers ? { status, body, headers } : { status, body };
}

/**
 * Writes a response. HEAD gets the same status and headers, Content-Length of
 * the body it would have had, and no body (rule store.http.head-any-resource).
 */
export function writeResponse(
  res: ServerResponse,
  method: string | undefined,
  response: TwinResponse,
  baseHeaders: Readonly<Record<string, string>> = {},
): void {
  // The client may be gone, or a late error may follow a response already sent.
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = { ...baseHeaders, ...response.headers };
  if (response.status !== 204 && response.body !== undefined) headers['Content-Type'] = STORE_CONTRACT.jsonContentType;
  writeJsonAnswer(res, method, response.status, headers, response.body);
}
