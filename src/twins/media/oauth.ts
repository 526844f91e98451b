/**
 * OAuth 2 as Doorkeeper serves it (field notes, "Authentication"; media.auth.oauth-password-refresh-revoke):
 * `POST /api/oauth/token` with the password or refresh_token grant (form or
 * JSON), `POST /api/oauth/revoke`. Answers are OAuth's own JSON, not JSON:API.
 */
import { MEDIA_SEED } from './seedFacts.ts';
import { isJsonObject, mediaTypeOf, parseJson, readBody } from '../serving/requestBody.ts';
import type { IncomingMessage } from 'node:http';
import { jsonResponse, type TwinResponse } from './http/responses.ts';
import type { MediaState } from './mediaState.ts';
import type { Grant } from './tokens.ts';

/** Doorkeeper's messages, verbatim. */
const MESSAGES = {
  invalid_grant:
    'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
  invalid_client: 'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
  unsupported_grant_type: 'The authorization grant type is not supported by the authorization server.',
  invalid_scope: 'The requested scope is invalid, unknown, or malformed.',
} as const;

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

/** media.auth.token-errors-rfc6749: a request it reads is refused 400 with an RFC 6749 5.2 code, 401 only for invalid_client (a body too large is 413, before it is read). */
function oauthError(status: number, error: string, description: string): TwinResponse {
  return jsonResponse(status, { error, error_description: description }, NO_STORE);
}

/** The parameters of a form-encoded or JSON body, over those of the query string. */
async function readParams(req: IncomingMessage, query: URLSearchParams): Promise<Map<string, string> | TwinResponse> {
  const params = new Map<string, string>(query);
  const read = await readBody(req);
  if (read.kind === 'aborted') return oauthError(400, 'invalid_request', 'The request body ended early.');
  if (read.kind === 'too-large') return oauthError(413, 'invalid_request', 'The request body is too large.');
  if (read.bytes.length === 0) return params;
  const type = mediaTypeOf(req.headers);
  if (type === 'application/x-www-form-urlencoded') {
    for (const [key, value] of new URLSearchParams(read.bytes.toString('utf8'))) params.set(key, value);
    return params;
  }
  if (type === 'application/json' || type === 'application/vnd.api+json') {
    const parsed = parseJson(read.bytes);
    if (!parsed.ok || !isJsonObject(parsed.value)) return oauthError(400, 'invalid_request', 'The body must be a JSON object of parameters.');
    for (const [key, value] of Object.entries(parsed.value)) {
      if (typeof value === 'string' || typeof value === 'number') params.set(key, String(value));
    }
    return params;
  }
  return oauthError(400, 'invalid_request', 'Send the parameters as application/x-www-form-urlencoded or application/json.');
}

function tokenBody(grant: Grant): Record<string, unknown> {
  return {
    access_token: grant.accessToken,
    token_type: 'Bearer',
    expires_in: grant.expiresInSeconds,
    refresh_token: grant.refreshToken,
    scope: 'public',
    created_at: Math.floor(grant.createdAtMs / 1000),
  };
}

export async function handleTokenRequest(req: IncomingMessage, query: URLSearchParams, state: MediaState): Promise<TwinResponse> {
  const params = await readParams(req, query);
  if (!(params instanceof Map)) return params;
  const clientId = params.get('client_id');
  if (clientId !== undefined && clientId !== MEDIA_SEED.oauthClientId) return oauthError(401, 'invalid_client', MESSAGES.invalid_client);
  const scope = params.get('scope');
  if (scope !== undefined && scope.split(/\s+/).some((name) => name !== 'public' && name !== ''))
    return oauthError(400, 'invalid_scope', MESSAGES.invalid_scope);
  const grantType = params.get('grant_type');
  if (grantType === undefined || grantType === '') return oauthError(400, 'invalid_request', 'Missing required parameter: grant_type.');
  const now = state.clock.now();
  if (grantType === 'password') {
    const username = params.get('username');
    const password = params.get('password');
    if (!username) return oauthError(400, 'invalid_request', 'Missing required parameter: username.');
    if (password === undefined) return oauthError(400, 'invalid_request', 'Missing required parameter: password.');
    const wanted = username.trim().toLowerCase();
    const user = state
      .all('users')
      .find((candidate) => String(candidate.attributes['email']).toLowerCase() === wanted || String(candidate.attributes['name']).toLowerCase() === wanted);
    if (!user || user.secrets['password'] !== password) return oauthError(400, 'invalid_grant', MESSAGES.invalid_grant);
    return jsonResponse(200, tokenBody(state.tokens.issue(user.id, now)), NO_STORE);
  }
  if (grantType === 'refresh_token') {
    const refreshToken = params.get('refresh_token');
    if (!refreshToken) return oauthError(400, 'invalid_request', 'Missing required parameter: refresh_token.');
    const previous = state.tokens.byRefreshToken(refreshToken);
    if (!previous || !state.get('users', previous.userId)) return oauthError(400, 'invalid_grant', MESSAGES.invalid_grant);
    // Refresh-token rotation: the old pair stops working.
    state.tokens.revoke(refreshToken);
    return jsonResponse(200, tokenBody(state.tokens.issue(previous.userId, now)), NO_STORE);
  }
  return oauthError(400, 'unsupported_grant_type', MESSAGES.unsupported_grant_type);
}

/** RFC 7009: 200 `{}` whether or not the token was known. */
export async function handleRevokeRequest(req: IncomingMessage, query: URLSearchParams, state: MediaState): Promise<TwinResponse> {
  const params = await readParams(req, query);
  if (!(params instanceof Map)) return params;
  const token = params.get('token');
  if (!token) return oauthError(400, 'invalid_request', 'Missing required parameter: token.');
  state.tokens.revoke(token);
  return jsonResponse(200, {});
}
