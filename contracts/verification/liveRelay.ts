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
import type { Dispatcher } from 'undici';
import { outageOf } from '../../src/http/providerOutage.ts';
import { startForwardingServer, type ForwardingServer } from '../../src/http/forwardingServer.ts';

/** Marks an answer the relay made itself (not the provider's): `provider unreachable` or `relay failed`. */
export const RELAY_HEADER = 'x-harness-relay';

export type LiveRelay = ForwardingServer;

/** A relay to `origin` that sends on `dispatcher` (one with the outage watch on it). */
export function startLiveRelay(origin: string, dispatcher: Dispatcher): Promise<LiveRelay> {
  return startForwardingServer({
    origin,
    dispatcher,
    onError: (error, res) => {
      const outage = outageOf(error);
      const message = error instanceof Error ? error.message : String(error);
      res.writeHead(outage ? 503 : 502, { 'content-type': 'text/plain; charset=utf-8', [RELAY_HEADER]: outage ? 'provider unreachable' : 'relay failed' });
      res.end(message);
    },
  });
}
