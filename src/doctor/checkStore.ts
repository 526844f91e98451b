/**
 * The store's live checks, in one request: GET /v1/{store_id}/store with the
 * configured token and User-Agent. Its answer tells whether the host answers,
 * whether the User-Agent and the token are accepted, and whether the token's
 * store is STORE_ID (the body's id). Each outcome becomes one line per check,
 * a problem naming the variable to fix.
 */
import { STATUS_CODES } from 'node:http';
import type { LiveStoreConfig } from '../config/harnessConfig.ts';
import { StoreTransportError } from '../clients/store/errors.ts';
import type { StoreClient } from '../clients/store/StoreClient.ts';
import { toStoreInfo } from '../clients/store/toStoreInfo.ts';
import type { StoreResponse } from '../clients/store/types.ts';
import { ok, problem, skipped, type Check } from './Check.ts';
import { unreachableHost } from './unreachableHost.ts';

const STORE = 'store';

export async function checkStore(store: LiveStoreConfig, client: StoreClient): Promise<Check[]> {
  const path = `/v1/${store.storeId}/store`;
  let response: StoreResponse;
  try {
    response = await client.send({ method: 'GET', path: '/store' });
  } catch (error) {
    if (!(error instanceof StoreTransportError)) throw error;
    const unchecked = 'not checked: the host did not answer';
    return [
      unreachableHost(STORE, 'STORE_API_URL', error.url, error.causeCode),
      skipped(STORE, 'user agent', unchecked),
      skipped(STORE, 'token', unchecked),
      skipped(STORE, 'store id', unchecked),
    ];
  }
  const answered = `GET ${path} answered ${statusText(response)}`;
  const host = ok(STORE, 'host', `${store.apiUrl} answers (${answered})`);
  const userAgentOk = ok(STORE, 'user agent', 'STORE_USER_AGENT not refused');
  const { status } = response;

  if (status === 400) {
    const unchecked = 'not checked: the request was refused before the token was looked at';
    return [
      host,
      problem(
        STORE,
        'user agent',
        `refused: ${answered}, the Store API's answer to a missing or unacceptable User-Agent (sent: "${store.userAgent}")`,
        'set STORE_USER_AGENT to the app name and a contact URL or e-mail, e.g. STORE_USER_AGENT="My app (https://example.com/contact)"',
      ),
      skipped(STORE, 'token', unchecked),
      skipped(STORE, 'store id', unchecked),
    ];
  }
  if (status === 401) {
    return [
      host,
      userAgentOk,
      problem(
        STORE,
        'token',
        `refused for store ${store.storeId}: ${answered}; the token is wrong, revoked, or belongs to another store`,
        `set STORE_ACCESS_TOKEN to the access token of the app's installation in store ${store.storeId}; if the token is right, STORE_ID must be the store it was issued for (the user_id of the token answer)`,
      ),
      skipped(STORE, 'store id', 'not checked: the token was refused'),
    ];
  }
  if (status === 402) {
    return [
      host,
      userAgentOk,
      ok(STORE, 'token', 'not refused'),
      problem(
        STORE,
        'store access',
        `suspended: ${answered}; the store's API access is suspended for lack of payment, so every call answers 402`,
        "the store's subscription must be renewed or the app's charge paid; then run the doctor again",
      ),
    ];
  }
  if (status === 403 || status === 404) {
    return [
      host,
      userAgentOk,
      skipped(STORE, 'token', `not checked on its own: ${answered}`),
      problem(
        STORE,
        'store id',
        `store ${store.storeId} is not reachable with this token: ${answered}; STORE_ID is not the store the token was issued for, or STORE_API_URL is not the Store API`,
        `set STORE_ID to the token's store (the user_id of the token answer), or STORE_ACCESS_TOKEN to the token of store ${store.storeId}; check STORE_API_URL (default https://api.tiendanube.com)`,
      ),
    ];
  }
  if (status === 429 || status >= 500) {
    const unchecked = `not checked: ${answered}`;
    return [
      problem(
        STORE,
        'host',
        status === 429
          ? `answers, but the store's rate limit is still exceeded after a retry (${answered}): another program is using this token right now`
          : `answers with service trouble (${answered}) after a retry`,
        'run the doctor again in a few minutes; a live run now would fail the same way',
      ),
      skipped(STORE, 'user agent', unchecked),
      skipped(STORE, 'token', unchecked),
      skipped(STORE, 'store id', unchecked),
    ];
  }
  if (status < 200 || status >= 300) {
    return [
      problem(
        STORE,
        'host',
        `${answered}, which the Store API does not answer to this request`,
        'check STORE_API_URL (the Store API, e.g. https://api.tiendanube.com, without /v1)',
      ),
      skipped(STORE, 'token', `not checked: ${answered}`),
      skipped(STORE, 'store id', `not checked: ${answered}`),
    ];
  }

  const id = toStoreInfo(jsonOf(response), response.headers['x-main-language']).id;
  if (id === undefined) {
    return [
      problem(
        STORE,
        'host',
        `${answered}, but not with a store object (JSON with a numeric id): ${store.apiUrl} does not look like the Store API`,
        'check STORE_API_URL (the Store API, e.g. https://api.tiendanube.com, without /v1)',
      ),
      userAgentOk,
      ok(STORE, 'token', 'not refused'),
      skipped(STORE, 'store id', 'not checked: the answer had no store id'),
    ];
  }
  return [
    host,
    userAgentOk,
    ok(STORE, 'token', `accepted for store ${store.storeId}`),
    String(id) === store.storeId
      ? ok(STORE, 'store id', `the token's store is ${store.storeId} (GET ${path} answered with that id)`)
      : problem(
          STORE,
          'store id',
          `GET ${path} answered with the store id ${id}, not ${store.storeId}`,
          `set STORE_ID to the token's store, or STORE_ACCESS_TOKEN to the token of store ${store.storeId}`,
        ),
  ];
}

function statusText(response: StoreResponse): string {
  const reason = STATUS_CODES[response.status] ?? '';
  const description = descriptionOf(response);
  return `${response.status}${reason ? ` ${reason}` : ''}${description ? ` ("${description}")` : ''}`;
}

/** The description (or error) member of an error body, short; texts are already redacted by the client. */
function descriptionOf(response: StoreResponse): string | undefined {
  if (response.status < 400) return undefined;
  const body = jsonOf(response);
  if (body === null || typeof body !== 'object') return undefined;
  for (const key of ['description', 'error', 'message']) {
    const value = (body as Record<string, unknown>)[key];
    if (typeof value === 'string' && value) return value.slice(0, 160);
  }
  return undefined;
}

function jsonOf(response: StoreResponse): unknown {
  try {
    return response.json();
  } catch {
    return undefined;
  }
}
