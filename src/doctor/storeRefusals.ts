/**
 * What each status the store refuses GET /v1/{store_id}/store with says about
 * the setup: which check failed, which ones could not be made, and the fix.
 * The answer says nothing about checks past the one it refused, so those are
 * skipped rather than guessed.
 */
import type { LiveStoreConfig } from '../config/harnessConfig.ts';
import { ok, problem, skipped, type Check } from './Check.ts';

export const STORE = 'store';

/** One answered request, as the store's checks describe it. */
export interface StoreAnswer {
  readonly store: LiveStoreConfig;
  readonly status: number;
  /** `GET /v1/… answered 401 Unauthorized ("…")`, for the checks' sentences. */
  readonly answered: string;
}

/** The checks for a refusal; undefined for a 2xx, whose body has the last word. */
export function storeRefusal(a: StoreAnswer): Check[] | undefined {
  const { status } = a;
  if (status === 400) return userAgentRefused(a);
  if (status === 401) return tokenRefused(a);
  if (status === 402) return accessSuspended(a);
  if (status === 403 || status === 404) return storeNotReachable(a);
  if (status === 429 || status >= 500) return serviceTrouble(a);
  if (status < 200 || status >= 300) return notTheStoreApi(a);
  return undefined;
}

export const hostAnswers = (a: StoreAnswer) => ok(STORE, 'host', `${a.store.apiUrl} answers (${a.answered})`);
export const userAgentOk = () => ok(STORE, 'user agent', 'STORE_USER_AGENT not refused');

function userAgentRefused(a: StoreAnswer): Check[] {
  const unchecked = 'not checked: the request was refused before the token was looked at';
  return [
    hostAnswers(a),
    problem(
      STORE,
      'user agent',
      `refused: ${a.answered}, the Store API's answer to a missing or unacceptable User-Agent (sent: "${a.store.userAgent}")`,
      'set STORE_USER_AGENT to the app name and a contact URL or e-mail, e.g. STORE_USER_AGENT="My app (https://example.com/contact)"',
    ),
    skipped(STORE, 'token', unchecked),
    skipped(STORE, 'store id', unchecked),
  ];
}

function tokenRefused(a: StoreAnswer): Check[] {
  const { storeId } = a.store;
  return [
    hostAnswers(a),
    userAgentOk(),
    problem(
      STORE,
      'token',
      `refused for store ${storeId}: ${a.answered}; the token is wrong, revoked, or belongs to another store`,
      `set STORE_ACCESS_TOKEN to the access token of the app's installation in store ${storeId}; if the token is right, STORE_ID must be the store it was issued for (the user_id of the token answer)`,
    ),
    skipped(STORE, 'store id', 'not checked: the token was refused'),
  ];
}

function accessSuspended(a: StoreAnswer): Check[] {
  return [
    hostAnswers(a),
    userAgentOk(),
    ok(STORE, 'token', 'not refused'),
    problem(
      STORE,
      'store access',
      `suspended: ${a.answered}; the store's API access is suspended for lack of payment, so every call answers 402`,
      "the store's subscription must be renewed or the app's charge paid; then run the doctor again",
    ),
  ];
}

function storeNotReachable(a: StoreAnswer): Check[] {
  const { storeId } = a.store;
  return [
    hostAnswers(a),
    userAgentOk(),
    skipped(STORE, 'token', `not checked on its own: ${a.answered}`),
    problem(
      STORE,
      'store id',
      `store ${storeId} is not reachable with this token: ${a.answered}; STORE_ID is not the store the token was issued for, or STORE_API_URL is not the Store API`,
      `set STORE_ID to the token's store (the user_id of the token answer), or STORE_ACCESS_TOKEN to the token of store ${storeId}; check STORE_API_URL (default https://api.tiendanube.com)`,
    ),
  ];
}

function serviceTrouble(a: StoreAnswer): Check[] {
  const unchecked = `not checked: ${a.answered}`;
  return [
    problem(
      STORE,
      'host',
      a.status === 429
        ? `answers, but the store's rate limit is still exceeded after a retry (${a.answered}): another program is using this token right now`
        : `answers with service trouble (${a.answered}) after a retry`,
      'run the doctor again in a few minutes; a live run now would fail the same way',
    ),
    skipped(STORE, 'user agent', unchecked),
    skipped(STORE, 'token', unchecked),
    skipped(STORE, 'store id', unchecked),
  ];
}

function notTheStoreApi(a: StoreAnswer): Check[] {
  return [
    problem(
      STORE,
      'host',
      `${a.answered}, which the Store API does not answer to this request`,
      'check STORE_API_URL (the Store API, e.g. https://api.tiendanube.com, without /v1)',
    ),
    skipped(STORE, 'token', `not checked: ${a.answered}`),
    skipped(STORE, 'store id', `not checked: ${a.answered}`),
  ];
}
