/**
 * The install helper: the last step of the OAuth 2 install flow (field notes,
 * OAuth). The store owner approved the app; the redirect brought a `code`;
 * `exchangeCode` trades it at POST /apps/authorize/token for the store's
 * token and answers a StoreClient on the store the answer's `user_id` names.
 */
import { request, type Dispatcher } from 'undici';
import { STORE_CONTRACT } from '../../rules/storeContract.ts';
import { InstallError, refusalError } from './installErrors.ts';
import { StoreClient } from './StoreClient.ts';
import type { StoreClientOptions } from './types.ts';

/** The real service's hosts (field notes, Requests and OAuth); on the twin both are its own URL. */
export const REAL_AUTH_URL = 'https://www.tiendanube.com';
export const REAL_API_URL = 'https://api.tiendanube.com';
export const TOKEN_PATH = '/apps/authorize/token';

export interface ExchangeCodeOptions {
  /** The app's id, from the partner panel. */
  readonly clientId: string | number;
  readonly clientSecret: string;
  /** The `code` the redirect brought. */
  readonly code: string;
  /** App name and a URL or an email, as every Store API request carries. */
  readonly userAgent: string;
  /** Origin of the token endpoint. Default the real service's. */
  readonly authUrl?: string;
  /** Origin of the Store API, before /v1. Default the real service's. */
  readonly apiUrl?: string;
  /** Sent only when given: the provider checks it against the app's registered redirect URL. */
  readonly redirectUri?: string;
  readonly dispatcher?: Dispatcher;
  /** The rest of the returned client's options (clock, pacing, retries, onExchange). */
  readonly client?: Omit<StoreClientOptions, 'baseUrl' | 'token' | 'userAgent'>;
}

export interface Installation {
  /** The store the token opens: the answer's user_id. */
  readonly storeId: string;
  readonly accessToken: string;
  readonly scopes: readonly string[];
  /** A client on {apiUrl}/v1/{storeId} with the new token. */
  readonly client: StoreClient;
}

/** Trades the redirect's code for the store's token and answers a client on that store. */
export async function exchangeCode(options: ExchangeCodeOptions): Promise<Installation> {
  const clientId = String(options.clientId);
  checkOptions(options, clientId);
  const url = new URL(TOKEN_PATH, options.authUrl ?? REAL_AUTH_URL);
  const { status, text } = await postCode(url, options, clientId);
  const { token, storeId, scope } = readTokenAnswer(url, status, text, options, clientId);
  const apiUrl = (options.apiUrl ?? REAL_API_URL).replace(/\/+$/, '');
  return {
    storeId,
    accessToken: token,
    scopes: typeof scope === 'string' ? scope.split(/[\s,]+/).filter(Boolean) : [],
    client: new StoreClient({ ...options.client, baseUrl: `${apiUrl}/${STORE_CONTRACT.version}/${storeId}`, token, userAgent: options.userAgent }),
  };
}

/** Refuses an empty setting before anything is sent: each is named, so the fix is plain. */
function checkOptions(options: ExchangeCodeOptions, clientId: string): void {
  for (const [name, value] of [
    ['clientId', clientId],
    ['clientSecret', options.clientSecret],
    ['code', options.code],
    ['userAgent', options.userAgent],
  ] as const) {
    if (!value?.trim()) throw new InstallError('INSTALL_ERR_CONFIG', `${name} is empty. Fix: pass the app's ${name} (the code comes from the redirect).`);
  }
}

/** POST /apps/authorize/token with the code; no answer at all is a transport error, any answer is read by the caller. */
async function postCode(url: URL, options: ExchangeCodeOptions, clientId: string): Promise<{ status: number; text: string }> {
  const body = {
    client_id: clientId,
    client_secret: options.clientSecret,
    grant_type: 'authorization_code',
    code: options.code,
    ...(options.redirectUri === undefined ? {} : { redirect_uri: options.redirectUri }),
  };
  try {
    const answer = await request(url, {
      method: 'POST',
      headers: { 'content-type': STORE_CONTRACT.jsonContentType, accept: 'application/json', 'user-agent': options.userAgent },
      body: JSON.stringify(body),
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    });
    return { status: answer.statusCode, text: await answer.body.text() };
  } catch (error) {
    throw new InstallError(
      'INSTALL_ERR_TRANSPORT',
      `POST ${url.href} got no answer (${(error as Error).message}). Fix: check authUrl and that the service is up.`,
      {
        cause: error,
      },
    );
  }
}

/** The token endpoint's answer: a refusal explained, or the documented grant; anything else names what came back, secrets redacted. */
function readTokenAnswer(
  url: URL,
  status: number,
  text: string,
  options: ExchangeCodeOptions,
  clientId: string,
): { token: string; storeId: string; scope: unknown } {
  const json = parse(text);
  const token = json?.['access_token'];
  // What the endpoint echoes must not carry the secret, the code or a token into a message.
  const shown = [options.clientSecret, options.code, typeof token === 'string' ? token : ''].reduce(
    (t, secret) => (secret ? t.replaceAll(secret, '[redacted]') : t),
    text,
  );
  const refusal = parse(shown);
  if (status >= 400 && status < 500 && typeof refusal?.['error'] === 'string') {
    throw refusalError(status, refusal['error'], typeof refusal['error_description'] === 'string' ? refusal['error_description'] : '', clientId);
  }
  const userId = json?.['user_id'];
  const tokenType = json?.['token_type'];
  if (status !== 200 || typeof token !== 'string' || token === '' || !/^\d+$/.test(String(userId)) || String(tokenType).toLowerCase() !== 'bearer') {
    throw new InstallError(
      'INSTALL_ERR_RESPONSE',
      `POST ${url.href} answered ${status} without the documented {access_token, token_type: "bearer", scope, user_id}: ${JSON.stringify(shown.slice(0, 200))}. Fix: check authUrl points at the token endpoint's host.`,
      { status },
    );
  }
  return { token, storeId: String(userId), scope: json?.['scope'] };
}

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
