import { STORE_CONTRACT } from '../../rules/storeContract.ts';

/** What the rate headers say (rule store.ratelimit.headers). */
export interface BucketReading {
  readonly limit: number;
  /** Requests that still fit: floor(capacity - level), never negative. */
  readonly remaining: number;
  /** Milliseconds until the bucket is completely empty (store.ratelimit.reset-ms). */
  readonly resetMs: number;
}

// A request is 1000 units, so leaking by whole milliseconds stays exact in
// floating point (2 requests/s = 2 units/ms) and 40 never reads as 39.999.
const UNITS_PER_REQUEST = 1000;

/**
 * The leaky bucket of one (store, token) pair (store.ratelimit.per-store-and-token):
 * each admitted request adds one, the level leaks continuously by the store's
 * clock (store.ratelimit.leak-rate), a request that does not fit is refused
 * (store.ratelimit.bucket-429).
 */
export class LeakyBucket {
  readonly capacity: number;
  readonly leakPerSecond: number;
  /** Requests admitted from empty: the capacity, unless a deliberate break says less (twinBreaks.ts). */
  readonly #admits: number;
  #units = 0;
  #at: number;

  constructor(nowMs: number, capacity: number = STORE_CONTRACT.bucketSize, leakPerSecond: number = STORE_CONTRACT.leakPerSecond, admits: number = capacity) {
    this.capacity = capacity;
    this.leakPerSecond = leakPerSecond;
    this.#admits = admits;
    this.#at = nowMs;
  }

  /** Adds one request if it fits; false means the caller answers 429. */
  tryAdd(nowMs: number): boolean {
    this.#leak(nowMs);
    if (this.#units + UNITS_PER_REQUEST > this.#admits * UNITS_PER_REQUEST) return false;
    this.#units += UNITS_PER_REQUEST;
    return true;
  }

  /** Requests currently in the bucket (fractional while leaking). */
  level(nowMs: number): number {
    this.#leak(nowMs);
    return this.#units / UNITS_PER_REQUEST;
  }

  read(nowMs: number): BucketReading {
    this.#leak(nowMs);
    return {
      limit: this.capacity,
      remaining: Math.max(0, Math.floor((this.capacity * UNITS_PER_REQUEST - this.#units) / UNITS_PER_REQUEST)),
      resetMs: Math.ceil(this.#units / this.#unitsPerMs),
    };
  }

  /** The reading of a full bucket: what an injected 429 fault shows. */
  fullReading(): BucketReading {
    return { limit: this.capacity, remaining: 0, resetMs: Math.ceil((this.capacity * UNITS_PER_REQUEST) / this.#unitsPerMs) };
  }

  get #unitsPerMs(): number {
    return (this.leakPerSecond * UNITS_PER_REQUEST) / 1000;
  }

  #leak(nowMs: number): void {
    const elapsed = nowMs - this.#at;
    // A clock set backwards leaks nothing and does not re-leak the same time later.
    if (elapsed <= 0) return;
    this.#units = Math.max(0, this.#units - elapsed * this.#unitsPerMs);
    this.#at = nowMs;
  }
}

/** The three rate headers from a reading. */
export function rateLimitHeaders(reading: BucketReading): Record<string, string> {
  return {
    'X-Rate-Limit-Limit': String(reading.limit),
    'X-Rate-Limit-Remaining': String(reading.remaining),
    'X-Rate-Limit-Reset': String(reading.resetMs),
  };
}
