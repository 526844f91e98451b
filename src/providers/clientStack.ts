/**
 * What every typed client is sent through, whoever makes it: the suites'
 * fixtures, the properties' arenas and the pact states (through the providers),
 * the benches. A client that reaches a real service (live, record, and replay,
 * which stands for one) is sent on the worker's guard's interceptor stack
 * (src/http/requestStack.ts: the write guard, then the request budget, under
 * the client's own retry and pacing, src/http/ClientCore.ts), which counts
 * each attempt; on replay and the twins, which cost nothing, there is no
 * worker's guard and the stack is undici's global dispatcher. A twin is never
 * guarded, even in a live run (the self-tests' twin breaks), unless a test
 * installed a guard for every client (installLiveRequestGuard). Pact's Verifier
 * asks the same stack through the guard's `take`.
 */
import type { Dispatcher } from 'undici';
import type { Exchange } from '../http/Exchange.ts';
import { installedLiveRequestGuard, liveRequestGuard, type LiveApi } from '../testing/LiveRequestGuard.ts';

/** The dispatcher and exchange counting of a client of `api`; `onExchange` is the maker's own listener, called after. */
export function clientStack<E extends Exchange>(
  api: LiveApi,
  reaches: 'twin' | 'service',
  onExchange?: (exchange: E) => void,
): { dispatcher?: Dispatcher; onExchange?: (exchange: E) => void } {
  const guard = reaches === 'service' ? liveRequestGuard() : installedLiveRequestGuard();
  if (!guard) return onExchange ? { onExchange } : {};
  return {
    dispatcher: guard.dispatcher(api),
    onExchange: (exchange) => {
      guard.sent(api, exchange);
      onExchange?.(exchange);
    },
  };
}
