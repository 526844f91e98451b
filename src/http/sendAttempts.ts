/**
 * The attempt loop every client sends through: one request, attempted until
 * an answer the retry policy lets stand, or until no answer and no retry is
 * left. Each attempt passes the client's gate (the store's pacer; none for the
 * media client), is sent on the client's dispatcher (so through its interceptor
 * stack), and is reported as an Exchange with its secrets redacted.
 */
import type { Dispatcher } from 'undici';
import type { Clock } from '../clock/Clock.ts';
import type { TransportFailure } from './ClientError.ts';
import { exchangeTraffic, type AttemptOutcome, type Exchange } from './Exchange.ts';
import { networkErrorOf } from './networkError.ts';
import { redactText } from './redact.ts';
import type { RetryableAnswer, RetryDecision, RetryPolicy } from './RetryPolicy.ts';
import { transport, type RawResponse, type WireRequest } from './transport.ts';

/** What holds each attempt back before it leaves, and learns of its answer after (the store's pacer). */
export interface AttemptGate<Pass, Answer> {
  /** Waits until the attempt may leave; what it gives back is handed to `leave` and to the report. */
  enter(): Promise<Pass>;
  /** The attempt is over: its answer, or undefined when none came. */
  leave(pass: Pass, answer: Answer | undefined): void;
}

export interface Attempts<Answer extends RetryableAnswer, Pass> {
  request: WireRequest;
  /** The request's URL, redacted, as reports and errors show it. */
  url: string;
  /** Values to redact from what is reported. */
  secrets: readonly string[];
  clock: Clock;
  dispatcher: Dispatcher | undefined;
  /** Undefined: one attempt, whatever the answer. */
  retry: RetryPolicy<NoInfer<Answer>> | undefined;
  /** The client's answer of a raw one. */
  read(raw: RawResponse): Answer;
  gate?: AttemptGate<Pass, Answer>;
  /** Every attempt, as it ends. */
  report?: (exchange: Exchange, pass: Pass) => void;
  /** The client's error when no answer came and no retry is left. */
  noAnswer(failure: TransportFailure): Error;
}

/** What one send did: the last answer and the retries it took. */
export interface Sent<Answer> {
  response: Answer;
  retries: number;
}

export async function sendAttempts<Answer extends RetryableAnswer, Pass = undefined>(attempts: Attempts<Answer, Pass>): Promise<Sent<Answer>> {
  const { request, url, secrets, clock, retry, gate } = attempts;
  for (let attempt = 0; ; attempt++) {
    const pass = gate ? await gate.enter() : (undefined as Pass);
    const startedAt = clock.now();
    const report = (outcome: AttemptOutcome, decision: RetryDecision | undefined): void =>
      attempts.report?.({ attempt, startedAt, durationMs: clock.now() - startedAt, ...exchangeTraffic(request, url, secrets, outcome, decision) }, pass);

    let raw: RawResponse;
    try {
      raw = await transport(request, attempts.dispatcher);
    } catch (error) {
      // No answer: the request may still have reached the provider.
      gate?.leave(pass, undefined);
      const { code, message } = networkErrorOf(error);
      const causeMessage = redactText(message, secrets);
      const decision = retry?.decideNetwork(code, attempt);
      report({ error: { code, message: causeMessage } }, decision);
      if (!decision) throw attempts.noAnswer({ method: request.method, url, attempts: attempt + 1, causeCode: code, causeMessage, cause: error });
      await clock.sleep(decision.afterMs);
      continue;
    }

    const response = attempts.read(raw);
    gate?.leave(pass, response);
    const decision = retry?.decide(response, attempt, clock.now());
    report({ response: raw }, decision);
    if (!decision) return { response, retries: attempt };
    await clock.sleep(decision.afterMs);
  }
}
