/**
 * Who a request comes from (field notes, "Authentication"): `Authorization:
 * Bearer <token>` (media.auth.bearer-token). An expired or revoked token is 401 Invalid token; a token
 * the twin never issued, or no token, is anonymous.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { invalidToken } from './jsonapi/errors.ts';
import type { MediaState } from './mediaState.ts';
import { ANONYMOUS, storedOne, type MediaRecord, type Viewer } from './model.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Whether a user holds the `admin` role (through user-roles). */
export function isAdminUser(state: MediaState, userId: string): boolean {
  return state.all('userRoles').some((grant) => {
    if (storedOne(grant, 'user')?.id !== userId) return false;
    const role = storedOne(grant, 'role');
    return role !== null && state.get('roles', role.id)?.attributes['name'] === 'admin';
  });
}

export function viewerOf(state: MediaState, user: MediaRecord): Viewer {
  // media.visibility.adult-visible-signed-in: a user who turned sfwFilter off sees adult media.
  return { user, isAdmin: isAdminUser(state, user.id), hidesAdult: user.attributes['sfwFilter'] !== false };
}

export function viewerFor(state: MediaState, headers: IncomingHttpHeaders): Viewer {
  const header = headers.authorization;
  const token = typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined;
  // media.auth.anonymous-reads: a request without a token is answered as anonymous; each resource's read policy says what that sees.
  if (token === undefined) return ANONYMOUS;
  const found = state.tokens.lookup(token, state.clock.now());
  // media.auth.oauth-password-refresh-revoke: a revoked token answers 401 Invalid token.
  if (found.kind === 'invalid') throw invalidToken();
  // media.auth.unknown-token-anonymous
  if (found.kind === 'unknown') return ANONYMOUS;
  const user = state.get('users', found.grant.userId);
  return user ? viewerOf(state, user) : ANONYMOUS;
}
