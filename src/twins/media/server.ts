import { STATUS_CODES, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { MEDIA_CONTRACT } from '../../rules/mediaContract.ts';
import { handleControlRequest, isControlTarget } from './control.ts';
import { discardBody } from './http/requestBody.ts';
import { parseRequestTarget, requestOrigin } from './http/requestTarget.ts';
import { writeResponse } from './http/responses.ts';
import { JsonApiError, routeNotFound } from './jsonapi/errors.ts';
import { MediaState, type ClockMode } from './mediaState.ts';
import { handleRevokeRequest, handleTokenRequest } from './oauth.ts';
import { EDGE_SEGMENTS, errorResponse, handleApiRequest, internalError, writeJsonApi } from './pipeline.ts';

export interface MediaTwinOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 'virtual': time moves only through POST /__twin/clock. */
  readonly clock?: ClockMode;
  /** Called for every unexpected exception (answered 500); default: console.error. */
  readonly onInternalError?: (error: unknown, request: string) => void;
}

export interface RunningMediaTwin {
  /** `http://{host}:{port}`: the API is under `/api/edge`, OAuth under `/api/oauth`, the control API under `/__twin`. */
  readonly url: string;
  close(): Promise<void>;
}

function logInternalError(error: unknown, request: string): void {
  console.error(`[media-twin] internal error answering ${request}:`, error);
}

const OAUTH_TOKEN = MEDIA_CONTRACT.oauthTokenPath.split('/').slice(1);
const OAUTH_REVOKE = MEDIA_CONTRACT.oauthRevokePath.split('/').slice(1);

function startsWith(segments: readonly string[], prefix: readonly string[]): boolean {
  return prefix.every((segment, i) => segments[i] === segment);
}

function sameSegments(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && startsWith(a, b);
}

/**
 * Starts the Media Tracking API twin: a real HTTP server with the seeded
 * catalogue, users and groups (src/twins/media/seed.ts).
 */
export async function startMediaTwin(options: MediaTwinOptions = {}): Promise<RunningMediaTwin> {
  const host = options.host ?? '127.0.0.1';
  const reportInternalError = options.onInternalError ?? logInternalError;
  const state = new MediaState(options.clock ?? 'virtual');
  let ownHost = host;

  const server = createServer((req, res) => {
    void handleRequest(req, res).catch((error: unknown) => {
      // Last resort: the handlers answer their own errors; this catches a failure in answering.
      reportInternalError(error, `${req.method} ${req.url}`);
      if (!res.headersSent) writeJsonApi(res, req.method, errorResponse(internalError()));
      else res.destroy();
    });
  });

  async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A client that vanishes mid-request must not become an unhandled 'error' event.
    req.on('error', () => {});
    res.on('error', () => {});
    const target = parseRequestTarget(req.url ?? '/');
    const { segments } = target;
    if (isControlTarget(segments)) return handleControlRequest(req, res, segments, state, reportInternalError);
    if (startsWith(segments, EDGE_SEGMENTS)) return handleApiRequest(req, res, target, { state, origin: requestOrigin(req, ownHost), reportInternalError });
    const oauth = sameSegments(segments, OAUTH_TOKEN) ? handleTokenRequest : sameSegments(segments, OAUTH_REVOKE) ? handleRevokeRequest : undefined;
    if (oauth && req.method === 'POST') {
      writeResponse(res, req.method, await oauth(req, target.query, state), 'application/json; charset=utf-8');
      return;
    }
    await discardBody(req);
    writeJsonApi(res, req.method, errorResponse(routeNotFound()));
  }

  // Requests Node cannot parse (bad method token, header overflow, bad framing) still get a JSON:API error.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    socket.end(rawResponse(status, error.code === 'HPE_HEADER_OVERFLOW' ? 'The request headers are too large.' : 'The request is not valid HTTP.'));
  });
  // CONNECT is not an API call; without a listener Node would drop the socket silently.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => {});
    socket.end(rawResponse(405, 'CONNECT is not supported.'));
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

  return { url: `http://${ownHost}`, close: () => closeServer(server) };
}

function rawResponse(status: number, detail: string): string {
  const title = STATUS_CODES[status] ?? 'Error';
  const body = JSON.stringify(JsonApiError.of(status, title, detail).body);
  return [
    `HTTP/1.1 ${status} ${title}`,
    `Content-Type: ${MEDIA_CONTRACT.mediaType}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
