/**
 * The install flow's state: authorization codes and which token each app
 * holds on each store. Codes and tokens are checked on the store's own clock,
 * so a test moves time through the control API instead of sleeping.
 */
import { randomBytes } from 'node:crypto';
import type { StoreState } from '../storeState.ts';
import type { TwinApp } from './apps.ts';

/** How long a code can be exchanged (store.oauth.code-expires): RFC 6749 4.1.2 recommends at most 10 minutes; the field notes say nothing. */
export const CODE_LIFETIME_MS = 10 * 60_000;

interface IssuedCode {
  readonly appId: number;
  readonly storeId: number;
  readonly issuedAt: number;
  used: boolean;
}

/** Why an exchange is refused; install/tokenEndpoint.ts words each one. */
export type ExchangeRefusal = 'unknown-code' | 'other-app' | 'used' | 'expired' | 'store-gone';

export type Exchange = { readonly ok: true; readonly token: string; readonly store: StoreState } | { readonly ok: false; readonly why: ExchangeRefusal };

/** Codes not exchanged are forgotten past this many, oldest first, so a long-running twin stays small. */
const MAX_CODES = 10_000;

export class Installs {
  readonly #codes = new Map<string, IssuedCode>();
  /** `${appId}:${storeId}` → the token the app holds on the store. */
  readonly #tokens = new Map<string, string>();

  reset(): void {
    this.#codes.clear();
    this.#tokens.clear();
  }

  /** The store owner approved: a code the app exchanges once, before CODE_LIFETIME_MS has passed on the store's clock. */
  approve(app: TwinApp, store: StoreState): string {
    const code = randomBytes(16).toString('hex');
    this.#codes.set(code, { appId: app.id, storeId: store.controlId, issuedAt: store.clock.now(), used: false });
    if (this.#codes.size > MAX_CODES) this.#codes.delete(this.#codes.keys().next().value!);
    return code;
  }

  /**
   * Exchanges a code for the app's token on its store (store.oauth.install-grants-token): a new token replaces
   * the one the app held (field notes, OAuth; store.oauth.token-replaced), and carries the app's scopes.
   */
  exchange(app: TwinApp, code: string, findStore: (id: number) => StoreState | undefined): Exchange {
    const issued = this.#codes.get(code);
    // store.oauth.bad-code-refused: a code this twin did not issue, or issued to another app.
    if (!issued) return { ok: false, why: 'unknown-code' };
    if (issued.appId !== app.id) return { ok: false, why: 'other-app' };
    // store.oauth.code-single-use
    if (issued.used) return { ok: false, why: 'used' };
    const store = findStore(issued.storeId);
    if (!store) return { ok: false, why: 'store-gone' };
    if (store.clock.now() - issued.issuedAt > CODE_LIFETIME_MS) return { ok: false, why: 'expired' };
    issued.used = true;
    const token = `twin-oauth-${store.id}-${randomBytes(12).toString('hex')}`;
    const key = keyOf(app, store);
    store.grantToken(token, app.scopes, this.#tokens.get(key));
    this.#tokens.set(key, token);
    return { ok: true, token, store };
  }

  /** Uninstalls: the app's token stops working and `app/uninstalled` goes out. False when the app was not installed there. */
  uninstall(app: TwinApp, store: StoreState): boolean {
    const key = keyOf(app, store);
    const token = this.#tokens.get(key);
    if (token === undefined) return false;
    store.revokeToken(token);
    this.#tokens.delete(key);
    // Through the store's webhooks and outbox, like app/suspended (nothing goes out while suspended).
    store.emit('app/uninstalled', store.id);
    return true;
  }
}

function keyOf(app: TwinApp, store: StoreState): string {
  return `${app.id}:${store.controlId}`;
}
