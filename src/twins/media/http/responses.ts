import type { ServerResponse } from 'node:http';
import { writeJsonAnswer } from '../../serving/writeParts.ts';

/** What a handler answers; written to the socket in one place. */
export interface TwinResponse {
  readonly status: number;
  /** JSON-serialisable, or a JsonText (../../serving/jsonText.ts) written as it is; omitted for 204. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export function jsonResponse(status: number, body: unknown, headers?: Readonly<Record<string, string>>): TwinResponse {
  return headers ? { status, body, headers } : { status, body };
}

/**
 * Writes a response with `contentType` (the JSON:API media type on the API,
 * plain JSON on OAuth and the control API). HEAD gets the headers only.
 */
export function writeResponse(res: ServerResponse, method: string | undefined, response: TwinResponse, contentType: string): void {
  // The client may be gone, or a late error may follow a response already sent.
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = { 'Content-Type': contentType, ...response.headers };
  // A bodyless answer other than 204 says so (writeJsonAnswer sets the length of a body).
  if (response.status !== 204 && response.body === undefined) headers['Content-Length'] = '0';
  writeJsonAnswer(res, method, response.status, headers, response.body);
}
