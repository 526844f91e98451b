/**
 * An in-process HTTP proxy in front of a live origin, for clients whose
 * requests the recorder cannot see (Pact's Verifier is native code): each
 * request is forwarded with undici, which the in-process capture of
 * startRecording (session.ts) sees, so the exchange with the service lands in
 * the test's cassette. Status, headers and body come back as the service sent
 * them, streamed.
 */
import { Agent, type Dispatcher } from 'undici';
import { startForwardingServer } from '../http/forwardingServer.ts';

export const PROXY_HEADER = 'x-harness-proxy';

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
  const server = await startForwardingServer({
    origin,
    dispatcher: options.intercept ? agent.compose(options.intercept) : agent,
    ...(options.port === undefined ? {} : { port: options.port }),
    // A cassette stores bodies as text: ask for them uncompressed, as the harness's own clients do.
    dropRequestHeaders: ['accept-encoding'],
    onError: (error, res) => {
      // Not the service's answer, and marked so: 502 with the reason.
      res.writeHead(502, { 'content-type': 'application/json', [PROXY_HEADER]: 'error' });
      res.end(JSON.stringify({ proxy: 'upstream failed', message: `${origin}: ${error instanceof Error ? error.message : String(error)}` }));
    },
  });
  return { url: server.url, close: () => server.close().then(() => agent.close()) };
}
