import type { Dispatcher } from 'undici';

/** Asks whether a request may leave; throws to refuse it. */
export type Admit = (method: string, path: string) => void;

/**
 * An undici interceptor (the shape of undici's lib/interceptor/*.js) that asks
 * `admit` before each request leaves. A refusal is the request's error: it
 * never reaches the network, and the client reports it as an attempt without
 * an answer, with the refusal's code (not retryable).
 */
export function admission(admit: Admit): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) =>
    function admissionInterceptor(options, handler) {
      admit(options.method, options.path);
      return dispatch(options, handler);
    };
}
