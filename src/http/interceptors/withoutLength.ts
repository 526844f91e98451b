import type * as http from 'node:http';
import * as https from 'node:https';
import type { Dispatcher } from 'undici';
import { request as httpRequest } from '../nodeHttp.ts';
import { Controller } from './controller.ts';

/** The dispatch option that marks a request to be sent without Content-Length. */
export interface LengthOption {
  /** Send with neither Content-Length nor Transfer-Encoding (store.http.put-without-length-411). */
  omitContentLength?: boolean;
}

/**
 * The base of a request stack for the one request undici cannot send: undici
 * always writes Content-Length: 0 on a bodyless PUT, so a request marked
 * `omitContentLength` is sent here with node:http, which can drop both
 * Content-Length and Transfer-Encoding, instead of going on to the dispatcher
 * below. Composed innermost (requestStack.ts), so the guards above it, and the
 * client's pacing and retries, see it like any other request.
 */
export function withoutLength(): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) =>
    function withoutLengthInterceptor(options, handler) {
      if (!(options as LengthOption).omitContentLength) return dispatch(options, handler);
      try {
        sendWithoutLength(options, handler);
      } catch (error) {
        // A request node:http will not make (a header it refuses) fails as undici's dispatchers fail one: to the handler.
        handler.onResponseError?.(new Controller(), error as Error);
        return false;
      }
      return true;
    };
}

/** Sends with node:http and hands the answer to `handler` as undici's client would. */
function sendWithoutLength(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): void {
  const url = new URL(options.path, options.origin);
  const send = url.protocol === 'https:' ? https.request : httpRequest;
  // The clients send plain header records (WireRequest.headers).
  const req = send(url, { method: options.method, headers: options.headers as http.OutgoingHttpHeaders });
  req.removeHeader('content-length');
  req.removeHeader('transfer-encoding');
  let res: http.IncomingMessage | undefined;
  let settled = false;
  const controller = new Controller({ abort: (reason) => req.destroy(reason), pause: () => res?.pause(), resume: () => res?.resume() });
  const fail = (error: Error) => {
    if (settled) return;
    settled = true;
    handler.onResponseError?.(controller, error);
  };
  handler.onRequestStart?.(controller, null);
  req.on('error', fail);
  req.on('response', (answer) => {
    res = answer;
    handler.onResponseStart?.(controller, answer.statusCode ?? 0, answer.headers, answer.statusMessage);
    answer.on('data', (chunk: Buffer) => handler.onResponseData?.(controller, chunk));
    answer.on('error', fail);
    answer.on('end', () => {
      if (settled) return;
      settled = true;
      handler.onResponseEnd?.(controller, answer.trailers);
    });
  });
  req.end();
}
