/**
 * An in-process HTTP proxy in front of a live origin, for clients whose
 * requests the recorder cannot see (Pact's Verifier is native code): each
 * request is forwarded with undici, which the in-process capture of
 * startRecording (session.ts) sees, so the exchange with the service lands in
 * the test's cassette. Status, headers and body come back as the service sent
 * them, streamed.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { Agent, request, type Dispatcher } from 'undici';

export const PROXY_HEADER = 'x-harness-proxy';

/** Hop-by-hop headers (RFC 9110 7.6.1) and what undici sets itself: host from the origin, length from the body. */
const REQUEST_HOP = new Set([
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
  // A cassette stores bodies as text: ask for them uncompressed, as the harness's own clients do.
  'accept-encoding',
]);
const RESPONSE_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

export interface RecordingProxy {
  /** http://127.0.0.1:<port>: point the client here instead of at the origin. */
  readonly url: string;
  close(): Promise<void>;
}

export async function startRecordingProxy(options: {
  readonly origin: string;
  readonly port?: number;
  /** Composed on the proxy's own connections: a record run's outage watch (src/http/interceptors/outage.ts). */
  readonly intercept?: Dispatcher.DispatcherComposeInterceptor;
}): Promise<RecordingProxy> {
  const origin = new URL(options.origin).origin;
  // Connections of its own, opened as requests come: a pooled one from before a recording started
  // would bypass the capture, which sees connections as they open.
  const agent = new Agent();
  const sender: Dispatcher = options.intercept ? agent.compose(options.intercept) : agent;
  const server = createServer((req, res) => {
    void forward(origin, sender, req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // Not the service's answer, and marked so: 502 with the reason.
      res.writeHead(502, { 'content-type': 'application/json', [PROXY_HEADER]: 'error' });
      res.end(JSON.stringify({ proxy: 'upstream failed', message: `${origin}: ${error instanceof Error ? error.message : String(error)}` }));
    });
  });
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
      }).then(() => agent.close()),
  };
}

async function forward(origin: string, agent: Dispatcher, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !REQUEST_HOP.has(name)) headers[name] = value;
  // Concatenated, not resolved: a request target of `//x` must not name another host.
  const upstream = await request(new URL(`${origin}${req.url ?? '/'}`), {
    method: req.method ?? 'GET',
    headers,
    dispatcher: agent,
    body: body.length > 0 ? body : undefined,
  });
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(upstream.headers)) if (value !== undefined && !RESPONSE_HOP.has(name)) out[name] = value;
  res.writeHead(upstream.statusCode, out);
  await pipeline(upstream.body, res);
}
