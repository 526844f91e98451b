/**
 * Guards composed into a request stack as undici interceptors see every request
 * sent on it, the bodyless PUT sent with node:http included (withoutLength.ts).
 * What does not pass the stack at all (Pact's Verifier sends from its own core)
 * asks them here, so no request skips a guard because of who sends it.
 */
import type { Dispatcher } from 'undici';

type Admit = (method: string, path: string) => void;

const ADMISSIONS = new WeakMap<Dispatcher, Admit>();

/** Registers what `dispatcher`'s interceptors check, for requests sent without it. */
export function registerOutsideAdmission(dispatcher: Dispatcher, admit: Admit): void {
  ADMISSIONS.set(dispatcher, admit);
}

/** Asks the guards of `dispatcher`, if it has any, about a request sent without it; throws when they refuse. */
export function admitOutsideDispatcher(dispatcher: Dispatcher | undefined, method: string, path: string): void {
  if (dispatcher) ADMISSIONS.get(dispatcher)?.(method, path);
}
