/**
 * The reference model of the documented rate limit (store.ratelimit.*): one
 * leaky bucket per store and token, 40 requests deep, leaking 2 per second (or
 * a higher plan's multiple of both); a request that does not fit is refused
 * with 429 and not counted. Kept apart
 * from the twin's LeakyBucket on purpose: the properties compare the two.
 *
 * The level is held in milliseconds of draining (the unit of
 * X-Rate-Limit-Reset), so a request is 500 ms (50 on the plus plan) and the
 * arithmetic is exact.
 */
import { bucketOfPlan, type PlanBucket } from '../../src/rules/storeContract.ts';

const fullMs = (plan: PlanBucket): number => plan.bucketSize * plan.msPerLeak;

/** What the rate headers should say after one request. */
export interface BucketPrediction {
  readonly admitted: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Milliseconds until the bucket is empty. */
  readonly resetMs: number;
}

export class ModelBucket {
  #drainMs = 0;
  #at: number;
  /** Time of the last request on this bucket: a mismatch after a pause points at the leak rate. */
  lastRequestAt: number | undefined;
  /** How far below drainAt the true level may be: the round trip of the answer the model last took its level from. */
  uncertaintyMs = 0;

  readonly plan: PlanBucket;

  constructor(now: number, drainMs = 0, uncertaintyMs = 0, plan: PlanBucket = bucketOfPlan('standard')) {
    this.plan = plan;
    this.#at = now;
    this.#drainMs = drainMs;
    this.uncertaintyMs = uncertaintyMs;
  }

  /** Milliseconds until empty at `now`. */
  drainAt(now: number): number {
    return Math.max(0, this.#drainMs - Math.max(0, now - this.#at));
  }

  /** Whether one more request fits at `now`. */
  fits(now: number): boolean {
    return this.drainAt(now) + this.plan.msPerLeak <= fullMs(this.plan);
  }

  /** Milliseconds to wait from `now` until one more request fits. */
  waitToFit(now: number): number {
    return Math.max(0, this.drainAt(now) + this.plan.msPerLeak - fullMs(this.plan));
  }

  /** One request at `now`: counted when it fits, and what the answer's headers should say. */
  request(now: number): BucketPrediction {
    const admitted = this.fits(now);
    this.#drainMs = this.drainAt(now) + (admitted ? this.plan.msPerLeak : 0);
    this.#at = now;
    this.lastRequestAt = now;
    return { admitted, ...readingOf(this.#drainMs, this.plan) };
  }

  /**
   * Takes the provider's word for the level (live: the bucket is shared with the
   * world). The reading was taken somewhere in a round trip ending at `now`, so
   * the model keeps the highest level it may have now and remembers how much lower it may be.
   */
  resync(now: number, drainMs: number, roundTripMs: number): void {
    this.#drainMs = drainMs;
    this.#at = now;
    this.uncertaintyMs = roundTripMs;
  }
}

/** The headers a bucket of this plan `drainMs` from empty shows. */
export function readingOf(drainMs: number, plan: PlanBucket = bucketOfPlan('standard')): Omit<BucketPrediction, 'admitted'> {
  return {
    limit: plan.bucketSize,
    remaining: Math.max(0, Math.floor((fullMs(plan) - drainMs) / plan.msPerLeak)),
    resetMs: Math.ceil(drainMs),
  };
}
