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

/** Milliseconds the bucket needs to leak one request (the standard plan, the contract's numbers). */
export const MS_PER_LEAK = 1000 / STORE_CONTRACT.leakPerSecond;

/**
 * Field notes, Rate limit: "Higher plans multiply the limit by 10." The contract's
 * numbers are the standard plan's. ASSUMPTIONS.md: the factor applies to the size
 * and the leak alike, so a full bucket drains in 20 s on every plan and Reset keeps
 * meaning "milliseconds until empty".
 */
export const STORE_PLANS = { standard: 1, plus: 10 } as const;
export type StorePlan = keyof typeof STORE_PLANS;

/** One plan's bucket: what its rate headers say and how fast it leaks. */
export interface PlanBucket {
  readonly plan: StorePlan;
  readonly bucketSize: number;
  readonly leakPerSecond: number;
  readonly msPerLeak: number;
}

export function bucketOfPlan(plan: StorePlan): PlanBucket {
  const factor = STORE_PLANS[plan];
  const leakPerSecond = STORE_CONTRACT.leakPerSecond * factor;
  return { plan, bucketSize: STORE_CONTRACT.bucketSize * factor, leakPerSecond, msPerLeak: 1000 / leakPerSecond };
}

/** Every plan's bucket size, the standard plan's first: the values X-Rate-Limit-Limit may take. */
export const PLAN_BUCKET_SIZES: readonly number[] = (Object.keys(STORE_PLANS) as StorePlan[]).map((plan) => bucketOfPlan(plan).bucketSize);

/** The plan whose bucket size is this X-Rate-Limit-Limit; undefined for a limit no plan has. */
export function planOfLimit(limit: number): StorePlan | undefined {
  return (Object.keys(STORE_PLANS) as StorePlan[]).find((plan) => bucketOfPlan(plan).bucketSize === limit);
}

/** The bucket of the plan whose size is this X-Rate-Limit-Limit; undefined for a limit no plan has. */
export function bucketOfLimit(limit: number): PlanBucket | undefined {
  const plan = planOfLimit(limit);
  return plan === undefined ? undefined : bucketOfPlan(plan);
}

/**
 * The whole requests that fit a bucket of `limit` that drains in `resetMs`: what X-Rate-Limit-Remaining says beside
 * that X-Rate-Limit-Reset (store.ratelimit.headers: Remaining is floor(Limit − level), Reset the level in milliseconds
 * of leaking). The suites check the headers by it and the client's pacer reads a 429's headers by it.
 */
export function requestsFittingAsResetSays(limit: number, resetMs: number): number {
  return Math.max(0, Math.floor(limit - Math.max(0, resetMs) / msPerLeakOfLimit(limit)));
}

/** Milliseconds one request takes to leak from a bucket reporting this limit; a limit no plan has is the standard plan's. */
export function msPerLeakOfLimit(limit: number): number {
  return (bucketOfLimit(limit) ?? bucketOfPlan('standard')).msPerLeak;
}

export function isStorePlan(name: unknown): name is StorePlan {
  return typeof name === 'string' && Object.hasOwn(STORE_PLANS, name);
}
