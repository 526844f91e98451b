/**
 * What a twin's fuzzer hands the sweep: its route table, the case arbitrary
 * for a route, and a runner bound to the twin's live state.
 */
import type fc from 'fast-check';
import type { FuzzRoute } from './fuzzRoute.ts';
import type { FuzzCase } from './malformation.ts';

export interface TwinFuzzer<R extends FuzzRoute = FuzzRoute> {
  readonly routes: readonly R[];
  readonly caseArb: (route: R) => fc.Arbitrary<FuzzCase>;
  /** Sends one case; throws a FuzzFailure naming the request and the broken rule. */
  readonly runCase: (testCase: FuzzCase) => Promise<void>;
}

/** How long one answer may take; a 5 MB body on loopback needs a few tens of milliseconds. */
export const ANSWER_DEADLINE_MS = 5_000;
