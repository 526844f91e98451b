import { retryAfterMs } from '../../http/retryAfterMs.ts';
import { RetryPolicy, type RetryableAnswer, type RetryDecision, type RetryOptions } from '../../http/RetryPolicy.ts';
import { MediaConfigError } from './errors.ts';

/** Statuses that say "not now" rather than "no": service trouble and the per-token throttle. */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/**
 * When and how long to wait before another attempt of a Media API request:
 * - 500, 502, 503, 504 and 429 (the per-token write throttle, field notes: Limits,
 *   which answers text/plain "Retry later"): a Retry-After is waited out exactly;
 *   one longer than maxDelayMs is not retried at all (the answer goes to the caller);
 *   without one, base × 2^n, capped at maxDelayMs;
 * - network failures: the same back-off.
 * All share one budget, maxRetries (the core's RetryPolicy). The service documents
 * no general rate limit, so unlike the store client there is no pacing ahead of time.
 */
export class MediaRetryPolicy extends RetryPolicy {
  constructor(options: RetryOptions = {}) {
    super(options, 'MediaClient', (message) => new MediaConfigError(message));
  }

  /** The decision after retry number `retriesSoFar` answered `status`. */
  override decide(answer: RetryableAnswer, retriesSoFar: number, now: number): RetryDecision | undefined {
    if (retriesSoFar >= this.maxRetries || !RETRYABLE_STATUSES.has(answer.status)) return undefined;
    const retryAfter = retryAfterMs(answer.headers['retry-after'], now);
    // Retrying before the time asked would go against it; waiting longer than maxDelayMs is not bounded.
    if (retryAfter !== undefined && retryAfter > this.maxDelayMs) return undefined;
    const afterMs = retryAfter ?? this.backoffMs(retriesSoFar);
    const reason = answer.status === 429 ? '429 Too Many Requests: throttled, retrying later' : `${answer.status}: service trouble, retrying later`;
    return { reason: retryAfter === undefined ? reason : `${reason} (Retry-After)`, afterMs };
  }
}
