import { STATUS_CODES, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { STORE_CONTRACT } from '../../rules/storeContract.ts';
import { DEFAULT_MAIN_LANGUAGE, handleApiRequest } from './apiPipeline.ts';
import { handleControlRequest, isControlTarget } from './control.ts';
import { errorBody } from './errors.ts';
import { parseRequestTarget, requestOrigin } from './requestTarget.ts';
import { writeResponse } from './responses.ts';
import { apiRoutes } from './routes/apiRoutes.ts';
import type { ClockMode } from './storeState.ts';
import { TwinState } from './twinState.ts';

export interface StoreTwinOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Clock of the seeded stores. Default 'virtual': time moves only through the control API. */
  readonly clock?: ClockMode;
  /** Called for every unexpected exception (answered 500); default: console.error. */
  readonly onInternalError?: (error: unknown, request: string) => void;
}

export interface RunningStoreTwin {
  /** `http://{host}:{port}`: the Store API is under `/v1/{store_id}`, the control API under `/__twin`. */
  readonly url: string;
  close(): Promise<void>;
}

function logInternalError(error: unknown, request: string): void {
  console.error(`[store-twin] internal error answering ${request}:`, error);
}

/**
 * Starts the Store Commerce API twin: a real HTTP server with the seeded
 * stores 100001 and 100002, and the control API under /__twin.
 */
export async function startStoreTwin(options: StoreTwinOptions = {}): Promise<RunningStoreTwin> {
  const host = options.host ?? '127.0.0.1';
  const reportInternalError = options.onInternalError ?? logInternalError;
  const closing = new AbortController();
  const twin = new TwinState({ clockMode: options.clock ?? 'virtual', deliverySignal: closing.signal });
  let ownHost = host;

  const server = createServer((req, res) => {
    void handleRequest(req, res).catch((error: unknown) => {
      // Last resort: the pipelines answer their own errors; this catches a failure in answering.
      reportInternalError(error, `${req.method} ${req.url}`);
      if (!res.headersSent) writeResponse(res, req.method, { status: 500, body: errorBody(500) }, { 'X-Main-Language': DEFAULT_MAIN_LANGUAGE });
      else res.destroy();
    });
  });

  async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A client that vanishes mid-request must not become an unhandled 'error' event.
    req.on('error', () => {});
    res.on('error', () => {});
    const target = parseRequestTarget(req.url ?? '/');
    const origin = requestOrigin(req, ownHost);
    if (isControlTarget(target)) await handleControlRequest(req, res, target, { twin, origin, reportInternalError });
    else await handleApiRequest(req, res, target, { twin, router: apiRoutes, origin, reportInternalError });
  }

  // Requests Node cannot parse (bad method token, header overflow, bad framing)
  // still get an answer in the API's error shape.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    socket.end(rawResponse(status, error.code === 'HPE_HEADER_OVERFLOW' ? 'Request headers are too large' : 'Malformed HTTP request'));
  });
  // CONNECT is not an API call; without a listener Node would drop the socket silently.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => {});
    socket.end(rawResponse(405, 'CONNECT is not supported'));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  ownHost = `${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    url: `http://${ownHost}`,
    close: () => closeServer(server, closing),
  };
}

function rawResponse(status: number, description: string): string {
  const body = JSON.stringify(errorBody(status, description));
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    `Content-Type: ${STORE_CONTRACT.jsonContentType}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Main-Language: ${DEFAULT_MAIN_LANGUAGE}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

function closeServer(server: Server, closing: AbortController): Promise<void> {
  closing.abort();
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
