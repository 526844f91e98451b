/**
 * On a live run, Pact's Verifier reaches the provider through this in-process
 * relay, which forwards each request with undici on the outage watch of the run
 * (src/http/interceptors/outage.ts): a provider that stops answering is waited
 * for within the retry budget, then declared unreachable, and the Verifier's
 * request is answered 503 here, at once, so its interaction is not verified
 * (verifyListed.ts) instead of failing. Straight to the provider, Pact's own
 * proxy has no error handler: a refused connection there threw in the worker,
 * and the Verifier waited 30 s for it. Everything else passes as it came: the
 * status, the headers, the body (compressed or not).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { request, type Dispatcher } from 'undici';
import { outageOf } from '../../src/http/providerOutage.ts';

/** Marks an answer the relay made itself (not the provider's): `provider unreachable` or `relay failed`. */
export const RELAY_HEADER = 'x-harness-relay';

/** Hop-by-hop headers (RFC 9110 7.6.1), and what undici sets itself: the host from the origin, the length from the body. */
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
]);
const RESPONSE_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

export interface LiveRelay {
  /** http://127.0.0.1:<port>: the Verifier's provider base URL, in place of the origin's. */
  readonly url: string;
  close(): Promise<void>;
}

/** A relay to `origin` that sends on `dispatcher` (one with the outage watch on it). */
export async function startLiveRelay(origin: string, dispatcher: Dispatcher): Promise<LiveRelay> {
  const to = new URL(origin).origin;
  const server = createServer((req, res) => {
    void forward(to, dispatcher, req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy();
      const outage = outageOf(error);
      const message = error instanceof Error ? error.message : String(error);
      res.writeHead(outage ? 503 : 502, { 'content-type': 'text/plain; charset=utf-8', [RELAY_HEADER]: outage ? 'provider unreachable' : 'relay failed' });
      res.end(message);
    });
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
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

async function forward(origin: string, dispatcher: Dispatcher, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !REQUEST_HOP.has(name)) headers[name] = value;
  // Concatenated, not resolved: a request target of `//x` must not name another host.
  const answer = await request(new URL(`${origin}${req.url ?? '/'}`), {
    method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
    headers,
    dispatcher,
    body: body.length > 0 ? body : undefined,
  });
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !RESPONSE_HOP.has(name)) out[name] = value;
  res.writeHead(answer.statusCode, out);
  await pipeline(answer.body, res);
}
