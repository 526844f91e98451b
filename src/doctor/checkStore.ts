/**
 * The store's live checks, in one request: GET /v1/{store_id}/store with the
 * configured token and User-Agent. Its answer tells whether the host answers,
 * whether the User-Agent and the token are accepted, and whether the token's
 * store is STORE_ID (the body's id). Each outcome becomes one line per check,
 * a problem naming the variable to fix; what each refusal means is in
 * storeRefusals.ts.
 */
import { STATUS_CODES } from '../http/nodeHttp.ts';
import type { LiveStoreConfig } from '../config/harnessConfig.ts';
import { StoreTransportError } from '../clients/store/errors.ts';
import type { StoreClient } from '../clients/store/StoreClient.ts';
import { toStoreInfo } from '../clients/store/toStoreInfo.ts';
import type { StoreResponse } from '../clients/store/types.ts';
import { ok, problem, skipped, type Check } from './Check.ts';
import { hostAnswers, STORE, storeRefusal, userAgentOk, type StoreAnswer } from './storeRefusals.ts';
import { unreachableHost } from './unreachableHost.ts';

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
  const answer: StoreAnswer = { store, status: response.status, answered: `GET ${path} answered ${statusText(response)}` };
  return storeRefusal(answer) ?? storeObjectChecks(answer, response, path);
}

/** A 2xx: the body must be a store object, and its id the configured STORE_ID. */
function storeObjectChecks(a: StoreAnswer, response: StoreResponse, path: string): Check[] {
  const { store } = a;
  const id = toStoreInfo(jsonOf(response), response.headers['x-main-language']).id;
  if (id === undefined) {
    return [
      problem(
        STORE,
        'host',
        `${a.answered}, but not with a store object (JSON with a numeric id): ${store.apiUrl} does not look like the Store API`,
        'check STORE_API_URL (the Store API, e.g. https://api.tiendanube.com, without /v1)',
      ),
      userAgentOk(),
      ok(STORE, 'token', 'not refused'),
      skipped(STORE, 'store id', 'not checked: the answer had no store id'),
    ];
  }
  return [
    hostAnswers(a),
    userAgentOk(),
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
