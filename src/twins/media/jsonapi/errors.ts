import { MEDIA_CONTRACT } from '../../../rules/mediaContract.ts';

/**
 * JSON:API error objects with the members the real service uses
 * (fixtures/media/errors.json, media.errors.members): `title`, `detail`, `code` and `status` as
 * strings, `source` for validation. Codes are jsonapi-resources' own.
 */
export interface ErrorObject {
  readonly title?: string;
  readonly detail?: string;
  readonly code?: string;
  readonly source?: { readonly pointer: string };
  /** A string in resource errors; an integer in the real service's custom-controller errors. */
  readonly status: string | number;
}

/** jsonapi-resources error codes (its README, "Error codes"). */
export const ERROR_CODES = {
  validation: '100',
  invalidResource: '101',
  filterNotAllowed: '102',
  invalidFieldValue: '103',
  paramNotAllowed: '105',
  paramMissing: '106',
  invalidFilterValue: '107',
  keyNotIncludedInUrl: '110',
  invalidInclude: '112',
  invalidSort: '114',
  invalidLinksObject: '115',
  typeMismatch: '116',
  invalidPageObject: '117',
  invalidPageValue: '118',
  invalidFieldFormat: '119',
  invalidFiltersSyntax: '120',
} as const;

/**
 * An answer the API gives instead of the happy path: thrown anywhere while
 * answering, written in one place.
 */
export class JsonApiError extends Error {
  readonly status: number;
  readonly errors: readonly ErrorObject[];
  readonly headers: Readonly<Record<string, string>>;

  // media.errors.status-agrees: the factories below and in this file give each error object the status of the answer it is sent in.
  constructor(status: number, errors: readonly ErrorObject[], headers: Readonly<Record<string, string>> = {}) {
    super(`Media API answers ${status}: ${errors.map((error) => error.detail ?? error.title ?? '').join('; ')}`);
    this.name = 'JsonApiError';
    this.status = status;
    this.errors = errors;
    this.headers = headers;
  }

  /** One error object in the usual member order: title, detail, code, status. */
  static of(status: number, title: string, detail: string, code: string = String(status)): JsonApiError {
    return new JsonApiError(status, [{ title, detail, code, status: String(status) }]);
  }

  /** The real service's custom-controller shape: `{"status": 400, "detail": "..."}`, integer status. */
  static custom(status: number, detail: string): JsonApiError {
    return new JsonApiError(status, [{ status, detail }]);
  }

  /** media.errors.jsonapi-errors: a top-level errors array, never beside data (media.jsonapi.document-structure). */
  get body(): { errors: readonly ErrorObject[] } {
    return { errors: this.errors };
  }
}

/** media.errors.hidden-404, in the words of media.errors.members: "Record not found". */
export function recordNotFound(id: string): JsonApiError {
  return JsonApiError.of(404, 'Record not found', `The record identified by ${id} could not be found.`);
}

/** media.routes.unknown-route-404 */
export function routeNotFound(): JsonApiError {
  return new JsonApiError(404, [{ status: 404, title: 'Route Not Found' }]);
}

// media.errors.bad-query-400: a non-numeric id (103), a filter not allowed (102), an invalid include (112), an invalid sort (114).
export function invalidFieldValue(field: string, value: string): JsonApiError {
  return JsonApiError.of(400, 'Invalid field value', `${value} is not a valid value for ${field}.`, ERROR_CODES.invalidFieldValue);
}

export function filterNotAllowed(name: string): JsonApiError {
  return JsonApiError.of(400, 'Filter not allowed', `${name} is not allowed.`, ERROR_CODES.filterNotAllowed);
}

export function invalidFilterValue(filter: string, value: string): JsonApiError {
  return JsonApiError.of(400, 'Invalid filter value', `${value} is not a valid value for ${filter}.`, ERROR_CODES.invalidFilterValue);
}

