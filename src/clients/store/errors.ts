/**
 * Errors of the Store client. Each class has a stable `code` (tests and reports
 * match on it, not on wording) and a message that says who speaks, what
 * happened, and the fix. URLs and bodies in them are already redacted.
 */
import * as core from '../../http/ClientError.ts';
import { MS_PER_LEAK, STORE_CONTRACT } from '../../rules/storeContract.ts';
import type { RateHeaders } from './types.ts';

/** The store client's wording: STORE_ERR_* codes, "Store API answered …". */
const STORE: core.ErrorWording = { prefix: 'STORE', api: 'Store', contract: 'no root element, collections are JSON arrays' };

/** Any error of the Store client, whichever kind: `error instanceof StoreClientError` (its brand is `api`, as undici's classes test theirs). */
export abstract class StoreClientError extends core.ClientError {
  static override [Symbol.hasInstance](value: unknown): value is core.ClientError {
    return value instanceof core.ClientError && value.api === STORE.prefix;
  }
}

/** The client was constructed with options it cannot work with. */
export class StoreConfigError extends core.ClientConfigError {
  constructor(message: string) {
    super(STORE, 'STORE_ERR_CONFIG', message);
  }
}

/** A request the client refuses to send (e.g. the token to a foreign origin). */
export class StoreRequestError extends core.ClientRequestError {
  constructor(message: string) {
    super(STORE, 'STORE_ERR_INVALID_REQUEST', message);
  }
}

/** No HTTP answer at all, after the retries. */
export class StoreTransportError extends core.ClientTransportError {
  constructor(details: core.TransportFailure) {
    super(STORE, 'STORE_ERR_TRANSPORT', details);
  }
}

/** An answer the client cannot read as the contract says. */
export class StoreInvalidResponseError extends core.ClientInvalidResponseError {
  constructor(details: core.UnreadableAnswer) {
    super(STORE, 'STORE_ERR_INVALID_RESPONSE', details);
  }
}

/** Every code the Store client's errors carry: the core's kinds, then its own. */
export type StoreErrorCode =
  | 'STORE_ERR_CONFIG'
  | 'STORE_ERR_INVALID_REQUEST'
  | 'STORE_ERR_TRANSPORT'
  | 'STORE_ERR_INVALID_RESPONSE'
  | 'STORE_ERR_API'
  | 'STORE_ERR_PAYMENT_REQUIRED'
  | 'STORE_ERR_VALIDATION'
  | 'STORE_ERR_RATE_LIMITED'
  | 'STORE_ERR_NOT_FOUND';

/** What every HTTP error carries; bodies and URLs are redacted before they get here. */
export interface ApiErrorDetails extends core.RefusedAnswer {
  /** The parsed JSON body, or the text when it is not JSON. */
  body: unknown;
  rate?: RateHeaders;
}

/** The Store API answered with a status that is not 2xx. */
export class StoreApiError extends core.ClientApiError {
  /** The body's description (or error) member, when there is one. */
  readonly description: string | undefined;

  constructor(details: ApiErrorDetails, explained: [meaning: string, fix: string] = explain(details), code: StoreErrorCode = 'STORE_ERR_API') {
    super(STORE, code, details, StoreApiError.compose(details, ...explained));
    this.description = descriptionOf(details.body);
  }

  /** `Store API answered 404 Not Found to GET <url> ("why"). <what it means> Fix: <fix>` */
  static compose(details: ApiErrorDetails, meaning: string, fix: string): string {
    const description = descriptionOf(details.body);
    return core.refusalMessage(STORE, details, description ? ` ("${description}")` : '', meaning, fix);
  }
}

/** 402: the store's API access is suspended for lack of payment (store.client.payment-required-message). */
export class PaymentRequiredError extends StoreApiError {
  constructor(details: ApiErrorDetails) {
    super(
      details,
      [
        "The store's API access is suspended for lack of payment: the store's subscription was not renewed or the app's recurring charge was not paid. Every API call answers 402 until then, and webhooks are not called.",
        "payment must be resumed (renew the store's subscription or pay the app's charge), then retry; after the app/resumed event, resync whatever the webhooks missed.",
      ],
      'STORE_ERR_PAYMENT_REQUIRED',
    );
  }
}

/** 422: the fields the provider refused, with their messages (store.client.validation-error-fields). */
export class ValidationError extends StoreApiError {
  /** Field name to messages: the body's members whose values are string arrays. */
  readonly fields: Record<string, string[]>;

