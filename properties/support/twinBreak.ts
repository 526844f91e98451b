/**
 * Declares the tests that prove properties can fail: for each case, a store
 * twin started in this process with one deliberate break
 * (src/twins/store/twinBreaks.ts), the property run against it, and the
 * expectation that fast-check finds a counterexample whose report names the
 * rule the twin breaks and says how to replay it.
 */
import { expect, test } from '../../src/testing/harnessTest.ts';
import type fc from 'fast-check';
import { STORE_TWIN_BREAKS, type StoreTwinBreak } from '../../src/twins/store/twinBreaks.ts';
import { startStoreTwin, type RunningStoreTwin } from '../../src/twins/store/server.ts';
import { runProperty, type PropertyOutcome } from './propertyRun.ts';
import { twinArena, type StoreArena } from './storeArena.ts';

export interface StoreTwinBreakCase {
  readonly twinBreak: StoreTwinBreak;
  /** The rule the counterexample's report must name. */
  readonly rule: string;
  /** The property as the suites run it, built on the arena of the twin with the break. */
  readonly property: (arena: StoreArena) => fc.IAsyncProperty<never>;
  /** Enough cases to find the break every time (each case stops at the first counterexample). */
  readonly numRuns: number;
}

/** Runs a property on a twin with a break and checks it went red for the right reason. */
export async function expectRed(outcome: PropertyOutcome, rule: string, twinBreak: string, attach: (report: string) => Promise<void>): Promise<void> {
  await attach(outcome.report);
  expect(outcome.failed, `the property must find a counterexample against a twin whose ${twinBreak}`).toBe(true);
  expect(outcome.report, `the report must name the broken rule ${rule}`).toContain(`[${rule}]`);
  expect(outcome.replay, 'the report says how to replay the counterexample').toMatch(/FC_SEED=-?\d+ FC_PATH=\d+(:\d+)*/);
}

/** One describe per break: its own twin, one test that the property goes red. */
export function declareStoreTwinBreaks(cases: readonly StoreTwinBreakCase[]): void {
  for (const c of cases) {
    const breaks = STORE_TWIN_BREAKS[c.twinBreak];
    test.describe(`store twin with a break: ${breaks}`, () => {
      let twin: RunningStoreTwin | undefined;
      test.beforeAll(async () => {
        twin = await startStoreTwin({ twinBreak: c.twinBreak, onInternalError: () => undefined });
      });
      test.afterAll(async () => {
        await twin?.close();
      });

      test(`the property of ${c.rule} goes red`, { annotation: { type: 'break', description: breaks } }, async ({}, testInfo) => {
        // Fixed run count and a fresh seed: the environment's FC_* variables are for the real properties.
        const outcome = await runProperty(
          c.property(twinArena(twin!.url)),
          { numRuns: c.numRuns, title: testInfo.title },
          { numRuns: undefined, seed: undefined, path: undefined },
        );
        await expectRed(outcome, c.rule, breaks, (report) => testInfo.attach('counterexample.txt', { body: report, contentType: 'text/plain' }));
      });
    });
  }
}
