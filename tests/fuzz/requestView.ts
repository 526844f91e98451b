/**
 * A raw request as a twin's handler gets to see it through Node's HTTP
 * server: whether Node lets it through at all, the headers after Node merges
 * repeated lines, and the body as JSON. The oracles decide on this view, so
 * they judge what was actually sent, whatever malformation produced it.
 */
import { METHODS, maxHeaderSize } from 'node:http';
import { wireHeaders, type RawRequest } from './rawRequest.ts';

/**
 * Repeated lines of these headers are dropped, the first one kept; other
 * repeated headers are joined with ", " (Node's `message.headers` documentation).
 */
const FIRST_LINE_WINS: ReadonlySet<string> = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
]);

/** Header names lower-cased, values trimmed, repeated lines merged as Node merges them. */
export function effectiveHeaders(request: RawRequest): ReadonlyMap<string, string> {
  const headers = new Map<string, string>();
  for (const [rawName, rawValue] of wireHeaders(request)) {
    const name = rawName.toLowerCase();
    const value = rawValue.trim();
    const previous = headers.get(name);
    if (previous === undefined) headers.set(name, value);
    else if (!FIRST_LINE_WINS.has(name)) headers.set(name, name === 'cookie' ? `${previous}; ${value}` : `${previous}, ${value}`);
  }
  return headers;
}

export type HttpProblem = { readonly status: 400 | 431; readonly why: string };

/** Control characters other than tab may not appear in a field value (RFC 9110, field-value). */
function hasControl(value: string): boolean {
  return [...value].some((char) => (char.charCodeAt(0) < 0x20 && char !== '\t') || char.charCodeAt(0) === 0x7f);
}
// A request target is visible ASCII only (RFC 9112, request-target; no spaces, no raw non-ASCII).
const TARGET = /^[\u0021-\u007E]+$/;

/**
 * Why Node refuses the request before any twin code runs, if it does:
 * the twins document "Requests Node cannot parse get 400 (431 for oversized
 * headers) ... and the connection is closed" (ASSUMPTIONS.md). The fuzzer keeps
 * header sizes far from Node's limit, so the boundary never decides a case.
 */
export function httpProblem(request: RawRequest): HttpProblem | undefined {
  const lines = wireHeaders(request);
  const headerBytes = lines.reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0);
  if (headerBytes > maxHeaderSize) return { status: 431, why: `the header lines total ${headerBytes} bytes, over Node's maxHeaderSize ${maxHeaderSize}` };
  if (!METHODS.includes(request.method)) return { status: 400, why: `${JSON.stringify(request.method)} is not a method token Node parses` };
  if (!TARGET.test(request.target)) return { status: 400, why: 'the request target has a space, a control character or raw non-ASCII' };
  if (lines.some(([, value]) => hasControl(value))) return { status: 400, why: 'a header value has a control character' };
  const names = lines.map(([name]) => name.toLowerCase());
  if (!names.includes('host')) return { status: 400, why: 'an HTTP/1.1 request without Host (RFC 9112, section 3.2)' };
  const length = lines.find(([name]) => name.toLowerCase() === 'content-length')?.[1];
  if (length !== undefined && !/^\d+$/.test(length.trim())) return { status: 400, why: 'Content-Length is not a number' };
  if (length !== undefined && names.includes('transfer-encoding')) return { status: 400, why: 'Content-Length and Transfer-Encoding together' };
  return undefined;
}

/**
 * Why Node refuses the body, if the framing is broken inside it (a bad chunk,
 * a body that ends before its Content-Length): Node answers 400 when it reads
 * that far, so a twin that answers from the headers alone may answer first.
 */
export function brokenBody(request: RawRequest): string | undefined {
  if (request.framing !== 'raw') return undefined;
  const headers = effectiveHeaders(request);
  if (headers.has('transfer-encoding')) return 'the chunked body is not validly framed';
  const length = Number(headers.get('content-length') ?? '0');
  return (request.body?.length ?? 0) < length ? 'the body ends (the client half-closes) before its Content-Length' : undefined;
}

/** A body is declared by Content-Length > 0 or by Transfer-Encoding (what both twins read as "has a body"). */
export function declaresBody(request: RawRequest): boolean {
  const headers = effectiveHeaders(request);
  return Number(headers.get('content-length') ?? '0') > 0 || headers.has('transfer-encoding');
}

/** The body bytes the handler reads (none when nothing is declared). */
export function bodyBytes(request: RawRequest): Buffer {
  return declaresBody(request) ? (request.body ?? Buffer.alloc(0)) : Buffer.alloc(0);
}

export type JsonRead = { readonly valid: true; readonly value: unknown } | { readonly valid: false };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** JSON text in UTF-8 (RFC 8259); bytes that are not UTF-8 are not JSON. A leading BOM is skipped, as the WHATWG decoder does. */
export function readJson(bytes: Buffer): JsonRead {
  try {
    return { valid: true, value: JSON.parse(utf8.decode(bytes)) };
  } catch {
    return { valid: false };
  }
}

/** The media type of Content-Type, lower case, without parameters; '' when absent. */
export function mediaType(headers: ReadonlyMap<string, string>): string {
  return (headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The path segments of the target (raw, not decoded), a trailing slash dropped. */
export function pathSegments(target: string): string[] {
  const path = target.split(/[?#]/)[0] ?? '';
  const segments = path.split('/').slice(1);
  if (segments.length > 0 && segments[segments.length - 1] === '') segments.pop();
  return segments;
}

/** The query of the target, as URLSearchParams reads it. */
export function queryOf(target: string): URLSearchParams {
  const mark = target.indexOf('?');
  return new URLSearchParams(mark >= 0 ? target.slice(mark + 1).split('#')[0] : '');
}

/** A percent-decoded segment, or the raw one when its encoding is broken. */
export function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
