/**
 * The retry interceptor, in the manner of undici's lib/interceptor/retry.js but
 * asking the client's RetryPolicy: each attempt's answer is read whole (the APIs
 * answer small JSON), the policy decides on its status and headers, or on the
 * error's code when none came (a guard's refusal included), and a retry is
 * dispatched again after `decision.afterMs` on the client's clock. Only the last
 * attempt's answer or error reaches the handler; each attempt, with its timing
 * and decision, is told to `onAttempt` first, so that the client reports every one.
 */
import type { Dispatcher } from 'undici';
import type { Clock } from '../../clock/Clock.ts';
import { networkErrorOf } from '../networkError.ts';
import type { RetryDecision, RetryPolicy } from '../RetryPolicy.ts';
import { flatHeaders } from '../flatHeaders.ts';
import type { RawResponse } from '../transport.ts';
import { Controller, type AnswerHeaders } from './controller.ts';
import type { PacedContext } from './pacing.ts';

/** How one attempt ended: its answer read whole, or the error that came instead. */
export type AttemptEnd = { answer: RawResponse } | { error: Error };

/** One attempt as the retry interceptor tells of it, once its decision is made. */
export interface Attempt {
  /** 0 for the first attempt, then 1, 2, … for the retries. */
  attempt: number;
  /** Clock time it left: after its back-off, and after the pacing below held it. */
  startedAt: number;
  /** Clock time from leaving to its end. */
  durationMs: number;
  /** Clock time the pacing below held it (pacing.ts); 0 without pacing. */
  pacedMs: number;
  end: AttemptEnd;
  /** The retry to come, if any. */
  decision: RetryDecision | undefined;
}

/** What the retry interceptor asks, and whom it tells. */
export interface Retrying {
  policy: Pick<RetryPolicy, 'decide' | 'decideNetwork'>;
  clock: Clock;
  /** false: one attempt, whatever comes of it. Default true. */
  retry?: boolean;
  /** Told of each attempt once its decision is made, before another leaves. */
  onAttempt?: (attempt: Attempt) => void;
}

/** An answer read whole, kept to be handed on as it came. */
interface Buffered {
  status: number;
  headers: AnswerHeaders;
  statusMessage: string | undefined;
  body: Buffer;
  trailers: AnswerHeaders;
}

/** How one attempt came back, and how long the pacing below held it. */
type Ended = ({ buffered: Buffered } | { error: Error }) & PacedContext;

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
  const { clock } = retrying;
  for (let attempt = 0; ; attempt++) {
    if (controller.aborted) return { error: controller.reason ?? new Error('aborted'), pacedMs: 0 };
    const sentAt = clock.now();
    const ended = await attemptOnce(dispatch, options, wire);
    const decision = retrying.retry === false || controller.aborted ? undefined : decide(retrying, ended, attempt);
    retrying.onAttempt?.(attemptOf(attempt, sentAt, ended, decision, clock.now()));
    if (!decision) return ended;
    await clock.sleep(decision.afterMs);
  }
}

function decide({ policy, clock }: Retrying, ended: Ended, attempt: number): RetryDecision | undefined {
  if ('error' in ended) return policy.decideNetwork(networkErrorOf(ended.error).code, attempt);
  return policy.decide({ status: ended.buffered.status, headers: flatHeaders(ended.buffered.headers) }, attempt, clock.now());
}

/** Dispatches one attempt and reads it whole; what fails, refused before it left included, comes to the handler as its error. */
function attemptOnce(dispatch: Dispatcher.Dispatch, options: Dispatcher.DispatchOptions, wire: Wire): Promise<Ended> {
  return new Promise((settle) => {
    const chunks: Buffer[] = [];
    let head: Omit<Buffered, 'body' | 'trailers'> | undefined;
    let pacedMs = 0;
    const collector: Dispatcher.DispatchHandler = {
      onRequestStart: (controller, context) => {
        wire.current = controller;
        pacedMs = (context as Partial<PacedContext> | null)?.pacedMs ?? 0;
      },
      onResponseStart: (_controller, status, headers, statusMessage) => {
        if (status >= 200) head = { status, headers, statusMessage };
      },
      onResponseData: (_controller, chunk) => void chunks.push(chunk),
      onResponseEnd: (_controller, trailers) =>
        settle(
          head
            ? { buffered: { ...head, body: Buffer.concat(chunks), trailers }, pacedMs }
            : { error: new Error('the answer ended before its status'), pacedMs },
        ),
      onResponseError: (_controller, error) => settle({ error, pacedMs }),
    };
    dispatch(options, collector);
  });
}

/** The attempt as it is told: its text decoded as undici's body.text() does (UTF-8, a BOM dropped). */
function attemptOf(attempt: number, sentAt: number, ended: Ended, decision: RetryDecision | undefined, now: number): Attempt {
  const startedAt = sentAt + ended.pacedMs;
  const timing = { attempt, startedAt, durationMs: now - startedAt, pacedMs: ended.pacedMs };
  if ('error' in ended) return { ...timing, end: { error: ended.error }, decision };
  const { status, headers, body } = ended.buffered;
  return { ...timing, end: { answer: { status, headers: flatHeaders(headers), text: new TextDecoder().decode(body) } }, decision };
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
