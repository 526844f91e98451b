/**
 * A scripted API on a local port for the clients' unit tests: every request is
 * recorded as it arrived, and a handler decides the answer.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Sent as JSON, with the server's default Content-Type unless headers say otherwise. */
  json?: unknown;
  /** Sent as is. */
  text?: string;
  /** Drop the connection instead of answering. */
  destroy?: boolean;
}

export interface ScriptedServer {
  readonly origin: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

export interface ScriptedServerOptions {
  /** Content-Type of every answer unless the reply's headers say otherwise. */
  readonly contentType: string;
  /** How request headers are recorded (each client's tests read them their own way). */
  readonly headersOf: (req: IncomingMessage) => Record<string, string>;
  /** A port of the test's own range; a free one when not given. */
  readonly port?: number;
}

export async function startScriptedServer(
  handler: (request: RecordedRequest) => Reply | Promise<Reply>,
  options: ScriptedServerOptions,
): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const recorded: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: options.headersOf(req), body: await bodyOf(req) };
    requests.push(recorded);
    const reply = await handler(recorded);
    if (reply.destroy) {
      req.socket.destroy();
      return;
    }
    const body = reply.text ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
    res.writeHead(reply.status ?? 200, { 'content-type': options.contentType, ...reply.headers });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: connections are refused. */
export async function refusedOrigin(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
