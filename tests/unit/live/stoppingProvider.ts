/**
 * A provider that stops answering in the middle of a live run: a loopback proxy
 * in front of a twin process that forwards the first `answered` requests, then
 * closes its listener: the request after them has its connection cut, and every
 * later one is refused (ECONNREFUSED), as a sandbox that went down is. No timer:
 * where it stops is decided by the count alone.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StoppingProvider {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  /** Requests forwarded (answered) so far. */
  answered(): number;
  /** Whether the listener is closed. */
  stopped(): boolean;
  close(): void;
}

export async function startStoppingProvider(upstream: string, answered: number): Promise<StoppingProvider> {
  const target = new URL(upstream);
  let seen = 0;
  let stopped = false;
  const server: Server = createServer((incoming, outgoing) => {
    seen += 1;
    if (seen > answered) {
      // The provider goes: no new connection is accepted, the open ones (this one too) are cut.
      stopped = true;
      server.close();
      server.closeAllConnections();
      incoming.socket.destroy();
      return;
    }
    const forwarded = httpRequest(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', (error) => outgoing.writeHead(502).end(String(error)));
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answered: () => Math.min(seen, answered),
    stopped: () => stopped,
    close: () => {
      server.close();
      server.closeAllConnections();
    },
  };
}
