/**
 * Test helpers for the store twin's HTTP tests: node:http requests with full
 * control of headers (no implicit User-Agent), raw socket exchanges for
 * requests no client library would send, and the control API calls tests use.
 */
import { request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { startStoreTwin, type RunningStoreTwin } from '../../../../src/twins/store/server.ts';

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

/** One request; the body, when given, is sent with its Content-Length. */
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

export const USER_AGENT = 'Twin unit tests (https://example.test/contact)';

export interface TwinStoreInfo {
  readonly storeId: number;
  readonly token: string;
  readonly appSecret: string;
  readonly baseUrl: string;
  readonly languages: string[];
  readonly mainLanguage: string;
  readonly clock: 'virtual' | 'real';
  readonly now: number;
}

/** Calls the control API; fails the test on an error status unless `expectStatus` says otherwise. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- control answers of any shape; the assertions check them
export async function control<T = any>(twinUrl: string, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await send(`${twinUrl}/__twin${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (answer.status >= 400) throw new Error(`control ${method} ${path} answered ${answer.status}: ${answer.text}`);
  return (answer.text ? answer.json() : undefined) as T;
}

/** A fresh store of its own, so tests never share a bucket or a catalogue. */
export function createStore(twinUrl: string, options: Record<string, unknown> = {}): Promise<TwinStoreInfo> {
  return control<TwinStoreInfo>(twinUrl, 'POST', '/stores', options);
}

/** A caller of one store's API with a valid User-Agent and token. */
export function storeApi(store: Pick<TwinStoreInfo, 'baseUrl' | 'token'>, token: string = store.token) {
  return (path: string, options: SendOptions & { json?: unknown } = {}): Promise<Answer> => {
    const headers: Record<string, string> = { 'User-Agent': USER_AGENT, Authentication: `bearer ${token}`, ...options.headers };
    let body = options.body;
    if (options.json !== undefined) {
      headers['Content-Type'] ??= 'application/json; charset=utf-8';
      body = JSON.stringify(options.json);
    }
    return send(`${store.baseUrl}${path}`, { method: options.method ?? 'GET', headers, ...(body === undefined ? {} : { body }) });
  };
}

export function advanceClock(twinUrl: string, storeId: number, advanceMs: number): Promise<{ now: number; iso: string }> {
  return control(twinUrl, 'POST', `/stores/${storeId}/clock`, { advanceMs });
}

/** A twin on an ephemeral port that records internal errors instead of logging them. */
export async function startTestTwin(): Promise<{ twin: RunningStoreTwin; internalErrors: unknown[] }> {
  const internalErrors: unknown[] = [];
  const twin = await startStoreTwin({ port: 0, clock: 'virtual', onInternalError: (error) => internalErrors.push(error) });
  return { twin, internalErrors };
}
