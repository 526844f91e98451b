/**
 * One request over a fresh TCP connection with `node:net`, so the bytes are
 * exactly the fuzzer's (no client library normalises a method, merges a
 * header or refuses a target), and one answer read back within a deadline.
 */
import { connect } from 'node:net';
import { serializeRequest, type RawRequest } from './rawRequest.ts';

export interface RawAnswer {
  readonly status: number;
  /** Lower-case names; repeated header lines joined with ", ". */
  readonly headers: ReadonlyMap<string, string>;
  readonly body: Buffer;
  readonly elapsedMs: number;
}

export type Exchange =
  | { readonly kind: 'answer'; readonly answer: RawAnswer }
  /** The connection closed, broke or stayed silent past the deadline before a whole answer arrived. */
  | { readonly kind: 'no-answer'; readonly reason: string; readonly elapsedMs: number };

interface Head {
  readonly status: number;
  readonly headers: Map<string, string>;
  readonly bodyStart: number;
}

function parseHead(bytes: Buffer): Head | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value);
  }
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, bodyStart: end + 4 };
}

/** A chunked body, decoded; undefined until the last chunk has arrived. */
function decodeChunked(bytes: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = Number.parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size)) return undefined;
    if (size === 0) return Buffer.concat(parts);
    if (bytes.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** The body once it is complete, by the framing the answer declares; `closed`: the server is done sending. */
function completeBody(request: RawRequest, head: Head, rest: Buffer, closed: boolean): Buffer | undefined {
  if (request.method === 'HEAD' || head.status === 204 || head.status === 304) return Buffer.alloc(0);
  const length = head.headers.get('content-length');
  if (length !== undefined) return rest.length >= Number(length) ? rest.subarray(0, Number(length)) : undefined;
  if (head.headers.get('transfer-encoding')?.toLowerCase() === 'chunked') return decodeChunked(rest);
  return closed ? rest : undefined;
}

/** Sends `request` to `origin` (`http://host:port`) and waits at most `deadlineMs` for the whole answer. */
export function exchange(origin: string, request: RawRequest, deadlineMs: number): Promise<Exchange> {
  const { hostname, port } = new URL(origin);
  const started = performance.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const socket = connect(Number(port), hostname);
    const finish = (outcome: Exchange): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const elapsed = (): number => performance.now() - started;
    const tryAnswer = (closed: boolean): void => {
      const bytes = Buffer.concat(chunks);
      const head = parseHead(bytes);
      const body = head && completeBody(request, head, bytes.subarray(head.bodyStart), closed);
      if (head && body) finish({ kind: 'answer', answer: { status: head.status, headers: head.headers, body, elapsedMs: elapsed() } });
      else if (closed) {
        const got = bytes.length === 0 ? 'nothing' : `${bytes.length} bytes of an incomplete answer`;
        finish({ kind: 'no-answer', reason: `the connection closed after ${got}`, elapsedMs: elapsed() });
      }
    };
    const timer = setTimeout(() => finish({ kind: 'no-answer', reason: `no complete answer within ${deadlineMs} ms`, elapsedMs: elapsed() }), deadlineMs);
    // Half-closed after the request: a body shorter than its Content-Length then ends, as a client that gives up would.
    socket.on('connect', () => socket.end(serializeRequest(request)));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      tryAnswer(false);
    });
    // A server may answer and close before reading a whole body: the answer already read still counts.
    socket.on('error', () => tryAnswer(true));
    socket.on('close', () => tryAnswer(true));
  });
}
