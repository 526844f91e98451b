/**
 * Errors of the Media client. Each class has a stable `code` (tests and reports
 * match on it, not on wording) and a message that says who speaks, what
 * happened (the first JSON:API error's title and detail), and the fix. URLs and
 * bodies in them are already redacted.
 */
import * as core from '../../http/ClientError.ts';
import { MEDIA_CONTRACT } from '../../rules/mediaContract.ts';
import { isRecord } from './toResource.ts';
import type { JsonApiError } from './types.ts';

/** The media client's wording: MEDIA_ERR_* codes, "Media API answered …". */
const MEDIA: core.ErrorWording = { prefix: 'MEDIA', api: 'Media', contract: 'JSON:API resource structures, spec: Endpoints' };

/** Any error of the Media client, whichever kind: `error instanceof MediaClientError` (its brand is `api`, as undici's classes test theirs). */
export abstract class MediaClientError extends core.ClientError {
  static override [Symbol.hasInstance](value: unknown): value is core.ClientError {
    return value instanceof core.ClientError && value.api === MEDIA.prefix;
  }
}

/** The client was constructed with options it cannot work with. */
export class MediaConfigError extends core.ClientConfigError {
  constructor(message: string) {
    super(MEDIA, 'MEDIA_ERR_CONFIG', message);
  }
}

/** A request the client refuses to send (e.g. the token to a foreign origin). */
export class MediaRequestError extends core.ClientRequestError {
  constructor(message: string) {
    super(MEDIA, 'MEDIA_ERR_INVALID_REQUEST', message);
  }
}

/** No HTTP answer at all, after the retries. */
export class MediaTransportError extends core.ClientTransportError {
  constructor(details: core.TransportFailure) {
    super(MEDIA, 'MEDIA_ERR_TRANSPORT', details);
  }
}

/** An answer the client cannot read as the contract says. */
export class MediaInvalidResponseError extends core.ClientInvalidResponseError {
  constructor(details: core.UnreadableAnswer) {
    super(MEDIA, 'MEDIA_ERR_INVALID_RESPONSE', details);
  }
}

/** Every code the Media client's errors carry: the core's kinds, then its own. */
export type MediaErrorCode =
  | 'MEDIA_ERR_CONFIG'
  | 'MEDIA_ERR_INVALID_REQUEST'
  | 'MEDIA_ERR_TRANSPORT'
  | 'MEDIA_ERR_INVALID_RESPONSE'
  | 'MEDIA_ERR_API'
  | 'MEDIA_ERR_NOT_FOUND'
  | 'MEDIA_ERR_VALIDATION'
  | 'MEDIA_ERR_FORBIDDEN'
  | 'MEDIA_ERR_UNAUTHORIZED'
  | 'MEDIA_ERR_OAUTH';

/** What every HTTP error carries; the text and URL are redacted before they get here. */
export interface ApiErrorDetails extends core.RefusedAnswer {
  /** The answer's body text, redacted. */
  text: string;
  /** The Retry-After header of the answer, when it had one. */
  retryAfter?: string;
}

/** The Media API answered with a status that is not 2xx. */
export class MediaApiError extends core.ClientApiError {
  /** The JSON:API error objects of the answer; empty when the body is not an error document. */
  readonly errors: JsonApiError[];
  /** The Retry-After header of the answer, when it had one (a throttled or unavailable service). */
  readonly retryAfter: string | undefined;

  constructor(details: ApiErrorDetails, explained?: { meaning: string; fix: string }, code: MediaErrorCode = 'MEDIA_ERR_API') {
    const body = core.bodyOf(details.text);
    const errors = errorObjectsOf(body);
    const { meaning, fix } = explained ?? explain(details);
    super(MEDIA, code, { ...details, body }, MediaApiError.compose(details, body, errors, meaning, fix));
    this.errors = errors;
    this.retryAfter = details.retryAfter;
  }

  /** `Media API answered 404 Not Found to GET <url>: "Record not found: The record ...". <meaning> Fix: <fix>` */
  static compose(details: ApiErrorDetails, body: unknown, errors: readonly JsonApiError[], meaning: string, fix: string): string {
    return core.refusalMessage(MEDIA, details, said(body, errors), meaning, fix);
  }
}

