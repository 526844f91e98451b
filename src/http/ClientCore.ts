/**
 * What every client sends through: for each send, the client's stack on its
 * request stack (requestStack.ts), outermost first: retries (interceptors/
 * retry.ts, by the client's RetryPolicy), pacing (interceptors/pacing.ts, the
 * client's gate: the store's pacer; the media client's is open), the live
 * guards and the base, so every attempt, retries included, is paced, guarded
 * and counted. Each attempt is reported as an Exchange with its secrets
 * redacted; the last answer is read in the client's words, or its error
 * becomes the client's.
 */
import type { Dispatcher } from 'undici';
import { systemClock, type Clock } from '../clock/Clock.ts';
import type { ClientOptions } from './ClientOptions.ts';
import type { TransportFailure } from './ClientError.ts';
import type { ReadContext } from './ClientResponse.ts';
import { exchangeTraffic, type Exchange } from './Exchange.ts';
import { pacing, type AttemptGate } from './interceptors/pacing.ts';
import { retry, type AttemptEnd } from './interceptors/retry.ts';
import { networkErrorOf } from './networkError.ts';
import { redactText, redactUrl } from './redact.ts';
import { requestStackOn } from './requestStack.ts';
import type { RetryDecision, RetryPolicy } from './RetryPolicy.ts';
import { transport, type RawResponse, type WireRequest } from './transport.ts';

export type { AttemptGate };

/** What a client brings to the core: its policy, how it reads an answer, its error when none came. */
export interface ClientWays<Answer, E extends Exchange, Pass> {
  policy: RetryPolicy;
  read(raw: RawResponse, context: ReadContext): Answer;
  noAnswer(failure: TransportFailure): Error;
  /** The client's exchange of the core's (the store adds the time its pacer held the attempt). */
  exchange?: (exchange: Exchange, pass: Pass) => E;
}

/** What one send did: the last answer and the retries it took. */
export interface Sent<Answer> {
  response: Answer;
  retries: number;
}

/** When an attempt left its gate, and what the gate gave it. */
interface Departure<Pass> {
  at: number;
  pass: Pass;
}

/** The gate of a client that paces nothing: its attempts still pass it, so every one is timed the same way. */
const OPEN_GATE: AttemptGate<undefined> = { enter: async () => undefined, leave: () => undefined };

export class ClientCore<Answer, E extends Exchange = Exchange, Pass = undefined> {
  /** The clock every wait goes through: the option's, or the system clock. */
  readonly clock: Clock;
  readonly #dispatcher: Dispatcher | undefined;
  readonly #onExchange: ((exchange: E) => void) | undefined;
  readonly #ways: ClientWays<Answer, E, Pass>;

  constructor(options: ClientOptions<E>, ways: ClientWays<Answer, E, Pass>) {
    this.clock = options.clock ?? systemClock;
    this.#dispatcher = options.dispatcher;
    this.#onExchange = options.onExchange;
    this.#ways = ways;
  }

  /** Sends `request`, retrying unless `retry` is false; `secrets` are redacted from every report and error. */
  async send(request: WireRequest, secrets: readonly string[], how: { retry: boolean; gate?: AttemptGate<Pass> }): Promise<Sent<Answer>> {
    const url = redactUrl(request.url.href, secrets);
    const gate = how.gate ?? (OPEN_GATE as AttemptGate<Pass>);
    let departure: Departure<Pass> | undefined;
    let last: { attempt: number; end: AttemptEnd } | undefined;
    const timed: AttemptGate<Pass> = {
      enter: async () => {
        const pass = await gate.enter();
        departure = { at: this.clock.now(), pass };
        return pass;
      },
      leave: (pass, answer) => gate.leave(pass, answer),
    };
    const onAttempt = (attempt: number, end: AttemptEnd, decision: RetryDecision | undefined): void => {
      // An attempt its gate did not let go never left: nothing to report.
      if (!departure) return;
      last = { attempt, end };
      this.#report(request, url, secrets, { attempt, departure, end, decision });
      departure = undefined;
    };
    // undici's compose makes its last interceptor the outermost: retry, then pacing, on the request stack.
    const stack = requestStackOn(this.#dispatcher).compose(pacing(timed), retry({ policy: this.#ways.policy, clock: this.clock, retry: how.retry, onAttempt }));
    try {
      const raw = await transport(request, stack);
      const context: ReadContext = { method: request.method, url, redactText: (text) => redactText(text, secrets) };
      return { response: this.#ways.read(raw, context), retries: last?.attempt ?? 0 };
    } catch (error) {
      // Only the last attempt's failure is a send without an answer; anything else (a listener that threw) goes as it is.
      if (!last || !('error' in last.end) || last.end.error !== error) throw error;
      const { code, message } = networkErrorOf(error);
      const failure = { method: request.method, url, attempts: last.attempt + 1, causeCode: code, causeMessage: redactText(message, secrets) };
      throw this.#ways.noAnswer({ ...failure, cause: error });
    }
  }

  #report(
    request: WireRequest,
    url: string,
    secrets: readonly string[],
    sent: { attempt: number; departure: Departure<Pass>; end: AttemptEnd; decision: RetryDecision | undefined },
  ): void {
    if (!this.#onExchange) return;
    const { attempt, departure, end, decision } = sent;
    const outcome = 'answer' in end ? { response: end.answer } : { error: redactedError(end.error, secrets) };
    const exchange = {
      attempt,
      startedAt: departure.at,
      durationMs: this.clock.now() - departure.at,
      ...exchangeTraffic(request, url, secrets, outcome, decision),
    };
    this.#onExchange(this.#ways.exchange ? this.#ways.exchange(exchange, departure.pass) : (exchange as E));
  }
}

/** The code and redacted message of a network error. */
function redactedError(error: unknown, secrets: readonly string[]): { code: string; message: string } {
  const { code, message } = networkErrorOf(error);
  return { code, message: redactText(message, secrets) };
}
