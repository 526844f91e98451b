/**
 * Network failures as the clients see them: one code and one message out of
 * undici's wrapped errors, and which codes are worth another attempt.
 */

/** Network failures worth another attempt; anything else is a bug or a setup error. */
const RETRYABLE_NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

export function isRetryableNetworkCode(code: string): boolean {
  return RETRYABLE_NETWORK_CODES.has(code);
}

/** The code and message of a thrown network error (not yet redacted). */
export function networkErrorOf(error: unknown): { code: string; message: string } {
  const err = error as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } } | undefined;
  // undici wraps socket errors: the useful code is often on the cause.
  const code = [err?.cause?.code, err?.code].find((c): c is string => typeof c === 'string' && c !== 'UND_ERR') ?? 'UNKNOWN';
  const message = [err?.message, err?.cause?.message].filter((m): m is string => typeof m === 'string' && m !== '').join(': ') || String(error);
  return { code, message };
}