/** 404: no such record, a hidden adult title, or no such route. */
export class NotFoundError extends MediaApiError {
  constructor(details: ApiErrorDetails) {
    const route = errorObjectsOf(core.bodyOf(details.text)).some((e) => e.title === 'Route Not Found');
    super(
      details,
      route
        ? { meaning: 'No route of the service matches this method and path.', fix: `check the path; every route is under ${MEDIA_CONTRACT.edgePrefix}.` }
        : {
            meaning: 'The record does not exist, or it is hidden from this caller: adult-flagged media answer 404 to anonymous requests.',
            fix: 'check the collection and the id; for adult media, sign in as a user who allows adult content.',
          },
      'MEDIA_ERR_NOT_FOUND',
    );
  }
}

/** 422: the attributes the service refused, by JSON pointer (field notes: Errors, 422 validation). */
export class ValidationError extends MediaApiError {
  /** `source.pointer` (e.g. /data/attributes/animeId) to messages; '' for errors without one. */
  readonly pointers: Record<string, string[]>;

  constructor(details: ApiErrorDetails) {
    const pointers = validationPointers(errorObjectsOf(core.bodyOf(details.text)));
    const listed = Object.entries(pointers).map(([pointer, messages]) => `${pointer || '(document)'}: ${messages.join('; ')}`);
    super(
      details,
      {
        meaning: listed.length > 0 ? `Refused: ${listed.join(', ')}.` : 'The request was refused as invalid.',
        fix: 'correct the named attributes and send the request again.',
      },
      'MEDIA_ERR_VALIDATION',
    );
    this.pointers = pointers;
  }
}

/** 403: the signed-in user may not do this (Pundit). */
export class ForbiddenError extends MediaApiError {
  constructor(details: ApiErrorDetails) {
    super(
      details,
      {
        meaning: 'The caller is not allowed to do this to this resource.',
        fix: "act as the resource's owner (or a user with the needed role); anonymous callers cannot write.",
      },
      'MEDIA_ERR_FORBIDDEN',
    );
  }
}

/** 401: the token is expired or revoked (an unknown token is treated as anonymous, not refused). */
export class UnauthorizedError extends MediaApiError {
  constructor(details: ApiErrorDetails) {
    super(
      details,
      {
        meaning: 'The access token is expired or revoked.',
        fix: 'sign in again: client.token({ username, password }), or client.token({ refreshToken }) with a refresh token that is still valid.',
      },
      'MEDIA_ERR_UNAUTHORIZED',
    );
  }
}

/** The OAuth token or revoke endpoint refused: `{error, error_description}` (RFC 6749 §5.2). */
export class OAuthError extends MediaApiError {
  /** The OAuth error code, e.g. invalid_grant; undefined when the body has none. */
  readonly error: string | undefined;
  readonly errorDescription: string | undefined;

  constructor(details: ApiErrorDetails) {
    const body = core.bodyOf(details.text);
    const error = isRecord(body) && typeof body.error === 'string' ? body.error : undefined;
    const errorDescription = isRecord(body) && typeof body.error_description === 'string' ? body.error_description : undefined;
    super(details, explainOAuth(error, details), 'MEDIA_ERR_OAUTH');
    this.error = error;
    this.errorDescription = errorDescription;
  }
}

/** The statuses of an /api/edge route with a class of their own; any other is a MediaApiError. */
const BY_STATUS: Readonly<Record<number, typeof MediaApiError>> = { 401: UnauthorizedError, 403: ForbiddenError, 404: NotFoundError, 422: ValidationError };

/** The typed error for a non-2xx answer of an /api/edge route. */
export function apiErrorFor(details: ApiErrorDetails): MediaApiError {
  return new (BY_STATUS[details.status] ?? MediaApiError)(details);
}

/** The JSON:API error objects of a body: only well-formed members are kept. */
export function errorObjectsOf(body: unknown): JsonApiError[] {
  if (!isRecord(body) || !Array.isArray(body.errors)) return [];
  return body.errors.filter(isRecord).map((raw) => {
    const error: JsonApiError = {};
    if (typeof raw.id === 'string') error.id = raw.id;
    if (typeof raw.status === 'string' || typeof raw.status === 'number') error.status = raw.status;
    for (const key of ['code', 'title', 'detail'] as const) {
      const value = raw[key];
      if (typeof value === 'string') error[key] = value;
      else if (typeof value === 'number') error[key] = String(value);
    }
    if (isRecord(raw.source)) {
      const source: NonNullable<JsonApiError['source']> = {};
      for (const key of ['pointer', 'parameter', 'header'] as const) {
        const value = raw.source[key];
        if (typeof value === 'string') source[key] = value;
      }
      error.source = source;
    }
    if (isRecord(raw.meta)) error.meta = raw.meta;
    return error;
  });
}

