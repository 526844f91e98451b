import type { Dispatcher } from 'undici';
import type { Clock } from '../../clock/Clock.ts';
import type { RetryableAnswer } from '../RetryPolicy.ts';
import { flatHeaders } from '../flatHeaders.ts';
import { Controller, type AnswerHeaders } from './controller.ts';

/** What holds each attempt back before it leaves, and learns how it ended (the store's pacer). */
export interface AttemptGate<Ticket> {
  /** Waits until the attempt may leave, or lets it go at once when `hold` is false (it still takes a place); the ticket goes back to `leave`. */
  enter(hold: boolean): Promise<Ticket>;
  /** The attempt is over: its answer, or undefined when none came (a refusal by a guard included). */
  leave(ticket: Ticket, answer: RetryableAnswer | undefined): void;
}

/** The dispatch option that lets a request leave without waiting at the gate. */
export interface PaceOption {
  /** false: not held at the gate, though it takes its place there. Default true. */
  pace?: boolean;
}

/** What the pacing interceptor adds to the context of onRequestStart, for the handler above. */
export interface PacedContext {
  /** Clock time the gate held the attempt before it left. */
  pacedMs: number;
}

/**
 * An undici interceptor that holds each request at `gate` before it goes on,
 * and tells the gate how it ended once the answer is read whole, or failed.
 * The handler above hears how long the gate held it in onRequestStart's
 * context (PacedContext). Under the retry interceptor, so each attempt is
 * paced, retries included; over the guards, so a refused attempt still left
 * the gate (and the pacer counts it, as the provider may have).
 */
export function pacing<Ticket>(gate: AttemptGate<Ticket>, clock: Clock): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) =>
    function pacingInterceptor(options, handler) {
      const queuedAt = clock.now();
      // What fails below comes to the handler, as undici's dispatchers hand it (the guards and withoutLength.ts too): nothing to catch.
      gate.enter((options as PaceOption).pace !== false).then(
        (ticket) => dispatch(options, new PacedHandler(handler, { pacedMs: clock.now() - queuedAt }, (answer) => gate.leave(ticket, answer))),
        (error: Error) => handler.onResponseError?.(new Controller(), error),
      );
      return true;
    };
}

/** Passes everything on to `handler`: the start with the time the gate held the attempt, the end after telling the gate. */
class PacedHandler implements Dispatcher.DispatchHandler {
  readonly #handler: Dispatcher.DispatchHandler;
  readonly #paced: PacedContext;
  #leave: ((answer: RetryableAnswer | undefined) => void) | undefined;
  #started = false;
  #answer: RetryableAnswer | undefined;

  constructor(handler: Dispatcher.DispatchHandler, paced: PacedContext, leave: (answer: RetryableAnswer | undefined) => void) {
    this.#handler = handler;
    this.#paced = paced;
    this.#leave = leave;
  }

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.#started = true;
    this.#handler.onRequestStart?.(controller, { ...(context as object | null), ...this.#paced });
  }

  onResponseStart(controller: Dispatcher.DispatchController, status: number, headers: AnswerHeaders, message?: string): void {
    if (status >= 200) this.#answer = { status, headers: flatHeaders(headers) };
    this.#handler.onResponseStart?.(controller, status, headers, message);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#handler.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Dispatcher.DispatchController, trailers: AnswerHeaders): void {
    this.#over(this.#answer);
    this.#handler.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    this.#over(undefined);
    // Refused before it started (a guard, or one of undici's dispatchers, hands the error alone): the handler above still hears the pacing.
    if (!this.#started) this.onRequestStart(controller ?? new Controller(), null);
    this.#handler.onResponseError?.(controller, error);
  }

  #over(answer: RetryableAnswer | undefined): void {
    const leave = this.#leave;
    this.#leave = undefined;
    leave?.(answer);
  }
}
