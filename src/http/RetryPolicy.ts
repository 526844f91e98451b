import { isRetryableNetworkCode } from './networkError.ts';

/** How a client retries: the same three knobs for every client. */
export interface RetryOptions {
  /** Retries after the first attempt, for 5xx, 429 and network failures. Default 3. */
  maxRetries?: number;
  /** First back-off delay; doubled on each retry. Default 250 ms. */
  baseDelayMs?: number;
  /** Upper bound of one wait, Retry-After included. Default 8000 ms. */
  maxDelayMs?: number;
}

/** What to do after an answer: retry after `afterMs`, or nothing (undefined). */
export interface RetryDecision {
  reason: string;
  afterMs: number;
}

/** An answer as a retry policy reads it (and a gate, interceptors/pacing.ts): its status and lower-case headers. */
export interface RetryableAnswer {
  status: number;
  headers: Readonly<Record<string, string>>;
}

/**
 * The retry budget every client shares: maxRetries for answers and network
 * failures together, and bounded exponential back-off (base × 2^n up to
 * maxDelayMs) for retryable network failures. Each client says which answers
 * are worth another attempt, and how long to wait for them (`decide`).
 */
export abstract class RetryPolicy {
  readonly maxRetries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;

  /** `who` names the client in a refusal; `refuse` makes its configuration error. */
  constructor(options: RetryOptions, who: string, refuse: (message: string) => Error) {
    const checked = (name: string, value: number): number => {
      if (!Number.isFinite(value) || value < 0) {
        throw refuse(`${who}: ${name} must be a finite number ≥ 0, got ${value}. Fix: pass a non-negative number or leave it out for the default.`);
      }
      return value;
    };
    this.maxRetries = checked('retry.maxRetries', options.maxRetries ?? 3);
    this.baseDelayMs = checked('retry.baseDelayMs', options.baseDelayMs ?? 250);
    this.maxDelayMs = checked('retry.maxDelayMs', options.maxDelayMs ?? 8_000);
  }

  /** The decision after retry number `retriesSoFar` got `answer`. */
  abstract decide(answer: RetryableAnswer, retriesSoFar: number, now: number): RetryDecision | undefined;

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
