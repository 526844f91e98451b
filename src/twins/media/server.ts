import { MEDIA_CONTRACT } from '../../rules/mediaContract.ts';
import { handleControlRequest, isControlTarget } from './control.ts';
import type { MediaTwinBreak } from './twinBreaks.ts';
import { discardBody } from '../serving/requestBody.ts';
import { dropRenderedAroundWrites } from '../serving/renderCache.ts';
import { startHttpServer, type HttpServerOptions } from '../serving/startHttpServer.ts';
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
  /** Tests only: one deliberate break (twinBreaks.ts), to prove the properties go red. */
  readonly twinBreak?: MediaTwinBreak;
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
  const state = new MediaState(options.clock ?? 'virtual', options.twinBreak);
  const answer: HttpServerOptions['handle'] = async (req, res, target, origin) => {
    const { segments } = target;
    if (isControlTarget(segments)) return handleControlRequest(req, res, segments, state, reportInternalError);
    if (startsWith(segments, EDGE_SEGMENTS)) return handleApiRequest(req, res, target, { state, origin, reportInternalError });
    const oauth = sameSegments(segments, OAUTH_TOKEN) ? handleTokenRequest : sameSegments(segments, OAUTH_REVOKE) ? handleRevokeRequest : undefined;
    if (oauth && req.method === 'POST') {
      writeResponse(res, req.method, await oauth(req, target.query, state), 'application/json; charset=utf-8');
      return;
    }
    // media.routes.unknown-route-404: outside /api/edge and OAuth too, as Rails answers a path it has no route for.
    await discardBody(req);
    writeJsonApi(res, req.method, errorResponse(routeNotFound()));
  };
  const running = await startHttpServer({
    port: options.port,
    host,
    reportInternalError,
    // A write may change how any record renders (counts, linkage, owner-only fields).
    handle: (req, res, target, origin) =>
      dropRenderedAroundWrites(
        req.method,
        () => state.rendered.invalidate(),
        () => answer(req, res, target, origin),
      ),
    writeInternalError: (req, res) => writeJsonApi(res, req.method, errorResponse(internalError())),
    rawError: (status, title, detail) => ({ contentType: MEDIA_CONTRACT.mediaType, body: JSON.stringify(JsonApiError.of(status, title, detail).body) }),
    unparseable: {
      headersTooLarge: 'The request headers are too large.',
      malformed: 'The request is not valid HTTP.',
      connect: 'CONNECT is not supported.',
      missingHost: 'An HTTP/1.1 request must carry a Host header.',
    },
  });
  return { url: running.url, close: running.close };
}
