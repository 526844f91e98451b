/**
 * A request exactly as the fuzzer puts it on the wire: any method token, any
 * target, header lines in order (duplicates and odd casing kept), and a body
 * with the framing chosen on purpose. Nothing is added behind the fuzzer's back.
 */

export type HeaderLine = readonly [name: string, value: string];

/**
 * How the body is delimited: `length` adds Content-Length, `chunked` adds
 * Transfer-Encoding and chunk-encodes, `raw` sends the bytes after the header
 * lines as they are (the header lines say, or do not say, how long they are).
 */
export type Framing = 'length' | 'chunked' | 'raw';

export interface RawRequest {
  readonly method: string;
  /** Path and query as sent, already percent-encoded (or deliberately not). */
  readonly target: string;
  readonly headers: readonly HeaderLine[];
  readonly body?: Buffer;
  readonly framing: Framing;
}

/** The header lines as sent, framing headers included. */
export function wireHeaders(request: RawRequest): HeaderLine[] {
  const lines = [...request.headers];
  if (request.framing === 'length' && request.body !== undefined) lines.push(['Content-Length', String(request.body.length)]);
  if (request.framing === 'chunked') lines.push(['Transfer-Encoding', 'chunked']);
  return lines;
}

/** The bytes of the request. A chunked body goes as one chunk and the last chunk. */
export function serializeRequest(request: RawRequest): Buffer {
  const head = `${request.method} ${request.target} HTTP/1.1\r\n${wireHeaders(request)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
  const body = request.body ?? Buffer.alloc(0);
  // Text beyond ASCII goes as UTF-8 bytes: opaque to HTTP in a header value, broken HTTP in a target.
  if (request.framing !== 'chunked') return Buffer.concat([Buffer.from(head, 'utf8'), body]);
  const chunk = body.length > 0 ? [Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n')] : [];
  return Buffer.concat([Buffer.from(head, 'utf8'), ...chunk, Buffer.from('0\r\n\r\n')]);
}

const PREVIEW_CHARS = 120;
const HEADER_PREVIEW_CHARS = 60;

/** A readable preview of bytes: text when it is text, else hex; long values cut with their size. */
export function previewBytes(bytes: Buffer, limit: number = PREVIEW_CHARS): string {
  const text = bytes.toString('utf8');
  // Text unless it has replacement characters or controls other than whitespace (tab, line breaks).
  const printable = ![...text].some((char) => char === '\uFFFD' || (char.charCodeAt(0) < 0x20 && !'\t\n\v\f\r'.includes(char)));
  const shown = printable ? JSON.stringify(text.slice(0, limit)) : `hex ${bytes.subarray(0, limit / 2).toString('hex')}`;
  return bytes.length > limit || (!printable && bytes.length > limit / 2) ? `${shown}… (${bytes.length} bytes)` : shown;
}

function previewHeader([name, value]: HeaderLine): string {
  const shown =
    value.length > HEADER_PREVIEW_CHARS ? `${JSON.stringify(value.slice(0, HEADER_PREVIEW_CHARS))}… (${value.length} chars)` : JSON.stringify(value);
  return `${name}: ${shown}`;
}

/** Method, target, every header line (long values cut) and a body preview: enough to send the request again by hand. */
export function describeRequest(request: RawRequest): string {
  const target = request.target.length > 200 ? `${request.target.slice(0, 200)}… (${request.target.length} chars)` : request.target;
  const lines = [`${request.method} ${target}`, ...wireHeaders(request).map((line) => `  ${previewHeader(line)}`)];
  if (request.body !== undefined) lines.push(`  body (${request.framing}): ${previewBytes(request.body)}`);
  else if (request.framing === 'chunked') lines.push('  body (chunked): empty');
  return lines.join('\n');
}
