/**
 * The outage interceptor (src/http/providerOutage.ts): on a live or record run's
 * stack, under the guards and over the base, so it sees each attempt as it goes
 * on the wire. A request to an origin declared unreachable is refused before it
 * leaves. An attempt that ends without an answer (connection refused, reset,
 * timed out) is sent again within the retry budget (OUTAGE_BUDGET), out of sight
 * of the handler above, until an answer comes (then it is handed on as if the
 * first attempt had it: nothing is lost) or the budget is spent (then the origin
 * is declared unreachable and the request fails with ProviderUnreachableError,
 * whose code no retry policy retries). A write whose attempt may have reached the
 * provider (a reset, a timeout) is not sent again here: its error goes up as it
 * came, for the client's own policy, and still counts towards the budget.
 */
import type { Dispatcher } from 'undici';
import { isRetryableNetworkCode, networkErrorOf } from '../networkError.ts';
import { notConnected, originOf, ProviderUnreachableError, type Outage, type ProviderOutages } from '../providerOutage.ts';
import { Controller, type AnswerHeaders } from './controller.ts';

export interface OutageWatching {
  readonly watch: ProviderOutages;
  /** The API the stack sends to, named in the outage's line. */
  readonly api: string;
  /** Told each time a request meets an outage: declared by its own attempts, or refused because it was. */
  onUnreachable?(outage: Outage): void;
  /** Told of each attempt sent again within the budget (the request budget counts it). */
  onResend?(): void;
}

const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

export function outage(watching: OutageWatching): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) =>
    function outageInterceptor(options, handler) {
      const origin = originOf(String(options.origin));
      const declared = watching.watch.declared(origin);
      if (declared) {
        watching.onUnreachable?.(declared);
        handler.onResponseError?.(new Controller(), new ProviderUnreachableError(declared, false));
        return false;
      }
      const timeout = options.headersTimeout ?? watching.watch.budget.answerTimeoutMs;
      new WatchedRequest(dispatch, { ...options, headersTimeout: timeout }, handler, watching, origin).send();
      return true;
    };
}

/** One request and its attempts: the handler above hears one start, and one answer or one error. */
class WatchedRequest {
  readonly #dispatch: Dispatcher.Dispatch;
  readonly #options: Dispatcher.DispatchOptions;
  readonly #handler: Dispatcher.DispatchHandler;
  readonly #watching: OutageWatching;
  readonly #origin: string;
  /** The controller the handler above holds, whichever attempt is on the wire. */
  readonly #controller: Controller;
  #wire: Dispatcher.DispatchController | undefined;
  #started = false;
  #resent = 0;

  constructor(
    dispatch: Dispatcher.Dispatch,
    options: Dispatcher.DispatchOptions,
    handler: Dispatcher.DispatchHandler,
    watching: OutageWatching,
    origin: string,
  ) {
    this.#dispatch = dispatch;
    this.#options = options;
    this.#handler = handler;
    this.#watching = watching;
    this.#origin = origin;
    this.#controller = new Controller({
      abort: (reason) => this.#wire?.abort(reason),
      pause: () => this.#wire?.pause(),
      resume: () => this.#wire?.resume(),
    });
  }

  send(): void {
    let answered = false;
    const attempt: Dispatcher.DispatchHandler = {
      onRequestStart: (controller, context) => {
        this.#wire = controller;
        if (this.#controller.aborted) controller.abort(this.#controller.reason ?? new Error('aborted'));
        if (this.#started) return;
        this.#started = true;
        this.#handler.onRequestStart?.(this.#controller, context);
      },
      onResponseStart: (_controller, status, headers: AnswerHeaders, message) => {
        answered = true;
        this.#watching.watch.answered(this.#origin);
        this.#handler.onResponseStart?.(this.#controller, status, headers, message);
      },
      onResponseData: (_controller, chunk) => this.#handler.onResponseData?.(this.#controller, chunk),
      onResponseEnd: (_controller, trailers) => this.#handler.onResponseEnd?.(this.#controller, trailers),
      onResponseError: (_controller, error) => this.#failed(error, answered),
    };
    this.#dispatch(this.#options, attempt);
  }

  #failed(error: Error, answered: boolean): void {
    // An answer that broke off after it started was handed on already: its error goes the same way.
    if (answered || this.#controller.aborted) return this.#fail(error);
    const { code } = networkErrorOf(error);
    const { watch, api } = this.#watching;
    const outage = watch.failed(this.#origin, code, api);
    if (outage) {
      this.#watching.onUnreachable?.(outage);
      return this.#fail(new ProviderUnreachableError(outage, true, error));
    }
    const mayRepeatAWrite = !SAFE_METHODS.has(this.#options.method.toUpperCase()) && !notConnected(code);
    // Not a failure to reach the provider (not retryable), or a write it may have taken: the client's to decide.
    if (mayRepeatAWrite || !isRetryableNetworkCode(code)) return this.#fail(error);
    void watch.clock.sleep(watch.retryAfterMs(this.#resent)).then(() => {
      if (this.#controller.aborted) return this.#fail(this.#controller.reason ?? error);
      const declared = watch.declared(this.#origin);
      if (declared) {
        this.#watching.onUnreachable?.(declared);
        return this.#fail(new ProviderUnreachableError(declared, true, error));
      }
      this.#resent += 1;
      this.#watching.onResend?.();
      this.send();
    });
  }

  #fail(error: Error): void {
    this.#handler.onResponseError?.(this.#controller, error);
  }
}
