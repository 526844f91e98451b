import type { Dispatcher } from 'undici';
import { Controller } from './controller.ts';

/** Asks whether a request may leave; throws to refuse it. */
export type Admit = (method: string, path: string) => void;

/**
 * An undici interceptor (the shape of undici's lib/interceptor/*.js) that asks
 * `admit` before each request leaves. A refusal is the request's error, handed
 * to the handler as undici's own dispatchers hand theirs (DispatcherBase.dispatch):
 * it never reaches the network, and the interceptors above see it as an attempt
 * without an answer, with the refusal's code (not retryable).
 */
export function admission(admit: Admit): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) =>
    function admissionInterceptor(options, handler) {
      try {
        admit(options.method, options.path);
      } catch (refusal) {
        handler.onResponseError?.(new Controller(), refusal as Error);
        return false;
      }
      return dispatch(options, handler);
    };
}
