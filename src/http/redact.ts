/**
 * Redaction of secrets from what the harness shows people: exchange records,
 * error messages, reports. Shared by every client and reporter so that one
 * place decides what a secret looks like.
 *
 * Three kinds of secret are recognised:
 * - credential headers (Authentication, Authorization, cookies, API keys);
 * - credential parameters in URLs, form bodies and JSON bodies (access_token, client_secret, ...);
 * - any configured secret value, wherever it appears (raw, URL-encoded or JSON-escaped).
 */

export const REDACTED = '[REDACTED]';

/** Header names whose whole value is a credential. */
const CREDENTIAL_HEADERS = new Set([
  'authentication', // the Store API's token header
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
]);
/** Other header names that, by their name, carry a credential. */
const CREDENTIAL_HEADER_NAME = /(token|secret|password|api[-_]?key)/i;
/** Parameter and JSON member names that carry a credential. */
export const CREDENTIAL_PARAM = /^(access_token|refresh_token|id_token|token|client_secret|secret|password|api_key|apikey)$/i;
/** `Scheme credentials` of an Authorization-style value: the scheme is kept, it helps a reader. */
export const SCHEME_AND_CREDENTIALS = /^([A-Za-z][A-Za-z0-9-]*)\s+(\S.*)$/;

export function isCredentialHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return CREDENTIAL_HEADERS.has(lower) || CREDENTIAL_HEADER_NAME.test(lower);
}

/**
 * A copy of the header map with credentials and configured secrets replaced.
 * Names keep their case; array values (e.g. set-cookie) are joined with ", ".
 */
export function redactHeaders(
  headers: Readonly<Record<string, string | readonly string[] | number | undefined>>,
  secrets: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(', ') : String(raw);
    if (isCredentialHeader(name)) {
      // "bearer [REDACTED]" still shows that the scheme was right (store.auth.authentication-header).
      const scheme = SCHEME_AND_CREDENTIALS.exec(value)?.[1];
      const lower = name.toLowerCase();
      out[name] = scheme && (lower === 'authentication' || lower.endsWith('authorization')) ? `${scheme} ${REDACTED}` : REDACTED;
    } else {
      out[name] = redactText(value, secrets);
    }
  }
  return out;
}

/** The URL with user info, credential query parameters and configured secrets replaced. */
export function redactUrl(url: string, secrets: readonly string[] = []): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return redactText(url, secrets);
  }
  if (parsed.username) parsed.username = REDACTED;
  if (parsed.password) parsed.password = REDACTED;
  // Rewritten by hand so untouched parameters keep their exact encoding.
  if (parsed.search) parsed.search = redactFormEncoded(parsed.search.slice(1));
  return redactText(parsed.toString(), secrets);
}

/** The forms a secret may be written in: raw, URL-encoded and JSON-escaped, each once. */
export function writtenForms(secret: string): string[] {
  return [...new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)])];
}

/**
 * Body or message text with configured secrets, credential members of JSON,
 * credential form parameters and `bearer <token>` credentials replaced.
 */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  // Longest first, so a secret that contains another is replaced whole.
  const values = [...new Set(secrets.filter((s) => s.length > 0))].sort((a, b) => b.length - a.length);
  for (const secret of values) {
    for (const form of writtenForms(secret)) out = out.split(form).join(REDACTED);
  }
  out = out.replace(/("([A-Za-z_]+)"\s*:\s*)"(?:[^"\\]|\\.)*"/g, (whole, prefix: string, key: string) =>
    CREDENTIAL_PARAM.test(key) ? `${prefix}"${REDACTED}"` : whole,
  );
  out = out.replace(/(^|[?&\s])([A-Za-z_]+)=([^&\s"]+)/g, (whole, lead: string, key: string) =>
    CREDENTIAL_PARAM.test(key) ? `${lead}${key}=${REDACTED}` : whole,
  );
  // A token echoed in a body or message as "bearer <token>".
  out = out.replace(/\b(bearer)\s+(?!\[REDACTED\])[A-Za-z0-9\-._~+/]+=*/gi, `$1 ${REDACTED}`);
  return out;
}

function redactFormEncoded(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const key = safeDecode(pair.slice(0, eq));
      return CREDENTIAL_PARAM.test(key) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    })
    .join('&');
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/** The three redactors together, for callers that pass them around as one. */
export const redact = {
  headers: redactHeaders,
  url: redactUrl,
  text: redactText,
} as const;
