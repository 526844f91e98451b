/**
 * Helpers for the media twin's HTTP tests: a twin on an ephemeral port that
 * records internal errors, requests with full control of headers, JSON:API
 * writes, sign-in through the OAuth endpoint, and raw socket exchanges.
 */
import { request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { MEDIA_CONTRACT } from '../../../../src/rules/mediaContract.ts';
import { startMediaTwin, type RunningMediaTwin } from '../../../../src/twins/media/server.ts';

export const JSON_API = MEDIA_CONTRACT.mediaType;

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
  /** Sent as `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** A JSON:API body, sent with the JSON:API Content-Type. */
  readonly json?: unknown;
}

/** One request; the body, when given, is sent with its Content-Length. */
export function send(url: string, options: SendOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers['Authorization'] = `Bearer ${options.token}`;
  let body = options.body;
  if (options.json !== undefined) {
    headers['Content-Type'] ??= JSON_API;
    body = JSON.stringify(options.json);
  }
  // Node frames a DELETE body only with an explicit length.
  if (body !== undefined) headers['Content-Length'] ??= String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface RawAnswer {
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
      resolve({ status: Number(head.split(' ')[1] ?? 0), head, body: split >= 0 ? text.slice(split + 4) : '' });
    });
  });
}

export interface TestTwin {
  readonly twin: RunningMediaTwin;
  /** `{url}/api/edge`. */
  readonly api: string;
  readonly internalErrors: unknown[];
}

/** A twin on an ephemeral port with a virtual clock that records internal errors instead of logging them. */
export async function startTestTwin(): Promise<TestTwin> {
  const internalErrors: unknown[] = [];
  const twin = await startMediaTwin({ port: 0, clock: 'virtual', onInternalError: (error) => internalErrors.push(error) });
  return { twin, api: `${twin.url}${MEDIA_CONTRACT.edgePrefix}`, internalErrors };
}

/** Signs in with the password grant and returns the access token. */
export async function signIn(twinUrl: string, username: string, password: string): Promise<string> {
  const answer = await send(`${twinUrl}${MEDIA_CONTRACT.oauthTokenPath}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
  });
  if (answer.status !== 200) throw new Error(`sign-in of ${username} answered ${answer.status}: ${answer.text}`);
  return answer.json<{ access_token: string }>().access_token;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- control answers of any shape
export async function control<T = any>(twinUrl: string, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await send(`${twinUrl}/__twin${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (answer.status >= 400) throw new Error(`control ${method} ${path} answered ${answer.status}: ${answer.text}`);
  return answer.json<T>();
}
