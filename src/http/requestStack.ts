/**
 * The request stack of one API: `base` with each guard composed around it as
 * an undici interceptor, asked first to last, and under them the base for the
 * one request undici cannot send (withoutLength.ts), so every request a client
 * sends on the stack passes every guard, however it goes on the wire. A client
 * composes its pacing and retries on top (ClientCore.ts). What does not pass
 * the stack at all (the requests Pact's Verifier sends from its own core) asks
 * the same guards, in the same order, through `admitOutsideDispatcher(stack, …)`.
 */
import { getGlobalDispatcher, type Dispatcher } from 'undici';
import { admission, type Admit } from './interceptors/admission.ts';
import { withoutLength } from './interceptors/withoutLength.ts';
import { registerOutsideAdmission } from './outsideAdmission.ts';

const STACKS = new WeakSet<Dispatcher>();
/** The unguarded stack on each dispatcher that is not one, made once. */
const UNGUARDED = new WeakMap<Dispatcher, Dispatcher>();

export function requestStack(
  guards: readonly Admit[],
  base: Dispatcher = getGlobalDispatcher(),
  /** Under the guards, over the base: sees each attempt on the wire (a live run's outage watch, interceptors/outage.ts). */
  wire?: Dispatcher.DispatcherComposeInterceptor,
): Dispatcher {
  // undici's compose makes its last interceptor the outermost: reversed, the first guard is asked first; withoutLength is innermost.
  const stack = base.compose([withoutLength(), ...(wire ? [wire] : []), ...[...guards].reverse().map(admission)]);
  registerOutsideAdmission(stack, (method, path) => {
    for (const admit of guards) admit(method, path);
  });
  STACKS.add(stack);
  return stack;
}

/** `dispatcher` if it is a request stack; otherwise the stack without guards on it (default undici's global dispatcher). */
export function requestStackOn(dispatcher: Dispatcher = getGlobalDispatcher()): Dispatcher {
  if (STACKS.has(dispatcher)) return dispatcher;
  let stack = UNGUARDED.get(dispatcher);
  if (!stack) UNGUARDED.set(dispatcher, (stack = requestStack([], dispatcher)));
  return stack;
}
