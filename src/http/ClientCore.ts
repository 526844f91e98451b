/**
 * What every client sends through: for each send, the client's stack on its
 * request stack (requestStack.ts), outermost first: retries (interceptors/
 * retry.ts, by the client's RetryPolicy), pacing (interceptors/pacing.ts, at
 * the client's gate, the store's pacer; a client without one is not paced),
 * the live guards and the base, so every attempt, retries included, is paced,
 * guarded and counted. The request goes down; each attempt comes back up from
 * the retry interceptor, timed, and is reported as an Exchange with its secrets
 * redacted; the last answer is read in the client's words, or its error
 * becomes the client's.
 */
import type { Dispatcher } from 'undici';
import { systemClock, type Clock } from '../clock/Clock.ts';
import type { ClientOptions } from './ClientOptions.ts';
import type { TransportFailure } from './ClientError.ts';
import type { ReadContext } from './ClientResponse.ts';
import { exchangeOf, type ClientExchange } from './Exchange.ts';
import { pacing, type AttemptGate } from './interceptors/pacing.ts';
import { retry, type Attempt } from './interceptors/retry.ts';
import { networkErrorOf } from './networkError.ts';
import { redactText, redactUrl } from './redact.ts';
import { requestStackOn } from './requestStack.ts';
import type { RetryPolicy } from './RetryPolicy.ts';
import { transport, type RawResponse, type WireRequest } from './transport.ts';

/**
 * The parts a client brings to the core: its retry policy, the gate that paces
 * its attempts (none: they leave at once), and its reading of what came back:
 * an answer in its own words, or its own error when none came.
 */
export interface ClientParts<Answer, Ticket> {
  policy: RetryPolicy;
  gate?: AttemptGate<Ticket>;
  read(raw: RawResponse, context: ReadContext): Answer;
  noAnswer(failure: TransportFailure): Error;
}

/** What one send did: the last answer and the retries it took. */
export interface Sent<Answer> {
  response: Answer;
  retries: number;
}

export class ClientCore<Answer, Ticket = never> {
  /** The clock every wait goes through: the option's, or the system clock. */
  readonly #clock: Clock;
  /** The request stack with the client's pacing on it, if it paces. */
  readonly #paced: Dispatcher;
  readonly #onExchange: ((exchange: ClientExchange) => void) | undefined;
  readonly #parts: ClientParts<Answer, Ticket>;

  constructor(options: ClientOptions, parts: ClientParts<Answer, Ticket>) {
    this.#clock = options.clock ?? systemClock;
    const stack = requestStackOn(options.dispatcher);
    this.#paced = parts.gate ? stack.compose(pacing(parts.gate, this.#clock)) : stack;
    this.#onExchange = options.onExchange;
    this.#parts = parts;
  }

  /** Sends `request`, retrying unless `retrying` is false; `secrets` are redacted from every report and error. */
  async send(request: WireRequest, secrets: readonly string[], retrying: boolean): Promise<Sent<Answer>> {
    const url = redactUrl(request.url.href, secrets);
    let last: Attempt | undefined;
    const onAttempt = (attempt: Attempt): void => {
      last = attempt;
      this.#onExchange?.(exchangeOf(request, url, secrets, attempt));
    };
    // Retries outermost, so each of their attempts passes the pacing and the guards below.
    const stack = this.#paced.compose(retry({ policy: this.#parts.policy, clock: this.#clock, retry: retrying, onAttempt }));
    try {
      const raw = await transport(request, stack);
      return { response: this.#parts.read(raw, { method: request.method, url, redactText: (text) => redactText(text, secrets) }), retries: last?.attempt ?? 0 };
    } catch (error) {
      // Only the last attempt's failure is a send without an answer; anything else (a listener that threw) goes as it is.
      if (!last || !('error' in last.end) || last.end.error !== error) throw error;
      const { code, message } = networkErrorOf(error);
      throw this.#parts.noAnswer({
        method: request.method,
        url,
        attempts: last.attempt + 1,
        causeCode: code,
        causeMessage: redactText(message, secrets),
        cause: error,
      });
    }
  }
}
