/**
 * Redaction of recordings, at record time: nothing secret is ever written to
 * a cassette. Unlike the reports' `[REDACTED]`, a secret here becomes a
 * stand-in that keeps its shape and is the same for the same value
 * (`redacted-<8 hex of its SHA-256>`, an e-mail `redacted-<hash>@example.invalid`),
 * so a replay that sends the stand-in matches what was recorded, and two
 * requests with different credentials stay different.
 *
 * What is replaced: every credential header value (Authentication,
 * Authorization, cookies, ...; the scheme is kept), credential members of JSON
 * and form bodies (access_token, password, ...), e-mail addresses, the
 * configured secrets wherever they appear, and anything matching the API's
 * `redact` patterns (contracts/<api>/normalisation.json) or RECORD_REDACT_PATTERNS.
 */
import { createHash } from 'node:crypto';
import { CREDENTIAL_PARAM, isCredentialHeader, SCHEME_AND_CREDENTIALS, writtenForms } from '../http/redact.ts';
import type { Interaction } from './cassette.ts';
import { processEnv } from '../config/env.ts';

const STAND_IN = /^redacted-[0-9a-f]{8}(@example\.invalid)?$/;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

export interface RecordingRedaction {
  /** Secret values from the environment (tokens, passwords): replaced wherever they appear. */
  readonly secrets: readonly string[];
  /** Further patterns (regular expressions) whose matches are secrets. */
  readonly patterns: readonly RegExp[];
}

/** The stand-in of a secret value: the same value always gets the same stand-in. */
export function standIn(value: string): string {
  if (STAND_IN.test(value)) return value;
  const hash = createHash('sha256').update(value).digest('hex').slice(0, 8);
  return value.includes('@') && new RegExp(`^${EMAIL.source}$`).test(value) ? `redacted-${hash}@example.invalid` : `redacted-${hash}`;
}

/** RECORD_REDACT_PATTERNS: regular expressions, one per line; a bad one is an error that names it. */
export function patternsFromEnv(env: Readonly<Record<string, string | undefined>> = processEnv()): RegExp[] {
  const raw = env.RECORD_REDACT_PATTERNS ?? '';
  return raw
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((source) => {
      try {
        return new RegExp(source, 'g');
      } catch (error) {
        throw new Error(
          `RECORD_REDACT_PATTERNS holds "${source}", which is not a regular expression (${(error as Error).message}). Give one pattern per line.`,
          {
            cause: error,
          },
        );
      }
    });
}

/** The shortest secret a recording is redacted of (and the leak scan looks for): shorter ones would match ordinary text. */
export const MIN_RECORDED_SECRET = 4;

/** Text with every secret, configured pattern and e-mail address replaced by its stand-in. */
export function redactRecordedText(text: string, redaction: RecordingRedaction): string {
  let out = text;
  const values = [...new Set(redaction.secrets.filter((s) => s.length >= MIN_RECORDED_SECRET))].sort((a, b) => b.length - a.length);
  for (const secret of values) for (const form of writtenForms(secret)) out = out.split(form).join(standIn(secret));
  for (const pattern of redaction.patterns)
    out = out.replace(new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`), (m) => standIn(m));
  return out.replace(EMAIL, (m) => (STAND_IN.test(m) ? m : standIn(m)));
}

function redactHeaderValue(name: string, value: string, redaction: RecordingRedaction): string {
  if (!isCredentialHeader(name)) return redactRecordedText(value, redaction);
  if (name === 'cookie' || name === 'set-cookie') {
    // Cookie names stay (they say which session), values go.
    return value.replace(/(^|[;,]\s*)([^=;,\s]+)=([^;,]*)/g, (_m, lead: string, key: string, v: string) =>
      ['path', 'domain', 'expires', 'max-age', 'samesite'].includes(key.toLowerCase()) ? `${lead}${key}=${v}` : `${lead}${key}=${standIn(v)}`,
    );
  }
  const scheme = SCHEME_AND_CREDENTIALS.exec(value);
  return scheme ? `${scheme[1]} ${standIn(scheme[2]!)}` : standIn(value);
}

/** A JSON value with credential members and secrets in strings replaced. */
function redactJson(value: unknown, redaction: RecordingRedaction): unknown {
  if (typeof value === 'string') return redactRecordedText(value, redaction);
  if (Array.isArray(value)) return value.map((v) => redactJson(v, redaction));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, CREDENTIAL_PARAM.test(k) && typeof v === 'string' ? standIn(v) : redactJson(v, redaction)]),
    );
  }
  return value;
}

/** A form-encoded or query string with credential parameters replaced. */
function redactForm(text: string, redaction: RecordingRedaction): string {
  return redactRecordedText(
    text.replace(/(^|[?&])([^=&?]+)=([^&]*)/g, (whole, lead: string, key: string, v: string) =>
      CREDENTIAL_PARAM.test(decodeURIComponent(key)) ? `${lead}${key}=${standIn(decodeURIComponent(v))}` : whole,
    ),
    redaction,
  );
}

function redactBody(body: unknown, redaction: RecordingRedaction): unknown {
  if (typeof body === 'string') return /^[^=&\s]+=/.test(body) ? redactForm(body, redaction) : redactRecordedText(body, redaction);
  return redactJson(body, redaction);
}

/** The interaction with every secret replaced by its stand-in. Applying it twice changes nothing. */
export function redactInteraction(interaction: Interaction, redaction: RecordingRedaction): Interaction {
  const headers = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).map(([n, v]) => [n, redactHeaderValue(n, v, redaction)]));
  const out: Interaction = {
    scope: interaction.scope,
    method: interaction.method,
    path: redactForm(interaction.path, redaction),
    reqheaders: headers(interaction.reqheaders),
    status: interaction.status,
    rawHeaders: headers(interaction.rawHeaders),
  };
  if (interaction.body !== undefined) out.body = redactBody(interaction.body, redaction);
  if (interaction.response !== undefined) out.response = redactBody(interaction.response, redaction);
  return out;
}
