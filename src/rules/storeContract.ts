/**
 * The numbers and formats of the Store Commerce API contract
 * (../shared/specs/store-commerce-api.md), stated once. The twin enforces them,
 * the client paces by them, the suites assert them.
 */
export const STORE_CONTRACT = {
  /** Limits: "Bucket size 40 requests", "Leak rate 2 requests per second". */
  bucketSize: 40,
  leakPerSecond: 2,
  /** Limits: "Default page size 30", "Maximum page size 200". */
  defaultPerPage: 30,
  maxPerPage: 200,
  /** Versioning: "the version shown is v1". */
  version: 'v1',
  /** Authentication: header named Authentication, value `bearer <ACCESS_TOKEN>`. */
  tokenHeader: 'authentication',
  tokenScheme: 'bearer',
  /** Common request rules 3. */
  jsonContentType: 'application/json; charset=utf-8',
  /** Errors: the 5xx statuses a client retries later. */
  retryableStatuses: [500, 502, 503, 504] as readonly number[],
  /** Link rel values of a collection response. */
  linkRels: ['first', 'prev', 'next', 'last'] as const,
  /** Category: "<timestamp>+0000", ISO 8601 with a numeric offset written without a colon. */
  timestampPattern: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4}$/,
  /** Events: the app state events an application can register for. */
  appEvents: ['app/suspended', 'app/resumed'] as const,
} as const;

export type LinkRel = (typeof STORE_CONTRACT.linkRels)[number];

/** Milliseconds the bucket needs to leak one request. */
export const MS_PER_LEAK = 1000 / STORE_CONTRACT.leakPerSecond;
