/**
 * Errors of the install helper (install.ts). One class, a stable `code` per
 * kind (tests match on it, not on wording), and a message that says who
 * speaks, what happened and the fix. No message carries the code or the secret.
 */
export type InstallErrorCode =
  /** invalid_client: the client_id is not a registered app, or the client_secret is not its secret. */
  | 'INSTALL_ERR_CLIENT'
  | 'INSTALL_ERR_CODE_EXPIRED'
  | 'INSTALL_ERR_CODE_USED'
  | 'INSTALL_ERR_REDIRECT_MISMATCH'
  /** Any other invalid_grant: an unknown code, or one issued to another app. */
  | 'INSTALL_ERR_CODE'
  /** The request was refused as malformed (invalid_request, unsupported_grant_type). */
  | 'INSTALL_ERR_REQUEST'
  /** An answer that is not the documented token answer. */
  | 'INSTALL_ERR_RESPONSE'
  | 'INSTALL_ERR_TRANSPORT'
  | 'INSTALL_ERR_CONFIG';

export class InstallError extends Error {
  readonly code: InstallErrorCode;
  /** The token endpoint's HTTP status, when it answered. */
  readonly status: number | undefined;

  constructor(code: InstallErrorCode, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(`Store install: ${message}`, { cause: options.cause });
    this.name = 'InstallError';
    this.code = code;
    this.status = options.status;
  }
}

const REAUTHORIZE = 'send the store owner through /apps/{app_id}/authorize again for a new code';

/** The error for an OAuth 2 refusal (RFC 6749 5.2) from the token endpoint, by its `error` and what its description says. */
export function refusalError(status: number, error: string, description: string, clientId: string): InstallError {
  const said = `answered ${status} ${error}${description ? ` ("${description}")` : ''}`;
  if (error === 'invalid_client') {
    return new InstallError(
      'INSTALL_ERR_CLIENT',
      `the token endpoint ${said} for client_id ${clientId}. Fix: the client_secret is wrong, or the client_id is not a registered app: copy both from the app's page in the partner panel (on the twin: GET /__twin/apps).`,
      { status },
    );
  }
  if (error === 'invalid_grant' && /redirect/i.test(description)) {
    return new InstallError(
      'INSTALL_ERR_REDIRECT_MISMATCH',
      `the token endpoint ${said}. Fix: pass as redirectUri the redirect URL registered for app ${clientId} (or leave it out).`,
      { status },
    );
  }
  if (error === 'invalid_grant' && /expired/i.test(description)) {
    return new InstallError('INSTALL_ERR_CODE_EXPIRED', `the token endpoint ${said}. Fix: exchange a code as soon as the redirect brings it; ${REAUTHORIZE}.`, {
      status,
    });
  }
  if (error === 'invalid_grant' && /already used|reused|used once/i.test(description)) {
    return new InstallError(
      'INSTALL_ERR_CODE_USED',
      `the token endpoint ${said}. Fix: a code is exchanged once; keep the token of the first exchange, or ${REAUTHORIZE}.`,
      { status },
    );
  }
  if (error === 'invalid_grant') {
    return new InstallError(
      'INSTALL_ERR_CODE',
      `the token endpoint ${said}. Fix: exchange the code from the redirect to this app's redirect URL, with this app's client_id; or ${REAUTHORIZE}.`,
      { status },
    );
  }
  return new InstallError('INSTALL_ERR_REQUEST', `the token endpoint ${said}. Fix: this is the helper's request; report it with the description.`, { status });
}
