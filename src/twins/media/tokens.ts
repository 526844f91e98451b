import { randomBytes } from 'node:crypto';
import { MEDIA_CONTRACT } from '../../rules/mediaContract.ts';

/** One OAuth grant: an access token and its refresh token (Doorkeeper). */
export interface Grant {
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly userId: string;
  readonly createdAtMs: number;
  readonly expiresInSeconds: number;
  revoked: boolean;
}

export type TokenLookup =
  | { readonly kind: 'valid'; readonly grant: Grant }
  /** Expired or revoked: 401 Invalid token. */
  | { readonly kind: 'invalid' }
  /** Never issued by this twin: the request is anonymous. */
  | { readonly kind: 'unknown' };

/** Issued tokens; `/__twin/reset` forgets them with the rest of the state. */
export class TokenStore {
  readonly #byAccess = new Map<string, Grant>();
  readonly #byRefresh = new Map<string, Grant>();

  /** Forgets every grant (a reset back to the seed). */
  clear(): void {
    this.#byAccess.clear();
    this.#byRefresh.clear();
  }

  issue(userId: string, nowMs: number): Grant {
    const grant: Grant = {
      accessToken: randomBytes(32).toString('hex'),
      refreshToken: randomBytes(32).toString('hex'),
      userId,
      createdAtMs: nowMs,
      expiresInSeconds: MEDIA_CONTRACT.tokenLifetimeSeconds,
      revoked: false,
    };
    this.#byAccess.set(grant.accessToken, grant);
    this.#byRefresh.set(grant.refreshToken, grant);
    return grant;
  }

  lookup(accessToken: string, nowMs: number): TokenLookup {
    const grant = this.#byAccess.get(accessToken);
    if (!grant) return { kind: 'unknown' };
    if (grant.revoked || nowMs >= grant.createdAtMs + grant.expiresInSeconds * 1000) return { kind: 'invalid' };
    return { kind: 'valid', grant };
  }

  /** The grant of a refresh token still usable (not revoked); refresh tokens do not expire, as in Doorkeeper's default. */
  byRefreshToken(refreshToken: string): Grant | undefined {
    const grant = this.#byRefresh.get(refreshToken);
    return grant && !grant.revoked ? grant : undefined;
  }

  /** Revokes the grant an access or refresh token belongs to; unknown tokens are ignored (RFC 7009). */
  revoke(token: string): void {
    const grant = this.#byAccess.get(token) ?? this.#byRefresh.get(token);
    if (grant) grant.revoked = true;
  }
}
