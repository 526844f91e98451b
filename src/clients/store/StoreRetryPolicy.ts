import { retryAfterMs } from '../../http/retryAfterMs.ts';
import { RetryPolicy, type RetryableAnswer, type RetryDecision, type RetryOptions } from '../../http/RetryPolicy.ts';
import { msPerLeakOfLimit, STORE_CONTRACT } from '../../rules/storeContract.ts';
import { StoreConfigError } from './errors.ts';
import { rateHeaders } from './rateHeaders.ts';
import type { RateHeaders } from './types.ts';

/**
 * When and how long to wait before another attempt:
 * - 500, 502, 503, 504 (store.errors.server-errors-retried): bounded exponential
 *   back-off, base × 2^n up to maxDelayMs; a Retry-After is honoured, capped the same.
 * - 429 (store.client.paces-to-bucket): until one request fits by the rate headers,
 *   Reset − (Limit − 1) × 500 ms, at least one leak interval.
 * - network failures: the same back-off as 5xx.
 * Retries of all three share one budget, maxRetries (the core's RetryPolicy).
 */
export class StoreRetryPolicy extends RetryPolicy {
  constructor(options: RetryOptions = {}) {
    super(options, 'StoreClient', (message) => new StoreConfigError(message));
  }

  /** The decision after retry number `retriesSoFar` answered `status`; a 429 is read with its rate headers. */
  override decide(answer: RetryableAnswer, retriesSoFar: number, now: number): RetryDecision | undefined {
    if (retriesSoFar >= this.maxRetries) return undefined;
    const retryAfter = retryAfterMs(answer.headers['retry-after'], now);
    if (answer.status === 429) {
      const byBucket = rateLimitWaitMs(rateHeaders(answer.headers));
      const afterMs = retryAfter === undefined ? byBucket : Math.max(byBucket, Math.min(retryAfter, this.maxDelayMs));
      return { reason: '429 Too Many Requests: waiting until one request fits the bucket', afterMs };
    }
    if (STORE_CONTRACT.retryableStatuses.includes(answer.status)) {
      const afterMs = retryAfter === undefined ? this.backoffMs(retriesSoFar) : Math.min(retryAfter, this.maxDelayMs);
      return { reason: `${answer.status}: service trouble, retrying later`, afterMs };
    }
    return undefined;
  }
}

/**
 * Milliseconds until one more request fits a bucket that just answered 429:
 * the bucket is empty after Reset ms and has room for one at Limit − 1, i.e.
 * Reset − (Limit − 1) × one leak (500 ms on the standard plan); at least one leak
 * interval, at most a full drain.
 */
export function rateLimitWaitMs(rate: RateHeaders | undefined): number {
  const limit = rate?.limit ?? STORE_CONTRACT.bucketSize;
  const msPerLeak = msPerLeakOfLimit(limit);
  let wait: number = msPerLeak;
  if (rate?.reset !== undefined) wait = rate.reset - (limit - 1) * msPerLeak;
  else if (rate?.remaining !== undefined) wait = (1 - rate.remaining) * msPerLeak;
  return Math.min(Math.max(msPerLeak, Math.ceil(wait)), Math.max(limit, 1) * msPerLeak);
}
