/**
 * OAuth 2's refusals (RFC 6749 5.2), which both specs adopt ("Authorization follows OAuth 2"; "The service uses
 * OAuth 2"): the one statement of them the suites check both token endpoints by
 * (store.oauth.token-errors-rfc6749, media.auth.token-errors-rfc6749).
 */

/** The error codes a refused token request may carry. */
export const RFC6749_ERRORS: readonly string[] = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
];

/** The statuses a refusal with `error` may answer: 400, and 401 too for a failed client authentication (invalid_client). */
export function refusalStatuses(error: string | undefined): number[] {
  return error === 'invalid_client' ? [400, 401] : [400];
}
