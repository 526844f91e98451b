import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { STORE_CONTRACT } from '../../rules/storeContract.ts';
import type { ApiContext } from './apiContext.ts';
import { StoreApiError, errorBody } from './errors.ts';
import { rateLimitHeaders } from './leakyBucket.ts';
import { MAX_BODY_BYTES, declaresBody, isJsonContentType, isJsonObject, parseJson, readBody } from '../serving/requestBody.ts';
import type { RequestTarget } from '../serving/requestTarget.ts';
import { dropRenderedAroundWrites } from '../serving/renderCache.ts';
import { writeResponse, type TwinResponse } from './responses.ts';
import type { Router } from './router.ts';
import type { StoreState } from './storeState.ts';
import type { TwinState } from './twinState.ts';
import { missingScope } from './install/scopes.ts';

/** X-Main-Language when no store is known (unknown store id, unknown version). */
export const DEFAULT_MAIN_LANGUAGE = 'es';

export interface ApiPipelineDeps {
  readonly twin: TwinState;
  readonly router: Router<ApiContext>;
  /** `http://{host}` for the URLs the answer hands out. */
  readonly origin: string;
  readonly reportInternalError: (error: unknown, request: string) => void;
}

const TOKEN_VALUE = new RegExp(`^${STORE_CONTRACT.tokenScheme}\\s+(\\S+)$`, 'i');
const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

/**
 * One Store API call, steps in the order the real service shows them: version,
 * User-Agent, token (and its scopes), suspension, bucket, injected faults, body, route. Every
 * answer carries X-Main-Language (store.headers.main-language); every answer
 * after the token step carries the rate headers. A refusal (402, 429, 415, a 422 of the
 * route's checks) comes before anything is stored, so it changes nothing
 * (store.writes.refused-changes-nothing).
 */
export async function handleApiRequest(req: IncomingMessage, res: ServerResponse, target: RequestTarget, deps: ApiPipelineDeps): Promise<void> {
  const [version, storeSegment, ...resource] = target.segments;
  // The path's store, as this request's token sees it: a copy under a seeded store's id answers only its own tokens.
  const store = deps.twin.serving(storeSegment, readToken(req.headers));
  const headers: Record<string, string> = { 'X-Main-Language': store?.mainLanguage ?? DEFAULT_MAIN_LANGUAGE };
  let response: TwinResponse;
  try {
    response = await runPipeline(req, { version, storeSegment, resource, query: target.query, store, headers }, deps);
  } catch (error) {
    if (error instanceof StoreApiError) response = error.toResponse();
    else {
      deps.reportInternalError(error, `${req.method} ${req.url}`);
      response = { status: 500, body: errorBody(500) };
    }
  }
  writeResponse(res, req.method, response, headers);
}

interface PipelineInput {
  readonly version: string | undefined;
  readonly storeSegment: string | undefined;
  readonly resource: readonly string[];
  readonly query: URLSearchParams;
  readonly store: StoreState | undefined;
  /** Headers every answer from here on carries; the pipeline adds the rate headers. */
  readonly headers: Record<string, string>;
}

/**
 * The store API's checks in the order the real service makes them, numbered as the rules they enforce.
 * One function because the order is the point: which error wins when several apply is decided by reading down.
 */
