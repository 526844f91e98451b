/**
 * Guards composed into a dispatcher as undici interceptors see every request
 * that goes through undici. The one request that cannot (a PUT without
 * Content-Length, sent with node:http by transport.ts) asks them here, so no
 * request skips a guard because of how it is sent.
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