  constructor(details: ApiErrorDetails) {
    const fields = validationFields(details.body);
    const listed = Object.entries(fields).map(([field, messages]) => `${field}: ${messages.join('; ')}`);
    super(
      details,
      [
        listed.length > 0 ? `Invalid fields: ${listed.join(', ')}.` : 'The request was refused as unprocessable.',
        listed.length > 0 ? 'correct the listed fields and send the request again.' : 'read the description; it names the limit or rule that was hit.',
      ],
      'STORE_ERR_VALIDATION',
    );
    this.fields = fields;
  }
}

/** 429 that outlasted the retry budget (store.client.paces-to-bucket). */
export class RateLimitError extends StoreApiError {
  readonly rate: RateHeaders | undefined;

  constructor(details: ApiErrorDetails) {
    super(
      details,
      [
        `The rate limit (a bucket of ${STORE_CONTRACT.bucketSize} requests leaking ${STORE_CONTRACT.leakPerSecond}/s per store and app) was still exceeded after ${details.retries} retries.`,
        `keep pacing on and use one client per store and token so its pacer sees every request; if other programs share the token, wait about ${MS_PER_LEAK} ms per request they send.`,
      ],
      'STORE_ERR_RATE_LIMITED',
    );
    this.rate = details.rate;
  }
}

/** 404: the resource (or the page) does not exist. */
export class NotFoundError extends StoreApiError {
  constructor(details: ApiErrorDetails) {
    super(
      details,
      ['The resource does not exist in this store.', 'check the id and the store id in the base URL; it may have been deleted.'],
      'STORE_ERR_NOT_FOUND',
    );
  }
}

/** The statuses with a class of their own; any other is a StoreApiError. */
const BY_STATUS: Readonly<Record<number, typeof StoreApiError>> = { 402: PaymentRequiredError, 404: NotFoundError, 422: ValidationError, 429: RateLimitError };

/** The typed error for a non-2xx answer. */
export function apiErrorFor(details: ApiErrorDetails): StoreApiError {
  return new (BY_STATUS[details.status] ?? StoreApiError)(details);
}

/**
 * The field messages of a 422 body: `{"name":["can't be blank"]}` and the mixed
 * `{"code":422,...,"price":["..."]}` alike (store.errors.validation-422).
 */
export function validationFields(body: unknown): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return fields;
  for (const [key, value] of Object.entries(body)) {
    if (Array.isArray(value) && value.length > 0 && value.every((m) => typeof m === 'string')) fields[key] = value;
  }
  return fields;
}

function descriptionOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim() ? body.trim().slice(0, 200) : undefined;
  if (body === null || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  // Not `message`: it only repeats the reason phrase the message already shows.
  for (const key of ['description', 'error']) {
    const value = record[key];
    if (typeof value === 'string' && value) return value;
  }
  return undefined;
}

/** What a status means and what to do, for statuses without their own class. */
function explain(details: ApiErrorDetails): [meaning: string, fix: string] {
  const { status, retries } = details;
  if (STORE_CONTRACT.retryableStatuses.includes(status)) {
    return [
      `Service trouble on the provider's side; the client retried ${retries} time(s) with back-off.`,
      'try again later; raise retry.maxRetries if the trouble is usually brief.',
    ];
  }
  switch (status) {
    case 400:
      return [
        'The provider refused the request as malformed.',
        'send valid JSON and a User-Agent naming the app and a contact (store.http.user-agent-required).',
      ];
    case 401:
      return [
        'The access token was refused.',
        'check the token for this store; it is sent as "Authentication: bearer <token>" and a new install replaces the old token.',
      ];
    case 403:
      return ['The token lacks the rights for this call.', 'grant the app the needed scope and reinstall it in the store.'];
    case 409:
      return ['The provider reports a conflict, e.g. too many concurrent updates.', 'send the updates one after another and retry.'];
    case 411:
      return ['The provider needs a length.', 'send Content-Length: 0 on a PUT without a body (store.http.put-empty-body-content-length).'];
    case 415:
      return ["The provider did not accept the body's media type.", `send bodies with Content-Type: ${STORE_CONTRACT.jsonContentType}.`];
    default:
      return ['The request failed.', 'read the description and the status; the exchange record shows the full request.'];
  }
}
