/**
 * Declares the tests that prove properties can fail: for each case, a store
 * twin started in this process with one deliberate defect
 * (src/twins/store/defects.ts), the property run against it, and the
 * expectation that fast-check finds a counterexample whose report names the
 * rule the defect breaks and says how to replay it.
 */
import { expect, test } from '../../src/testing/harnessTest.ts';
import type fc from 'fast-check';
import { STORE_DEFECTS, type StoreDefect } from '../../src/twins/store/defects.ts';
import { startStoreTwin, type RunningStoreTwin } from '../../src/twins/store/server.ts';
import { runProperty, type PropertyOutcome } from './propertyRun.ts';
import { twinArena, type StoreArena } from './storeArena.ts';

export interface BrokenStoreCase {
  readonly defect: StoreDefect;
  /** The rule the counterexample's report must name. */
  readonly rule: string;
  /** The property as the suites run it, built on the broken twin's arena. */
  readonly property: (arena: StoreArena) => fc.IAsyncProperty<never>;
  /** Enough cases to find the defect every time (each case stops at the first counterexample). */
  readonly numRuns: number;
}

/** Runs a property on a broken twin and checks it went red for the right reason. */
export async function expectRed(outcome: PropertyOutcome, rule: string, defect: string, attach: (report: string) => Promise<void>): Promise<void> {
  await attach(outcome.report);
  expect(outcome.failed, `the property must find a counterexample against a twin whose ${defect}`).toBe(true);
  expect(outcome.report, `the report must name the broken rule ${rule}`).toContain(`[${rule}]`);
  expect(outcome.replay, 'the report says how to replay the counterexample').toMatch(/FC_SEED=-?\d+ FC_PATH=\d+(:\d+)*/);
}

/** One describe per defect: its own twin, one test that the property goes red. */
export function declareBrokenStoreTwins(cases: readonly BrokenStoreCase[]): void {
  for (const c of cases) {
    const breaks = STORE_DEFECTS[c.defect];
    test.describe(`store twin with a defect: ${breaks}`, () => {
      let twin: RunningStoreTwin | undefined;
      test.beforeAll(async () => {
        twin = await startStoreTwin({ defect: c.defect, onInternalError: () => undefined });
      });
      test.afterAll(async () => {
        await twin?.close();
      });

      test(`the property of ${c.rule} goes red`, { annotation: { type: 'defect', description: breaks } }, async ({}, testInfo) => {
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
