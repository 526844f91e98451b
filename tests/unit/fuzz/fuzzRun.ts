/**
 * How the fuzz tests run a twin's fuzzer: the repo's FC_* variables (as the
 * properties read them) plus FC_FUZZ_ROUTE to replay one route, an annotation
 * with the cases run, and a report naming the route, the shrunk case, the
 * broken rule and the command that replays it.
 */
import type { TestInfo } from '@playwright/test';
import { relative } from 'node:path';
import { readPropertyEnv } from '../../../properties/support/propertyRun.ts';
import type { FuzzRoute } from '../../fuzz/fuzzRoute.ts';
import { failureReport, sweepRoutes, type SweepOutcome } from '../../fuzz/routeSweep.ts';
import type { TwinFuzzer } from '../../fuzz/twinFuzzer.ts';
import type { FuzzCase } from '../../fuzz/malformation.ts';

/** The seed every fuzz test starts from unless FC_SEED says otherwise. */
export const DEFAULT_FUZZ_SEED = 20_251_122;

export interface FuzzRunOptions<R extends FuzzRoute> {
  /** Cases per route unless FC_NUM_RUNS says otherwise. */
  readonly numRuns: number;
  /** The routes to walk (default: the whole table). */
  readonly routes?: (route: R) => boolean;
}

export interface FuzzRun<R extends FuzzRoute> {
  readonly outcome: SweepOutcome<FuzzCase>;
  readonly routes: readonly R[];
  /** The failure report with its replay command; undefined when every case passed. */
  readonly report: string | undefined;
  /** Keys of routes the run was to walk that got no case (FC_FUZZ_ROUTE walks one). */
  readonly unvisited: readonly string[];
}

/** -g takes a regular expression; a title with brackets or parentheses must match itself. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** FC_FUZZ_ROUTE, checked against the table: a route key as a failure printed it. */
function readOnlyRoute(routes: readonly FuzzRoute[], path: string | undefined): string | undefined {
  const only = process.env.FC_FUZZ_ROUTE?.trim() || undefined;
  if (only !== undefined && !routes.some((route) => route.key === only)) {
    throw new Error(`FC_FUZZ_ROUTE is "${only}": set it to a route key a fuzz failure printed (e.g. "${routes[0]?.key ?? ''}"), or unset it.`);
  }
  if (path !== undefined && only === undefined)
    throw new Error("FC_PATH replays one route's counterexample: set FC_FUZZ_ROUTE to the route the failure printed as well.");
  return only;
}

export async function runFuzzer<R extends FuzzRoute>(testInfo: TestInfo, fuzzer: TwinFuzzer<R>, options: FuzzRunOptions<R>): Promise<FuzzRun<R>> {
  const env = readPropertyEnv();
  const routes = fuzzer.routes.filter(options.routes ?? (() => true));
  const only = readOnlyRoute(routes, env.path);
  const seed = env.seed ?? DEFAULT_FUZZ_SEED;
  const outcome = await sweepRoutes({
    routes,
    caseArb: fuzzer.caseArb,
    runCase: fuzzer.runCase,
    numRuns: env.numRuns ?? options.numRuns,
    seed,
    path: env.path,
    only,
  });
  testInfo.annotations.push({
    type: 'fuzz',
    description: `${outcome.cases} cases over ${outcome.casesByRoute.size} routes in ${Math.round(outcome.elapsedMs)} ms (seed ${seed})`,
  });
  let report: string | undefined;
  if (outcome.failure) {
    const { failure } = outcome;
    const file = relative(process.cwd(), testInfo.file);
    const replay = `FC_SEED=${failure.seed} FC_PATH=${failure.path} FC_FUZZ_ROUTE='${failure.route.key}' npx playwright test --project=unit ${file} -g ${JSON.stringify(escapeRegExp(testInfo.title))}`;
    report = failureReport(failure, replay);
    await testInfo.attach(`counterexample (seed ${failure.seed}, path ${failure.path}, route ${failure.route.key})`, {
      body: report,
      contentType: 'text/plain',
    });
  }
  const walked = only === undefined ? routes : routes.filter((route) => route.key === only);
  const unvisited = walked.filter((route) => (outcome.casesByRoute.get(route.key) ?? 0) === 0).map((route) => route.key);
  return { outcome, routes, report, unvisited };
}