/** Messages by pointer: the title is the message (the detail repeats it after the field name). */
export function validationPointers(errors: readonly JsonApiError[]): Record<string, string[]> {
  const pointers: Record<string, string[]> = {};
  for (const error of errors) {
    const pointer = error.source?.pointer ?? error.source?.parameter ?? '';
    const message = error.title ?? error.detail ?? error.code ?? 'invalid';
    (pointers[pointer] ??= []).push(message);
  }
  return pointers;
}

/** ` ("title: detail")` with a count of further errors; an OAuth error and its description; or the text of a body that is not JSON. */
function said(body: unknown, errors: readonly JsonApiError[]): string {
  const first = errors[0];
  if (first) {
    const what = [first.title, first.detail].filter((s) => s !== undefined && s !== '').join(': ') || (first.code ?? '');
    const more = errors.length > 1 ? ` and ${errors.length - 1} more error(s)` : '';
    return what ? ` ("${what}"${more})` : more;
  }
  // The OAuth endpoints' own shape.
  if (isRecord(body) && typeof body.error === 'string') {
    const description = typeof body.error_description === 'string' ? `: ${body.error_description}` : '';
    return ` ("${body.error}${description}")`;
  }
  if (typeof body === 'string' && body.trim() !== '') return ` ("${body.trim().slice(0, 200)}")`;
  return '';
}

/** What a status means and what to do, for statuses without their own class. */
function explain({ status, retries, retryAfter }: ApiErrorDetails): { meaning: string; fix: string } {
  // A Retry-After longer than retry.maxDelayMs is not waited out: the caller decides.
  const asked = retryAfter === undefined ? '' : ` The service asked to wait (Retry-After: ${retryAfter}).`;
  if (status === 429) {
    return {
      meaning: `The service throttled this kind of request ("Retry later"); the client retried ${retries} time(s), honouring Retry-After.${asked}`,
      fix: 'slow down writes of this kind (some are throttled per token), then try again.',
    };
  }
  if (status >= 500) {
    return {
      meaning: `Service trouble on the provider's side; the client retried ${retries} time(s) with back-off.${asked}`,
      fix: 'try again later. A 500 on an anonymous library entry that includes an adult anime is a known defect of the real service (spec: Errors), not a contract.',
    };
  }
  switch (status) {
    case 400:
      return {
        meaning: 'The service refused the query or the body.',
        fix: `read the detail, it names the parameter: include, filter, sort and fields take the resource's camelCase names, page[limit] is at most ${MEDIA_CONTRACT.maxLimit} for most collections, and library entries need a filter.`,
      };
    case 406:
      return { meaning: 'The service cannot answer in the media type asked for.', fix: `send Accept: ${MEDIA_CONTRACT.mediaType}.` };
    case 415:
      return { meaning: "The service did not accept the body's media type.", fix: `send writes with Content-Type: ${MEDIA_CONTRACT.mediaType}.` };
    default:
      return { meaning: 'The request failed.', fix: 'read the errors and the status; the exchange record shows the full request.' };
  }
}

function explainOAuth(error: string | undefined, details: ApiErrorDetails): { meaning: string; fix: string } {
  switch (error) {
    case 'invalid_grant':
      return {
        meaning: 'The OAuth token endpoint refused the grant: wrong username or password, or a refresh token that is expired or revoked.',
        fix: 'check the credentials, or sign in again with the password grant for a new refresh token.',
      };
    case 'invalid_client':
    case 'unauthorized_client':
      return { meaning: 'The OAuth token endpoint did not accept the client.', fix: 'check the clientId (and clientSecret) options of the MediaClient.' };
    case 'invalid_request':
    case 'unsupported_grant_type':
      return { meaning: 'The OAuth token endpoint could not read the request.', fix: 'use client.token() with a password or refresh grant.' };
    default:
      return error === undefined ? explain(details) : { meaning: `The OAuth endpoint answered ${error}.`, fix: 'read error_description.' };
  }
}
