/**
 * Helpers for the media twin's HTTP tests: a twin on an ephemeral port that
 * records internal errors, requests with full control of headers, JSON:API
 * writes, sign-in through the OAuth endpoint, and raw socket exchanges.
 */
import { MEDIA_CONTRACT } from '../../../../src/rules/mediaContract.ts';
import { startMediaTwin, type RunningMediaTwin } from '../../../../src/twins/media/server.ts';
import { send as sendExactly, type Answer, type SendOptions as ExactSendOptions } from '../../support/twinHttp.ts';

export { control, sendRaw, type Answer, type RawAnswer } from '../../support/twinHttp.ts';

export const JSON_API = MEDIA_CONTRACT.mediaType;

export interface SendOptions extends ExactSendOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** A JSON:API body, sent with the JSON:API Content-Type. */
  readonly json?: unknown;
}

/** One request; the body, when given, is sent with its Content-Length. */
export function send(url: string, options: SendOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers['Authorization'] = `Bearer ${options.token}`;
  let body = options.body;
  if (options.json !== undefined) {
    headers['Content-Type'] ??= JSON_API;
    body = JSON.stringify(options.json);
  }
  // Node frames a DELETE body only with an explicit length.
  if (body !== undefined) headers['Content-Length'] ??= String(Buffer.byteLength(body));
  return sendExactly(url, { method: options.method ?? 'GET', headers, ...(body === undefined ? {} : { body }) });
}

export interface TestTwin {
  readonly twin: RunningMediaTwin;
  /** `{url}/api/edge`. */
  readonly api: string;
  readonly internalErrors: unknown[];
}

/** A twin on an ephemeral port with a virtual clock that records internal errors instead of logging them. */
export async function startTestTwin(): Promise<TestTwin> {
  const internalErrors: unknown[] = [];
  const twin = await startMediaTwin({ port: 0, clock: 'virtual', onInternalError: (error) => internalErrors.push(error) });
  return { twin, api: `${twin.url}${MEDIA_CONTRACT.edgePrefix}`, internalErrors };
}

/** Signs in with the password grant and returns the access token. */
export async function signIn(twinUrl: string, username: string, password: string): Promise<string> {
  const answer = await send(`${twinUrl}${MEDIA_CONTRACT.oauthTokenPath}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
  });
  if (answer.status !== 200) throw new Error(`sign-in of ${username} answered ${answer.status}: ${answer.text}`);
  return answer.json<{ access_token: string }>().access_token;
}
