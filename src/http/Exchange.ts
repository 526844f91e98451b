import { redactHeaders, redactText } from './redact.ts';
import type { RawResponse, WireRequest } from './transport.ts';

/** One attempt as reports see it: everything secret is already redacted. */
export interface Exchange {
  /** 0 for the first attempt of a send, then 1, 2, ... for its retries. */
  attempt: number;
  /** Clock time the request left. */
  startedAt: number;
  /** Clock time from leaving to the answer (0 on a virtual clock). */
  durationMs: number;
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response?: { status: number; headers: Record<string, string>; body: string };
  /** Network failure instead of a response. */
  error?: { code: string; message: string };
  /** Set when the client will try again, and after how long. */
  retry?: { reason: string; afterMs: number };
}

/** How one attempt ended: an answer, or a network error (its message already redacted). */
export type AttemptOutcome = { response: RawResponse } | { error: { code: string; message: string } };

/** What one attempt sent and got, without the timing each client adds. */
export type ExchangeTraffic = Pick<Exchange, 'request' | 'response' | 'error' | 'retry'>;

/** The redacted record of one attempt's traffic; `url` is the request's URL, already redacted. */
export function exchangeTraffic(
  request: WireRequest,
  url: string,
  secrets: readonly string[],
  outcome: AttemptOutcome,
  retry: { reason: string; afterMs: number } | undefined,
): ExchangeTraffic {
  return {
    request: {
      method: request.method,
      url,
      headers: redactHeaders(request.headers, secrets),
      ...(request.body !== undefined ? { body: redactText(request.body, secrets) } : {}),
    },
    ...('response' in outcome
      ? {
          response: {
            status: outcome.response.status,
            headers: redactHeaders(outcome.response.headers, secrets),
            body: redactText(outcome.response.text, secrets),
          },
        }
      : { error: outcome.error }),
    ...(retry ? { retry: { reason: retry.reason, afterMs: retry.afterMs } } : {}),
  };
}
