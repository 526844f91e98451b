/**
 * One request under /api/edge, in order: Accept (406), token (401 for an
 * expired or revoked one), body (413, and 400 for bad JSON when a handler
 * reads it), route, handler. Every answer is JSON:API with its media type;
 * an unexpected exception is logged and answered as a JSON:API 500.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MEDIA_CONTRACT } from '../../rules/mediaContract.ts';
import { routeApiRequest } from './apiRouter.ts';
import { viewerFor } from './auth.ts';
import { assertAcceptable } from './http/negotiation.ts';
import { MAX_BODY_BYTES, declaresBody, parseJson, readBody } from '../serving/requestBody.ts';
import type { RequestTarget } from '../serving/requestTarget.ts';
import { writeResponse, type TwinResponse } from './http/responses.ts';
import { JsonApiError, badRequest } from './jsonapi/errors.ts';
import type { MediaState } from './mediaState.ts';
import type { ApiContext } from './operations.ts';

export interface PipelineDeps {
  readonly state: MediaState;
  /** `http://{host}`. */
  readonly origin: string;
  readonly reportInternalError: (error: unknown, request: string) => void;
}

/** media.routes.edge-prefix: every API path begins with /api/edge. */
export const EDGE_SEGMENTS = ['api', 'edge'] as const;

/** Writes a JSON:API answer (or error) with the JSON:API media type (media.jsonapi.media-type). */
export function writeJsonApi(res: ServerResponse, method: string | undefined, response: TwinResponse): void {
  writeResponse(res, method, response, MEDIA_CONTRACT.mediaType);
}

export function errorResponse(error: JsonApiError): TwinResponse {
  return { status: error.status, body: error.body, headers: error.headers };
}

export function internalError(): JsonApiError {
  return JsonApiError.of(500, 'Internal Server Error', 'The twin failed to answer this request; the error is logged.', '500');
}

export async function handleApiRequest(req: IncomingMessage, res: ServerResponse, target: RequestTarget, deps: PipelineDeps): Promise<void> {
  let response: TwinResponse;
  try {
    response = await answer(req, target, deps);
  } catch (error) {
    if (error instanceof JsonApiError) response = errorResponse(error);
    else {
      deps.reportInternalError(error, `${req.method} ${req.url}`);
      response = errorResponse(internalError());
    }
  }
  writeJsonApi(res, req.method, response);
}

async function answer(req: IncomingMessage, target: RequestTarget, deps: PipelineDeps): Promise<TwinResponse> {
  const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
  assertAcceptable(req.headers);
  const viewer = viewerFor(deps.state, req.headers);

  let bytes: Buffer | undefined;
  if (declaresBody(req.headers)) {
    const read = await readBody(req);
    if (read.kind === 'aborted') throw badRequest('The request body ended early.');
    if (read.kind === 'too-large') {
      const error = JsonApiError.of(413, 'Payload too large', `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
      throw new JsonApiError(413, error.errors, read.reusable ? {} : { Connection: 'close' });
    }
    bytes = read.bytes;
  }
  let parsed: { value: unknown } | undefined;
  const segments = target.segments.slice(EDGE_SEGMENTS.length);
  const context: ApiContext = {
    state: deps.state,
    viewer,
    query: target.query,
    headers: req.headers,
    baseUrl: `${deps.origin}${MEDIA_CONTRACT.edgePrefix}`,
    path: `/${segments.join('/')}`,
    hasBody: bytes !== undefined && bytes.length > 0,
    json: () => {
      if (bytes === undefined || bytes.length === 0) return undefined;
      if (!parsed) {
        const result = parseJson(bytes);
        if (!result.ok) throw badRequest(`The request body is not valid JSON: ${result.reason}.`);
        parsed = { value: result.value };
      }
      return parsed.value;
    },
  };
  return routeApiRequest(context, method, segments);
}
