/**
 * The attempt loop every client sends through: one request, attempted until
 * an answer the retry policy lets stand, or until no answer and no retry is
 * left. Each attempt passes the client's gate (the store's pacer; none for the
 * media client), is sent on the client's dispatcher (so through its interceptor
 * stack, src/http/interceptors), and is reported as an Exchange with its
 * secrets redacted.
 */
import type { Dispatcher } from 'undici';
import { systemClock, type Clock } from '../clock/Clock.ts';
import type { ClientOptions } from './ClientOptions.ts';
import type { TransportFailure } from './ClientError.ts';
import type { ReadContext } from './ClientResponse.ts';
import { exchangeTraffic, type AttemptOutcome, type Exchange } from './Exchange.ts';
import { networkErrorOf } from './networkError.ts';
import { redactText, redactUrl } from './redact.ts';
import type { RetryableAnswer, RetryDecision, RetryPolicy } from './RetryPolicy.ts';
import { transport, type RawResponse, type WireRequest } from './transport.ts';

/** What holds each attempt back before it leaves, and learns of its answer after (the store's pacer). */
export interface AttemptGate<Pass, Answer> {
  /** Waits until the attempt may leave; what it gives back is handed to `leave` and to the report. */
  enter(): Promise<Pass>;
  /** The attempt is over: its answer, or undefined when none came. */
  leave(pass: Pass, answer: Answer | undefined): void;
}

/** What a client brings to the loop: its policy, how it reads an answer, its error when none came. */
export interface ClientWays<Answer extends RetryableAnswer, E extends Exchange, Pass> {
  policy: RetryPolicy<NoInfer<Answer>>;
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

export class AttemptLoop<Answer extends RetryableAnswer, E extends Exchange = Exchange, Pass = undefined> {
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
  async send(request: WireRequest, secrets: readonly string[], how: { retry: boolean; gate?: AttemptGate<Pass, Answer> }): Promise<Sent<Answer>> {
    const { clock } = this;
    const { policy, noAnswer } = this.#ways;
    const url = redactUrl(request.url.href, secrets);
    const context: ReadContext = { method: request.method, url, redactText: (text) => redactText(text, secrets) };
    const gate = how.gate;
    for (let attempt = 0; ; attempt++) {
      const pass = gate ? await gate.enter() : (undefined as Pass);
      const startedAt = clock.now();
      const report = (outcome: AttemptOutcome, decision: RetryDecision | undefined): void => {
        if (!this.#onExchange) return;
        const exchange = { attempt, startedAt, durationMs: clock.now() - startedAt, ...exchangeTraffic(request, url, secrets, outcome, decision) };
        this.#onExchange(this.#ways.exchange ? this.#ways.exchange(exchange, pass) : (exchange as E));
      };

      let raw: RawResponse;
      try {
        raw = await transport(request, this.#dispatcher);
      } catch (error) {
        // No answer: the request may still have reached the provider.
        gate?.leave(pass, undefined);
        const { code, message } = networkErrorOf(error);
        const causeMessage = redactText(message, secrets);
        const decision = how.retry ? policy.decideNetwork(code, attempt) : undefined;
        report({ error: { code, message: causeMessage } }, decision);
        if (!decision) throw noAnswer({ method: request.method, url, attempts: attempt + 1, causeCode: code, causeMessage, cause: error });
        await clock.sleep(decision.afterMs);
        continue;
      }

      const response = this.#ways.read(raw, context);
      gate?.leave(pass, response);
      const decision = how.retry ? policy.decide(response, attempt, clock.now()) : undefined;
      report({ response: raw }, decision);
      if (!decision) return { response, retries: attempt };
      await clock.sleep(decision.afterMs);
    }
  }
}