/** media.jsonapi.unsupported-query-400: an include path the twin cannot identify is a 400 (JSON:API's MUST). */
export function invalidInclude(relationship: string, type: string): JsonApiError {
  return JsonApiError.of(400, 'Invalid field', `${relationship} is not a valid relationship of ${type}`, ERROR_CODES.invalidInclude);
}

/** A bad sparse field: the brief keeps code 112 for it too (see ASSUMPTIONS.md). */
export function invalidField(field: string, type: string): JsonApiError {
  return JsonApiError.of(400, 'Invalid field', `${field} is not a valid field for ${type}.`, ERROR_CODES.invalidInclude);
}

export function invalidResource(type: string): JsonApiError {
  return JsonApiError.of(400, 'Invalid resource', `${type} is not a valid resource.`, ERROR_CODES.invalidResource);
}

/** media.jsonapi.unsupported-query-400: a sort the twin does not support is a 400 (JSON:API's MUST). */
export function invalidSort(criteria: string, type: string): JsonApiError {
  return JsonApiError.of(400, 'Invalid sort criteria', `${criteria} is not a valid sort criteria for ${type}`, ERROR_CODES.invalidSort);
}

/** media.pagination.limit-bounds-400 */
export function invalidPageValue(detail: string): JsonApiError {
  return JsonApiError.of(400, 'Invalid page value', detail, ERROR_CODES.invalidPageValue);
}

export function paramNotAllowed(param: string): JsonApiError {
  return JsonApiError.of(400, 'Param not allowed', `${param} is not allowed.`, ERROR_CODES.paramNotAllowed);
}

export function paramMissing(param: string): JsonApiError {
  return JsonApiError.of(400, 'Missing Parameter', `The required parameter, ${param}, is missing.`, ERROR_CODES.paramMissing);
}

export function badRequest(detail: string): JsonApiError {
  return JsonApiError.of(400, 'Bad Request', detail, '400');
}

export type WriteAction = 'create' | 'update' | 'destroy';

/** Pundit's 403: `Create Forbidden` / `Update Forbidden` / `Destroy Forbidden` (media.writes.forbidden-403). */
export function forbidden(action: WriteAction, what: string): JsonApiError {
  const title = `${action[0]?.toUpperCase() ?? ''}${action.slice(1)} Forbidden`;
  return JsonApiError.of(403, title, `You don't have permission to ${action} this ${what}.`, '403');
}

/** An expired or revoked token (media.auth.oauth-password-refresh-revoke); an unknown one is anonymous. */
export function invalidToken(): JsonApiError {
  return new JsonApiError(401, [{ title: 'Invalid token', status: '401' }]);
}

/** Signed-in-only custom routes, as the real service's `authenticate_user!` answers. */
export function mustBeLoggedIn(): JsonApiError {
  return JsonApiError.custom(403, 'Must be logged in');
}

export function notAcceptable(accept: string): JsonApiError {
  return JsonApiError.of(
    406,
    'Not acceptable',
    `All requests must use the '${MEDIA_CONTRACT.mediaType}' Accept without media type parameters. This request specified '${accept}'.`,
  );
}

/** media.writes.media-type-415 */
export function unsupportedMediaType(contentType: string): JsonApiError {
  return JsonApiError.of(
    415,
    'Unsupported media type',
    `All requests that create or update must use the '${MEDIA_CONTRACT.mediaType}' Content-Type. This request specified '${contentType}'.`,
  );
}

/** One 422 issue: `field` is the member name the client wrote (attribute or relationship). */
export interface ValidationIssue {
  readonly field: string;
  readonly message: string;
  readonly relationship?: boolean;
}

/** 422 with one error object per issue (code 100, title = message, detail `<field> - <message>`): media.writes.validation-422. */
export function validationFailed(issues: readonly ValidationIssue[]): JsonApiError {
  return new JsonApiError(
    422,
    issues.map((issue) => ({
      title: issue.message,
      detail: `${issue.field} - ${issue.message}`,
      code: ERROR_CODES.validation,
      source: { pointer: `/data/${issue.relationship ? 'relationships' : 'attributes'}/${issue.field}` },
      status: '422',
    })),
  );
}
