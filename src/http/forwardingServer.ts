/**
 * An in-process HTTP server on loopback that forwards every request to one origin with undici, on a dispatcher the
 * caller gives: how the harness puts its own watch (a recording's capture, a live run's outage watch) between a
 * client it cannot instrument (Pact's Verifier is native code) and the provider. The status, the headers and the
 * body come back as the provider sent them; what the forwarding itself could not do is the caller's answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from './nodeHttp.ts';
import type { AddressInfo } from 'node:net';
import { request, type Dispatcher } from 'undici';

/** Hop-by-hop headers (RFC 9110 7.6.1), and what undici sets itself: the host from the origin, the length from the body. */
const REQUEST_HOP: readonly string[] = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
  'content-length',
  'expect',
];
const RESPONSE_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

export interface ForwardingServer {
  /** http://127.0.0.1:<port>: the client's base URL, in place of the origin's. */
  readonly url: string;
  close(): Promise<void>;
}

export interface ForwardingOptions {
  /** Where every request goes; only its origin is used. */
  readonly origin: string;
  readonly dispatcher: Dispatcher;
  readonly port?: number;
  /** Request headers dropped beyond the hop-by-hop ones (a recording asks for bodies uncompressed: accept-encoding). */
  readonly dropRequestHeaders?: readonly string[];
  /** The answer when forwarding failed before the provider's answer began: it is the harness's, so it says so. */
  readonly onError: (error: unknown, res: ServerResponse) => void;
}

export async function startForwardingServer(options: ForwardingOptions): Promise<ForwardingServer> {
  const origin = new URL(options.origin).origin;
  const dropped = droppedHeaders(options.dropRequestHeaders);
  const server = createServer((req, res) => forwardRequest({ base: origin, dispatcher: options.dispatcher, dropped, onError: options.onError }, req, res));
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The request headers a forward drops: the hop-by-hop ones, undici's own, and `extra`. */
export function droppedHeaders(extra: readonly string[] = []): ReadonlySet<string> {
  return new Set([...REQUEST_HOP, ...extra]);
}

/** Where and how one request is forwarded: `base` (an origin, and any path before the request's) on `dispatcher`. */
export interface Forward {
  readonly base: string;
  readonly dispatcher: Dispatcher;
  readonly dropped: ReadonlySet<string>;
  readonly onError: ForwardingOptions['onError'];
}

/** Forwards `req` to `base` + its URL and streams the answer into `res`; a failure before the answer began is `onError`'s to answer. */
export function forwardRequest(to: Forward, req: IncomingMessage, res: ServerResponse): void {
  void forward(to.base, to.dispatcher, to.dropped, req, res).catch((error: unknown) => {
    if (res.headersSent) return void res.destroy();
    to.onError(error, res);
  });
}

async function forward(base: string, dispatcher: Dispatcher, dropped: ReadonlySet<string>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !dropped.has(name)) headers[name] = value;
  // Concatenated, not resolved: a request target of `//x` must not name another host.
  const answer = await request(new URL(`${base}${req.url ?? '/'}`), {
    method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
    headers,
    dispatcher,
    body: body.length > 0 ? body : undefined,
  });
  // Read whole, then written in one piece with the head: the APIs answer small JSON, and a stream piped through
  // costs each answer a pipeline's abort signal (an exception's stack) and a write per chunk.
  const answerBody = Buffer.from(await answer.body.arrayBuffer());
  // Set one by one, not given to writeHead: so they stay readable (getHeaders) to whoever watches the answer.
  for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !RESPONSE_HOP.has(name)) res.setHeader(name, value);
  res.statusCode = answer.statusCode;
  res.end(answerBody);
}
