import type { Dispatcher } from 'undici';
import type { RetryableAnswer } from '../RetryPolicy.ts';
import { flatHeaders } from '../transport.ts';
import { Controller, type AnswerHeaders } from './controller.ts';

/** What holds each attempt back before it leaves, and learns how it ended (the store's pacer). */
export interface AttemptGate<Pass> {
  /** Waits until the attempt may leave; what it gives back is handed to `leave`. */
  enter(): Promise<Pass>;
  /** The attempt is over: its answer, or undefined when none came (a refusal by a guard included). */
  leave(pass: Pass, answer: RetryableAnswer | undefined): void;
}

/**
 * An undici interceptor that holds each request at `gate` before it goes on,
 * and tells the gate how it ended once the answer is read whole, or failed.
 * Under the retry interceptor, so each attempt is paced, retries included;
 * over the guards, so a refused attempt still left the gate (and the pacer
 * counts it, as the provider may have).
 */
export function pacing<Pass>(gate: AttemptGate<Pass>): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) =>
    function pacingInterceptor(options, handler) {
      gate.enter().then(
        (pass) => {
          const leaving = new LeavingHandler(handler, (answer) => gate.leave(pass, answer));
          try {
            dispatch(options, leaving);
          } catch (error) {
            // A guard below refused it before it left.
            leaving.onResponseError(new Controller(), error as Error);
          }
        },
        (error: Error) => handler.onResponseError?.(new Controller(), error),
      );
      return true;
    };
}

/** Passes everything on to `handler`, calling `leave` first once the attempt is over. */
class LeavingHandler implements Dispatcher.DispatchHandler {
  readonly #handler: Dispatcher.DispatchHandler;
  #leave: ((answer: RetryableAnswer | undefined) => void) | undefined;
  #answer: RetryableAnswer | undefined;

  constructor(handler: Dispatcher.DispatchHandler, leave: (answer: RetryableAnswer | undefined) => void) {
    this.#handler = handler;
    this.#leave = leave;
  }

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.#handler.onRequestStart?.(controller, context);
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
    this.#handler.onResponseError?.(controller, error);
  }

  #over(answer: RetryableAnswer | undefined): void {
    const leave = this.#leave;
    this.#leave = undefined;
    leave?.(answer);
  }
}
