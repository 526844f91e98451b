/**
 * POST /apps/authorize/token (field notes, OAuth): exchanges an authorization
 * code for the app's token on the store that approved it. Answers and errors
 * are OAuth 2's own JSON (RFC 6749 5.1, 5.2), not the Store API's error shape.
 */
import type { IncomingMessage } from 'node:http';
import { isJsonObject, mediaTypeOf, parseJson, readBody } from '../../serving/requestBody.ts';
import { jsonResponse, type TwinResponse } from '../responses.ts';
import type { TwinState } from '../twinState.ts';
import type { ExchangeRefusal } from './installs.ts';

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
const PARAMETERS = ['client_id', 'client_secret', 'grant_type', 'code'] as const;

/** What each refused code says: the twin's wording (see ASSUMPTIONS.md); the client reads the kind from `error_description`. */
const REFUSALS: Readonly<Record<ExchangeRefusal, string>> = {
  'unknown-code': 'The authorization code is unknown: send the store owner through /apps/{app_id}/authorize for a new one.',
  'other-app': 'The authorization code was issued to another app: exchange it with the client_id of the app the store owner approved.',
  used: 'The authorization code was already used: a code is exchanged once; send the store owner through /apps/{app_id}/authorize again.',
  expired: 'The authorization code has expired: exchange it within 10 minutes of the approval; send the store owner through /apps/{app_id}/authorize again.',
  'store-gone': 'The store that approved this authorization code no longer exists.',
};

export function oauthError(status: number, error: string, description: string, headers: Readonly<Record<string, string>> = {}): TwinResponse {
  return jsonResponse(status, { error, error_description: description }, { ...NO_STORE, ...headers });
}

/** The parameters of a JSON or form-encoded body, or the refusal of a body that is neither (a 4xx, store.oauth.token-bad-input-4xx). */
async function readParams(req: IncomingMessage): Promise<Map<string, string> | TwinResponse> {
  const read = await readBody(req);
  if (read.kind === 'aborted') return oauthError(400, 'invalid_request', 'The request body ended early.');
  if (read.kind === 'too-large') return oauthError(413, 'invalid_request', 'The request body is too large.');
  const type = mediaTypeOf(req.headers);
  if (read.bytes.length === 0) return new Map();
  if (type === 'application/x-www-form-urlencoded') return new Map(new URLSearchParams(read.bytes.toString('utf8')));
  // store.oauth.token-request-form-encoded: the form OAuth 2 clients send is read (RFC 6749 4.1.3), and JSON as the field notes show.
  // Any other body is a malformed request: 400 invalid_request, as RFC 6749 5.2 answers every error but a failed client authentication.
  if (type !== 'application/json') {
    return oauthError(400, 'invalid_request', 'Send the parameters as application/x-www-form-urlencoded (or application/json).');
  }
  const parsed = parseJson(read.bytes);
  if (!parsed.ok || !isJsonObject(parsed.value)) return oauthError(400, 'invalid_request', 'The body must be a JSON object of the parameters.');
  const params = new Map<string, string>();
  for (const [key, value] of Object.entries(parsed.value)) {
    // Real client ids are numbers, and apps send them as such.
    if (typeof value === 'string' || typeof value === 'number') params.set(key, String(value));
    else if ((PARAMETERS as readonly string[]).includes(key)) return oauthError(400, 'invalid_request', `${key} must be a string.`);
  }
  return params;
}

/**
 * store.oauth.token-errors-rfc6749: every refusal below is 400 with an RFC 6749 5.2 code, but a failed client
 * authentication, 401 invalid_client; store.oauth.token-success-rfc6749: a success is 200 {access_token, token_type}, no-store.
 */
export async function handleTokenRequest(req: IncomingMessage, twin: TwinState): Promise<TwinResponse> {
  const params = await readParams(req);
  if (!(params instanceof Map)) return params;
  // store.oauth.token-bad-input-4xx: a missing parameter or another grant_type is the caller's to fix.
  const missing = PARAMETERS.find((name) => (params.get(name) ?? '') === '');
  if (missing) return oauthError(400, 'invalid_request', `Missing required parameter: ${missing}.`);
  if (params.get('grant_type') !== 'authorization_code') {
    return oauthError(400, 'unsupported_grant_type', 'grant_type must be authorization_code: the install flow exchanges a code.');
  }
  const app = twin.apps.find(params.get('client_id'));
  // store.oauth.client-authentication: one answer for an unknown app and a wrong secret, as OAuth 2 does: the
  // caller learns nothing about other apps.
  if (!app || app.secret !== params.get('client_secret')) {
    return oauthError(401, 'invalid_client', 'Client authentication failed: client_id is not a registered app, or client_secret is not its secret.', {
      'WWW-Authenticate': 'Basic realm="apps"',
    });
  }
  const redirectUri = params.get('redirect_uri');
  if (redirectUri !== undefined && redirectUri !== app.redirectUrl) {
    return oauthError(400, 'invalid_grant', `redirect_uri does not match the redirect URL registered for app ${app.id}.`);
  }
  const exchange = twin.installs.exchange(app, params.get('code')!, (id) => twin.find(String(id)));
  if (!exchange.ok) return oauthError(400, 'invalid_grant', REFUSALS[exchange.why]);
  // store.oauth.token-answer; user_id is the store that approved, whose /v1/{user_id} the token opens
  // (store.oauth.user-id-is-store-id).
  return jsonResponse(200, { access_token: exchange.token, token_type: 'bearer', scope: app.scopes.join(','), user_id: String(exchange.store.id) }, NO_STORE);
}
