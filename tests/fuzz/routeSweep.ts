/**
 * Walks a route table in order and runs one fast-check property per route:
 * fast-check chooses the malformations, the table decides the routes, so every
 * route gets its cases whatever the seed. Route i runs with seed + i; the
 * first failing route stops the sweep with its shrunk counterexample.
 */
import fc from 'fast-check';
import type { FuzzRoute } from './fuzzRoute.ts';

export interface SweepOptions<C, R extends FuzzRoute> {
  readonly routes: readonly R[];
  readonly caseArb: (route: R) => fc.Arbitrary<C>;
  /** Sends one case and throws (a FuzzFailure) when the answer breaks a rule. */
  readonly runCase: (testCase: C) => Promise<void>;
  /** Cases per route. */
  readonly numRuns: number;
  /** Base seed: route i of the table runs with seed + i. */
  readonly seed: number;
  /** Replays this fast-check path (with `only`: a path belongs to one route's run). */
  readonly path?: string | undefined;
  /** Only the route with this key. */
  readonly only?: string | undefined;
}

export interface SweepFailure<C> {
  readonly route: FuzzRoute;
  /** The base seed and the path that replay the counterexample with `only: route.key`. */
  readonly seed: number;
  readonly path: string;
  readonly counterexample: C;
  /** What broke, as the failing case reported it. */
  readonly message: string;
}

export interface SweepOutcome<C> {
  /** Cases run per route key, shrinking included. */
  readonly casesByRoute: ReadonlyMap<string, number>;
  readonly cases: number;
  readonly elapsedMs: number;
  readonly failure: SweepFailure<C> | undefined;
}

export async function sweepRoutes<C, R extends FuzzRoute>(options: SweepOptions<C, R>): Promise<SweepOutcome<C>> {
  const casesByRoute = new Map<string, number>();
  const started = performance.now();
  let failure: SweepFailure<C> | undefined;
  for (const [index, route] of options.routes.entries()) {
    if (options.only !== undefined && route.key !== options.only) continue;
    casesByRoute.set(route.key, 0);
    const property = fc.asyncProperty(options.caseArb(route), async (testCase) => {
      casesByRoute.set(route.key, (casesByRoute.get(route.key) ?? 0) + 1);
      await options.runCase(testCase);
    });
    const params: fc.Parameters<[C]> = { numRuns: options.numRuns, seed: options.seed + index };
    if (options.path !== undefined) params.path = options.path;
    const details = await fc.check(property, params);
    if (details.failed && details.counterexample) {
      const error = details.errorInstance;
      failure = {
        route,
        seed: options.seed,
        path: details.counterexamplePath ?? '',
        counterexample: details.counterexample[0],
        message: error instanceof Error ? error.message : String(error),
      };
      break;
    }
  }
  const cases = [...casesByRoute.values()].reduce((sum, count) => sum + count, 0);
  return { casesByRoute, cases, elapsedMs: performance.now() - started, failure };
}

/** The report of a failed sweep: the route, the shrunk case, what broke and how to replay it. */
export function failureReport<C>(failure: SweepFailure<C>, replay: string): string {
  return [
    `Fuzzing ${failure.route.key} found a counterexample (shrunk): ${fc.stringify(failure.counterexample)}`,
    '',
    failure.message,
    '',
    `Replay exactly this case: ${replay}`,
  ].join('\n');
}
