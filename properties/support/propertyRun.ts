/**
 * How every property runs: fast-check's `check` with the run count, seed and
 * path from the environment, and a failure that says what to replay. The
 * report (seed, path, shrunk counterexample, the rule that broke) goes into
 * the error, the console and the Allure attachments.
 */
import fc from 'fast-check';
import type { TestInfo } from '@playwright/test';

export { PropertyEnvError, readPropertyEnv, type PropertyEnv } from '../../src/config/propertyEnv.ts';
import { readPropertyEnv, type PropertyEnv } from '../../src/config/propertyEnv.ts';
import { liveRequestGuard } from '../../src/testing/LiveRequestGuard.ts';
import { notVerifiedForOutage } from '../../src/testing/providerUnreachable.ts';

export interface PropertyOptions {
  /** Cases when FC_NUM_RUNS is not set: small enough to keep `npm test` fast. */
  readonly numRuns: number;
  /** The test's title, for the replay command. */
  readonly title?: string;
}

export interface PropertyOutcome {
  readonly failed: boolean;
  readonly numRuns: number;
  readonly seed: number;
  readonly path: string | null;
  readonly elapsedMs: number;
  /** fast-check's report with the counterexample and the error, or a one-line summary when it passed. */
  readonly report: string;
  /** The command that replays the failure; undefined when it passed. */
  readonly replay: string | undefined;
}

/** Runs a property once (all its cases) and tells what happened, without throwing on a counterexample. */
export async function runProperty<Ts>(
  property: fc.IAsyncProperty<Ts>,
  options: PropertyOptions,
  env: PropertyEnv = readPropertyEnv(),
): Promise<PropertyOutcome> {
  const params: fc.Parameters<Ts> = { numRuns: env.numRuns ?? options.numRuns };
  if (env.seed !== undefined) params.seed = env.seed;
  if (env.path !== undefined) params.path = env.path;
  const started = performance.now();
  const details = await fc.check(property, params);
  const elapsedMs = performance.now() - started;
  if (!details.failed) {
    return {
      failed: false,
      numRuns: details.numRuns,
      seed: details.seed,
      path: null,
      elapsedMs,
      report: `${details.numRuns} cases passed in ${Math.round(elapsedMs)} ms (seed ${details.seed})`,
      replay: undefined,
    };
  }
  const grep = options.title ? ` -g ${JSON.stringify(options.title)}` : '';
  // A model-based counterexample also needs the commands' own replay path, which fast-check prints inside it.
  const commands = /replayPath="([^"]+)"/.exec(fc.stringify(details.counterexample))?.[1];
  const replayPath = commands ? ` FC_REPLAY_PATH=${commands}` : '';
  const replay = `FC_SEED=${details.seed} FC_PATH=${details.counterexamplePath ?? ''}${replayPath} npx playwright test --project=properties${grep}`;
  const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  const report = [
    fc.defaultReportMessage(details) ?? `property failed (seed ${details.seed}, path ${details.counterexamplePath})`,
    '',
    `What broke: ${error}`,
    '',
    `Replay exactly this counterexample: ${replay}`,
  ].join('\n');
  return { failed: true, numRuns: details.numRuns, seed: details.seed, path: details.counterexamplePath, elapsedMs, report, replay };
}

/**
 * Runs a property as a test: annotates the cases run and their rate, attaches
 * the report, and on a counterexample prints it and fails with it.
 */
export async function assertProperty<Ts>(
  testInfo: TestInfo,
  property: fc.IAsyncProperty<Ts>,
  options: Omit<PropertyOptions, 'title'>,
): Promise<PropertyOutcome> {
  const outcome = await runProperty(property, { ...options, title: testInfo.title });
  const perSecond = outcome.elapsedMs > 0 ? Math.round((outcome.numRuns / outcome.elapsedMs) * 1000) : outcome.numRuns;
  testInfo.annotations.push({
    type: 'property',
    description: `${outcome.numRuns} cases, ${Math.round(outcome.elapsedMs)} ms, ${perSecond} cases/s, seed ${outcome.seed}`,
  });
  // A failure names its seed and path in the attachment's title, so the report shows how to replay it.
  const name = outcome.failed ? `counterexample (seed ${outcome.seed}, path ${outcome.path ?? ''})` : 'property.txt';
  await testInfo.attach(name, { body: outcome.report, contentType: 'text/plain' });
  // A provider that stopped answering during the property: not verified, an outage, not a counterexample.
  const guard = liveRequestGuard();
  const api = /[\\/]properties[\\/](store|media)[\\/]/.exec(testInfo.file)?.[1] as 'store' | 'media' | undefined;
  const outage = api ? guard?.unreachable(api) : (guard?.unreachable('store') ?? guard?.unreachable('media'));
  if (outage) testInfo.skip(true, notVerifiedForOutage(testInfo, outage));
  if (outcome.failed) {
    testInfo.annotations.push({ type: 'replay', description: outcome.replay ?? '' });
    console.error(`\n[property] ${testInfo.title}\n${outcome.report}\n`);
    throw new Error(outcome.report);
  }
  return outcome;
}
