/**
 * HTTP helpers shared by the twins' tests: node:http requests with full
 * control of headers (no implicit User-Agent), raw socket exchanges for
 * requests no client library would send, and control API calls.
 */
import { request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';

export interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies of any shape; the assertions check them
  json<T = any>(): T;
}

export interface SendOptions {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
}

/** One request with exactly these headers; Node adds a Content-Length only where it frames bodies by default. */
export function send(url: string, options: SendOptions = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

export interface RawAnswer {
  readonly statusLine: string;
  readonly status: number;
  readonly head: string;
  readonly body: string;
}

/** Writes bytes as they are to the twin's socket and reads until it closes (send `Connection: close`). */
export function sendRaw(twinUrl: string, raw: string | Buffer): Promise<RawAnswer> {
  const { hostname, port } = new URL(twinUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(raw));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const head = split >= 0 ? text.slice(0, split) : text;
      const statusLine = head.split('\r\n')[0] ?? '';
      resolve({ statusLine, status: Number(statusLine.split(' ')[1] ?? 0), head, body: split >= 0 ? text.slice(split + 4) : '' });
    });
  });
}

/** Calls a twin's control API (under /__twin); throws on an error status. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- control answers of any shape; the assertions check them
export async function control<T = any>(twinUrl: string, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await send(`${twinUrl}/__twin${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (answer.status >= 400) throw new Error(`control ${method} ${path} answered ${answer.status}: ${answer.text}`);
  return (answer.text ? answer.json() : undefined) as T;
}
