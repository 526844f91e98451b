import { isRetryableNetworkCode } from '../../http/networkError.ts';
import { retryAfterMs } from '../../http/retryAfterMs.ts';
import { MediaConfigError } from './errors.ts';
import type { RetryOptions } from './types.ts';

/** What to do after an answer: retry after `afterMs`, or nothing (undefined). */
export interface RetryDecision {
  reason: string;
  afterMs: number;
}

/** Statuses that say "not now" rather than "no": service trouble and the per-token throttle. */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/**
 * When and how long to wait before another attempt of a Media API request:
 * - 500, 502, 503, 504 and 429 (the per-token write throttle, field notes: Limits,
 *   which answers text/plain "Retry later"): a Retry-After is waited out exactly;
 *   one longer than maxDelayMs is not retried at all (the answer goes to the caller);
 *   without one, base × 2^n, capped at maxDelayMs;
 * - network failures: the same back-off.
 * All share one budget, maxRetries. The service documents no general rate limit,
 * so unlike the store client there is no pacing ahead of time.
 */
export class RetryPolicy {
  readonly maxRetries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;

  constructor(options: RetryOptions = {}) {
    this.maxRetries = checked('retry.maxRetries', options.maxRetries ?? 3);
    this.baseDelayMs = checked('retry.baseDelayMs', options.baseDelayMs ?? 250);
    this.maxDelayMs = checked('retry.maxDelayMs', options.maxDelayMs ?? 8_000);
  }

  /** The decision after retry number `retriesSoFar` answered `status`. */
  decide(answer: { status: number; headers: Readonly<Record<string, string>> }, retriesSoFar: number, now: number): RetryDecision | undefined {
    if (retriesSoFar >= this.maxRetries || !RETRYABLE_STATUSES.has(answer.status)) return undefined;
    const retryAfter = retryAfterMs(answer.headers['retry-after'], now);
    // Retrying before the time asked would go against it; waiting longer than maxDelayMs is not bounded.
    if (retryAfter !== undefined && retryAfter > this.maxDelayMs) return undefined;
    const afterMs = retryAfter ?? this.backoffMs(retriesSoFar);
    const reason = answer.status === 429 ? '429 Too Many Requests: throttled, retrying later' : `${answer.status}: service trouble, retrying later`;
    return { reason: retryAfter === undefined ? reason : `${reason} (Retry-After)`, afterMs };
  }

  /** The decision after a network failure with the given error code. */
  decideNetwork(code: string, retriesSoFar: number): RetryDecision | undefined {
    if (retriesSoFar >= this.maxRetries || !isRetryableNetworkCode(code)) return undefined;
    return { reason: `${code}: no answer, retrying`, afterMs: this.backoffMs(retriesSoFar) };
  }

  /** base × 2^n, capped at maxDelayMs. */
  backoffMs(retriesSoFar: number): number {
    return Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** retriesSoFar);
  }
}

function checked(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) {
    throw new MediaConfigError(
      `MediaClient: ${name} must be a finite number ≥ 0, got ${value}. Fix: pass a non-negative number or leave it out for the default.`,
    );
  }
  return value;
}
