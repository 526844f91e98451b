/**
 * The properties can fail: each runs against a store twin started with one
 * deliberate defect in the rule it checks (src/twins/store/defects.ts) and
 * must find a counterexample whose report names that rule. On every target
 * the twins here are the test's own, in this process.
 */
import { expect, test } from '@playwright/test';
import { startStoreTwin, type RunningStoreTwin } from '../../src/twins/store/server.ts';
import { STORE_DEFECTS, type StoreDefect } from '../../src/twins/store/defects.ts';
import { runProperty } from '../support/propertyRun.ts';
import { twinArena, type StoreArena } from '../support/storeArena.ts';
import { bucketModelProperty } from '../store/rateLimit.property.ts';
import { openTwinBucketWorld } from '../store/bucketWorld.ts';
import type fc from 'fast-check';

interface BrokenCase {
  readonly defect: StoreDefect;
  /** The rule the counterexample's report must name. */
  readonly rule: string;
  readonly property: (arena: StoreArena) => fc.IAsyncProperty<never>;
  readonly numRuns: number;
}

const bucketProperty = (arena: StoreArena) =>
  bucketModelProperty({
    open: () => openTwinBucketWorld(arena),
    switches: true,
    maxWaitMs: 30_000,
    maxCommands: 15,
    toleranceMs: 0,
  }) as fc.IAsyncProperty<never>;

const CASES: readonly BrokenCase[] = [
  { defect: 'bucket-leaks-fast', rule: 'store.ratelimit.leak-rate', property: bucketProperty, numRuns: 200 },
  { defect: 'bucket-off-by-one', rule: 'store.ratelimit.bucket-429', property: bucketProperty, numRuns: 200 },
];

for (const c of CASES) {
  test.describe(`a store twin whose ${STORE_DEFECTS[c.defect].split(': ')[1]}`, () => {
    let twin: RunningStoreTwin;
    test.beforeAll(async () => {
      twin = await startStoreTwin({ defect: c.defect });
    });
    test.afterAll(async () => {
      await twin?.close();
    });

    test(`fails the property of ${c.rule}`, { annotation: { type: 'defect', description: STORE_DEFECTS[c.defect] } }, async ({}, testInfo) => {
      const outcome = await runProperty(
        c.property(twinArena(twin.url)),
        { numRuns: c.numRuns, title: testInfo.title },
        { numRuns: undefined, seed: undefined, path: undefined },
      );
      await testInfo.attach('counterexample.txt', { body: outcome.report, contentType: 'text/plain' });
      expect(outcome.failed, `the property must find a counterexample against a twin whose ${STORE_DEFECTS[c.defect]}`).toBe(true);
      expect(outcome.report, `the report must name the broken rule ${c.rule}`).toContain(`${c.rule}`);
      expect(outcome.replay, 'the report says how to replay the counterexample').toMatch(/FC_SEED=-?\d+ FC_PATH=[\d:]+/);
    });
  });
}
