import type { Attempt } from './interceptors/retry.ts';
import { networkErrorOf } from './networkError.ts';
import { redactHeaders, redactText } from './redact.ts';
import type { WireRequest } from './transport.ts';

/** One attempt as reports see it: everything secret is already redacted. */
export interface Exchange {
  /** 0 for the first attempt of a send, then 1, 2, ... for its retries. */
  attempt: number;
  /** Clock time the request left. */
  startedAt: number;
  /** Clock time from leaving to the answer (0 on a virtual clock). */
  durationMs: number;
  /** Clock time the client's pacing held the request back before it left; every client's exchange has it (ClientExchange). */
  pacedMs?: number;
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response?: { status: number; headers: Record<string, string>; body: string };
  /** Network failure instead of a response. */
  error?: { code: string; message: string };
  /** Set when the client will try again, and after how long. */
  retry?: { reason: string; afterMs: number };
}

/** One attempt as a client reports it: with the time its pacing held it (the store's pacer), 0 for a client that paces nothing. */
export interface ClientExchange extends Exchange {
  pacedMs: number;
}

/** The redacted record of one attempt of `request`; `url` is the request's URL, already redacted. */
export function exchangeOf(request: WireRequest, url: string, secrets: readonly string[], sent: Attempt): ClientExchange {
  const { attempt, startedAt, durationMs, pacedMs, end, decision } = sent;
  return {
    attempt,
    startedAt,
    durationMs,
    pacedMs,
    request: {
      method: request.method,
      url,
      headers: redactHeaders(request.headers, secrets),
      ...(request.body !== undefined ? { body: redactText(request.body, secrets) } : {}),
    },
    ...('answer' in end
      ? { response: { status: end.answer.status, headers: redactHeaders(end.answer.headers, secrets), body: redactText(end.answer.text, secrets) } }
      : { error: redactedError(end.error, secrets) }),
    ...(decision ? { retry: { reason: decision.reason, afterMs: decision.afterMs } } : {}),
  };
}

/** The code and redacted message of a network error. */
function redactedError(error: unknown, secrets: readonly string[]): { code: string; message: string } {
  const { code, message } = networkErrorOf(error);
  return { code, message: redactText(message, secrets) };
}