async function runPipeline(req: IncomingMessage, input: PipelineInput, deps: ApiPipelineDeps): Promise<TwinResponse> {
  const method = req.method ?? 'GET';

  // 1. store.versioning.v1-path, store.versioning.unknown-version-404
  if (input.version !== STORE_CONTRACT.version || input.storeSegment === undefined) throw StoreApiError.standard(404, null);

  // 2. store.http.user-agent-required
  if ((req.headers['user-agent'] ?? '').trim() === '') {
    throw StoreApiError.standard(400, 'User-Agent header is required: name the app and a contact URL or e-mail');
  }

  // 3. store.auth.authentication-header, store.auth.token-validated (every request's token is checked, whatever came
  // before), store.auth.missing-or-invalid-token-401, store.auth.token-scoped-to-store
  // store.scope.token-reaches-own-store: the token is looked up in the path's store only, so another store's token
  // is refused here; store.scope.path-names-the-store: what follows serves that store, the one the path names.
  const token = readToken(req.headers);
  const { store } = input;
  if (store === undefined || token === undefined || !store.hasToken(token)) {
    throw StoreApiError.standard(401, 'Invalid access token');
  }

  // 3b. store.oauth.scopes-enforced: an installed app's token does only what its scopes allow.
  const missing = missingScope(store.scopesOf(token), method, input.resource);
  if (missing !== undefined) {
    throw StoreApiError.standard(403, `This access token was not granted ${missing}: the app must ask for it and be installed again`);
  }

  // 4. store.suspension.every-call-402: before the bucket, so it costs nothing.
  const bucket = store.bucketFor(token);
  const now = store.clock.now();
  if (store.access === 'suspended') {
    Object.assign(input.headers, rateLimitHeaders(bucket.read(now)));
    throw StoreApiError.standard(
      402,
      "API access to this store is suspended for lack of payment: the store's subscription or the app's recurring charge must be paid",
    );
  }

  // 5. store.ratelimit.bucket-429, store.ratelimit.headers. An unmetered store (control API, for
  // throughput benchmarks) adds nothing, so its bucket reads empty and the rate headers say so.
  const admitted = !store.metered || bucket.tryAdd(now);
  Object.assign(input.headers, rateLimitHeaders(bucket.read(now)));
  if (!admitted) {
    throw StoreApiError.standard(
      429,
      `Rate limit exceeded: the bucket holds ${bucket.capacity} requests and leaks ${bucket.leakPerSecond} per second; retry after X-Rate-Limit-Reset ms`,
    );
  }

  // 6. Injected faults (control API): store.errors.server-errors-retried, store.client.paces-to-bucket
  const fault = store.takeFault();
  if (fault) {
    const faultHeaders: Record<string, string> = {};
    if (fault.retryAfterMs !== undefined) faultHeaders['Retry-After'] = String(Math.ceil(fault.retryAfterMs / 1000));
    if (fault.status === 429) {
      const full = bucket.fullReading();
      Object.assign(input.headers, rateLimitHeaders(fault.retryAfterMs === undefined ? full : { ...full, resetMs: fault.retryAfterMs }));
    }
    throw StoreApiError.standard(fault.status, null, faultHeaders);
  }

  // 7. Body rules.
  const body = await readJsonBody(req, method);

  // 8. Route.
  const match = deps.router.match(method, input.resource);
  if (match.kind === 'not-found') throw StoreApiError.standard(404, null);
  if (match.kind === 'method-not-allowed') throw StoreApiError.standard(405, null, { Allow: match.allow });
  const context: ApiContext = {
    store,
    method,
    query: input.query,
    body,
    storeUrl: `${deps.origin}/${STORE_CONTRACT.version}/${store.id}`,
    resourcePath: input.resource.join('/'),
  };
  // A write may change how any record renders.
  return dropRenderedAroundWrites(
    method,
    () => store.rendered.invalidate(),
    () => match.handler(context, match.params),
  );
}

/** The token of `Authentication: bearer <token>`, or of `Authorization: Bearer <token>` (newer guides). */
function readToken(headers: IncomingHttpHeaders): string | undefined {
  for (const name of [STORE_CONTRACT.tokenHeader, 'authorization']) {
    const value = headers[name];
    if (typeof value !== 'string') continue;
    const match = TOKEN_VALUE.exec(value.trim());
    if (match) return match[1];
  }
  return undefined;
}

/** Step 7: Content-Type, size, JSON, object shape, and Content-Length on PUT. */
async function readJsonBody(req: IncomingMessage, method: string): Promise<Record<string, unknown> | undefined> {
  if (!declaresBody(req.headers)) {
    // store.http.put-without-length-411; `Content-Length: 0` is an empty update
    // (store.http.put-empty-body-content-length).
    if (method === 'PUT' && req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      throw StoreApiError.standard(411, 'A PUT without a body must send Content-Length: 0');
    }
    return undefined;
  }
  // store.http.content-type-required; another type (text/plain) too: store.http.non-json-content-type-415.
  if (!isJsonContentType(req.headers)) throw StoreApiError.standard(415, 'Content-Type should be application/json');
  const read = await readBody(req);
  if (read.kind === 'aborted') throw StoreApiError.standard(400, 'The request body ended early');
  if (read.kind === 'too-large') {
    throw StoreApiError.standard(413, `The request body is larger than ${MAX_BODY_BYTES} bytes`, read.reusable ? {} : { Connection: 'close' });
  }
  if (read.bytes.length === 0) return undefined;
  // store.errors.invalid-json-400
  const parsed = parseJson(read.bytes);
  if (!parsed.ok) throw new StoreApiError(400, { error: 'Problems parsing JSON' });
  if (isJsonObject(parsed.value)) return parsed.value;
  if (WRITE_METHODS.has(method)) throw StoreApiError.standard(400, 'Invalid input format');
  return undefined;
}
