/**
 * The interceptor stack of one API: `base` with each guard composed around it
 * as an undici interceptor, asked first to last, so every request a client
 * sends on the stack passes every guard. What cannot pass undici (the PUT
 * without Content-Length that transport.ts sends with node:http, the requests
 * Pact's Verifier sends from its own core) asks the same guards, in the same
 * order, through `admitOutsideDispatcher(stack, …)`.
 */
import { getGlobalDispatcher, type Dispatcher } from 'undici';
import { admission, type Admit } from './interceptors/admission.ts';
import { registerOutsideAdmission } from './outsideAdmission.ts';

export function requestStack(guards: readonly Admit[], base: Dispatcher = getGlobalDispatcher()): Dispatcher {
  // undici's compose makes its last interceptor the outermost: reversed, the first guard is asked first.
  const stack = base.compose([...guards].reverse().map(admission));
  registerOutsideAdmission(stack, (method, path) => {
    for (const admit of guards) admit(method, path);
  });
  return stack;
}
