/**
 * The retry interceptor, in the manner of undici's lib/interceptor/retry.js but
 * asking the client's RetryPolicy: each attempt's answer is read whole (the APIs
 * answer small JSON), the policy decides on its status and headers, or on the
 * network error's code when none came, and a retry is dispatched again after
 * `decision.afterMs` on the client's clock. Only the last attempt's answer or
 * error reaches the handler; each attempt is told to `onAttempt` first, with
 * its decision, so that the client reports every one.
 */
import type { Dispatcher } from 'undici';
import type { Clock } from '../../clock/Clock.ts';
import { networkErrorOf } from '../networkError.ts';
import type { RetryDecision, RetryPolicy } from '../RetryPolicy.ts';
import { flatHeaders, type RawResponse } from '../transport.ts';
import { Controller, type AnswerHeaders } from './controller.ts';

/** How one attempt ended: its answer read whole, or the error that came instead. */
export type AttemptEnd = { answer: RawResponse } | { error: Error };

/** What the retry interceptor asks, and whom it tells. */
export interface Retrying {
  policy: Pick<RetryPolicy, 'decide' | 'decideNetwork'>;
  clock: Clock;
  /** false: one attempt, whatever comes of it. Default true. */
  retry?: boolean;
  /** Told of each attempt (0, then 1, 2, … for the retries) once its decision is made, before another leaves. */
  onAttempt?: (attempt: number, end: AttemptEnd, decision: RetryDecision | undefined) => void;
}

/** An answer read whole, kept to be handed on as it came. */
interface Buffered {
  status: number;
  headers: AnswerHeaders;
  statusMessage: string | undefined;
  body: Buffer;
  trailers: AnswerHeaders;
}

type Ended = { buffered: Buffered } | { error: Error };

/** The controller of the attempt on the wire, for an abort to reach it. */
interface Wire {
  current?: Dispatcher.DispatchController;
}

export function retry(retrying: Retrying): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) =>
    function retryInterceptor(options, handler) {
      const wire: Wire = {};
      // One controller for the whole request, whichever attempt is on the wire.
      const controller = new Controller({ abort: (reason) => wire.current?.abort(reason) });
      handler.onRequestStart?.(controller, null);
      attempts(dispatch, options, controller, wire, retrying)
        .then((ended) => handOn(handler, controller, ended))
        .catch((error: Error) => handler.onResponseError?.(controller, error));
      return true;
    };
}

async function attempts(
  dispatch: Dispatcher.Dispatch,
  options: Dispatcher.DispatchOptions,
  controller: Controller,
  wire: Wire,
  retrying: Retrying,
): Promise<Ended> {
  for (let attempt = 0; ; attempt++) {
    if (controller.aborted) return { error: controller.reason ?? new Error('aborted') };
    const ended = await attemptOnce(dispatch, options, wire);
    const decision = retrying.retry === false || controller.aborted ? undefined : decide(retrying, ended, attempt);
    retrying.onAttempt?.(attempt, endOf(ended), decision);
    if (!decision) return ended;
    await retrying.clock.sleep(decision.afterMs);
  }
}

function decide({ policy, clock }: Retrying, ended: Ended, attempt: number): RetryDecision | undefined {
  if ('error' in ended) return policy.decideNetwork(networkErrorOf(ended.error).code, attempt);
  return policy.decide({ status: ended.buffered.status, headers: flatHeaders(ended.buffered.headers) }, attempt, clock.now());
}

/** Dispatches one attempt and reads it whole; what fails, refused before it left included, is its error. */
function attemptOnce(dispatch: Dispatcher.Dispatch, options: Dispatcher.DispatchOptions, wire: Wire): Promise<Ended> {
  return new Promise((settle) => {
    const chunks: Buffer[] = [];
    let head: Omit<Buffered, 'body' | 'trailers'> | undefined;
    const collector: Dispatcher.DispatchHandler = {
      onRequestStart: (controller) => void (wire.current = controller),
      onResponseStart: (_controller, status, headers, statusMessage) => {
        if (status >= 200) head = { status, headers, statusMessage };
      },
      onResponseData: (_controller, chunk) => void chunks.push(chunk),
      onResponseEnd: (_controller, trailers) =>
        settle(head ? { buffered: { ...head, body: Buffer.concat(chunks), trailers } } : { error: new Error('the answer ended before its status') }),
      onResponseError: (_controller, error) => settle({ error }),
    };
    try {
      dispatch(options, collector);
    } catch (error) {
      settle({ error: error as Error });
    }
  });
}

/** The attempt as the client reports it: the text decoded as undici's body.text() does (UTF-8, a BOM dropped). */
function endOf(ended: Ended): AttemptEnd {
  if ('error' in ended) return ended;
  const { status, headers, body } = ended.buffered;
  return { answer: { status, headers: flatHeaders(headers), text: new TextDecoder().decode(body) } };
}

/** Hands the last attempt's answer (or error) to the handler as the request's own. */
function handOn(handler: Dispatcher.DispatchHandler, controller: Controller, ended: Ended): void {
  if ('error' in ended) {
    handler.onResponseError?.(controller, ended.error);
    return;
  }
  const { status, headers, statusMessage, body, trailers } = ended.buffered;
  handler.onResponseStart?.(controller, status, headers, statusMessage);
  if (body.length > 0) handler.onResponseData?.(controller, body);
  handler.onResponseEnd?.(controller, trailers);
}
