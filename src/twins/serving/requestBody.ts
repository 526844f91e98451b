import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/** The largest body a twin reads (neither contract shows a size limit; see ASSUMPTIONS.md). */
export const MAX_BODY_BYTES = 1024 * 1024;

// A body a little over the limit is read and dropped so the 413 reaches the
// client on a live connection; past this the twin answers and closes.
const DRAIN_LIMIT_BYTES = 16 * MAX_BODY_BYTES;

/** Content-Length as a number, or undefined when absent or unreadable. */
export function declaredLength(headers: IncomingHttpHeaders): number | undefined {
  const raw = headers['content-length'];
  if (raw === undefined || !/^\s*\d+\s*$/.test(raw)) return undefined;
  return Number(raw);
}

/** A request carries a body when Content-Length > 0 or it is chunked. */
export function declaresBody(headers: IncomingHttpHeaders): boolean {
  return (declaredLength(headers) ?? 0) > 0 || headers['transfer-encoding'] !== undefined;
}

/** The media type of Content-Type without parameters, lower case; '' when absent. */
export function mediaTypeOf(headers: IncomingHttpHeaders): string {
  return (headers['content-type']?.split(';')[0] ?? '').trim().toLowerCase();
}

/** `application/json`, any parameters (charset optional). */
export function isJsonContentType(headers: IncomingHttpHeaders): boolean {
  return mediaTypeOf(headers) === 'application/json';
}

export type BodyRead =
  | { readonly kind: 'complete'; readonly bytes: Buffer }
  /** `reusable`: the whole body was drained, so the connection can stay open. */
  | { readonly kind: 'too-large'; readonly reusable: boolean }
  /** The client went away mid-body; there is no one to answer. */
  | { readonly kind: 'aborted' };

/** Reads the body, keeping at most `limit` bytes. */
export function readBody(req: IncomingMessage, limit: number = MAX_BODY_BYTES): Promise<BodyRead> {
  const declared = declaredLength(req.headers);
  if (declared !== undefined && declared > DRAIN_LIMIT_BYTES) return Promise.resolve({ kind: 'too-large', reusable: false });
  if (req.readableEnded) return Promise.resolve({ kind: 'complete', bytes: Buffer.alloc(0) });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (outcome: BodyRead): void => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      resolve(outcome);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > DRAIN_LIMIT_BYTES) {
        req.pause();
        settle({ kind: 'too-large', reusable: false });
      }
    };
    const onEnd = (): void => settle(size > limit ? { kind: 'too-large', reusable: true } : { kind: 'complete', bytes: Buffer.concat(chunks, size) });
    const onClose = (): void => settle({ kind: 'aborted' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
  });
}

/** Reads and drops a body nobody looks at (a DELETE may carry one), so the connection stays usable. */
export async function discardBody(req: IncomingMessage): Promise<void> {
  if (declaresBody(req.headers)) await readBody(req, 0);
}

export type JsonParse = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Parses a body as JSON; bytes that are not UTF-8 count as invalid JSON. `reason` is for error details. */
export function parseJson(bytes: Uint8Array): JsonParse {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, reason: 'the body is not UTF-8' };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : 'unreadable JSON' };
  }
}

/** A JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
