import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { STATUS_CODES, createServer } from '../../http/nodeHttp.ts';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { parseRequestTarget, requestOrigin, type RequestTarget } from './requestTarget.ts';

/** What a twin answers, in its own error format, to a request Node could not parse. */
export interface RawError {
  readonly contentType: string;
  /** The serialized error document. */
  readonly body: string;
  /** Further headers, between Content-Length and Connection. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The twin-specific parts of a twin's HTTP server; the rest is the same for every twin. */
export interface HttpServerOptions {
  readonly port?: number;
  readonly host: string;
  /** Answers one request; `origin` is `http://{host}` for the URLs the twin hands out. */
  readonly handle: (req: IncomingMessage, res: ServerResponse, target: RequestTarget, origin: string) => Promise<void>;
  readonly reportInternalError: (error: unknown, request: string) => void;
  /** Answers 500 when `handle` failed before any header went out. */
  readonly writeInternalError: (req: IncomingMessage, res: ServerResponse) => void;
  /** The twin's error document for a status; `statusText` is Node's reason phrase. */
  readonly rawError: (status: number, statusText: string, detail: string) => RawError;
  /** The details of the answers to requests Node cannot parse, in the twin's wording. */
  readonly unparseable: { readonly headersTooLarge: string; readonly malformed: string; readonly connect: string; readonly missingHost: string };
}

export interface RunningHttpServer {
  /** `http://{host}:{port}`. */
  readonly url: string;
  close(): Promise<void>;
}

/** Starts a twin's HTTP server and waits until it listens. */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const { host, handle, reportInternalError, rawError, unparseable } = options;
  let ownHost = host;

  // Node's own Host check would answer 400 with an empty body; the twin answers it in its own format instead.
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    void handleRequest(req, res).catch((error: unknown) => {
      // Last resort: the twins answer their own errors; this catches a failure in answering.
      reportInternalError(error, `${req.method} ${req.url}`);
      if (!res.headersSent) options.writeInternalError(req, res);
      else res.destroy();
    });
  });

  async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A client that vanishes mid-request must not become an unhandled 'error' event.
    req.on('error', () => {});
    res.on('error', () => {});
    // HTTP/1.1 requires Host (RFC 9112, section 3.2): 400, like a request Node cannot parse.
    if (req.httpVersion === '1.1' && req.headers.host === undefined) {
      const error = rawError(400, STATUS_CODES[400] ?? 'Bad Request', unparseable.missingHost);
      res.writeHead(400, { 'Content-Type': error.contentType, 'Content-Length': Buffer.byteLength(error.body), ...error.headers, Connection: 'close' });
      res.end(error.body);
      return;
    }
    await handle(req, res, parseRequestTarget(req.url ?? '/'), requestOrigin(req, ownHost));
  }

  answerUnparseable(server, rawError, unparseable);
  await listen(server, options.port ?? 0, host);
  const { port } = server.address() as AddressInfo;
  ownHost = `${host.includes(':') ? `[${host}]` : host}:${port}`;

  return { url: `http://${ownHost}`, close: () => closeServer(server) };
}

/** An answer written straight to the socket, for a request Node could not hand to the twin as a request. */
function rawResponse(rawError: HttpServerOptions['rawError'], status: number, detail: string): string {
  const statusText = STATUS_CODES[status] ?? 'Error';
  const error = rawError(status, statusText, detail);
  return [
    `HTTP/1.1 ${status} ${statusText}`,
    `Content-Type: ${error.contentType}`,
    `Content-Length: ${Buffer.byteLength(error.body)}`,
    ...Object.entries(error.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
    '',
    error.body,
  ].join('\r\n');
}

/** Requests Node cannot parse, and CONNECT, are answered on the socket in the twin's error format. */
function answerUnparseable(server: Server, rawError: HttpServerOptions['rawError'], unparseable: HttpServerOptions['unparseable']): void {
  // Bad method token, header overflow, bad framing: 431 for the overflow, 408 for a timeout, 400 for the rest.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    socket.end(rawResponse(rawError, status, error.code === 'HPE_HEADER_OVERFLOW' ? unparseable.headersTooLarge : unparseable.malformed));
  });
  // CONNECT is not an API call; without a listener Node would drop the socket silently.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => {});
    socket.end(rawResponse(rawError, 405, unparseable.connect));
  });
}

/** Resolves once the server listens; a failure to listen (port taken) rejects. */
function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
