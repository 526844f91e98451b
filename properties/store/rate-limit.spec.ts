import { expect, test } from '../support/fixtures.ts';
import { assertProperty, readPropertyEnv } from '../support/propertyRun.ts';
import { budgetAnnotation, liveRateBudget, liveRateToleranceMs, RequestBudget } from '../support/liveBudget.ts';
import { checksRules } from '../support/ruleAnnotations.ts';
import { bucketModelProperty } from './rateLimit.property.ts';
import { openLiveBucketWorld, openTwinBucketWorld } from './bucketWorld.ts';
import { pacerProperty } from './pacer.property.ts';
import type { StorePlan } from '../../src/rules/storeContract.ts';

const BUCKET_RULES = ['store.ratelimit.bucket-429', 'store.ratelimit.leak-rate', 'store.ratelimit.headers', 'store.ratelimit.reset-ms'] as const;

// The standard plan (the contract's numbers) and the plus plan (field notes: 10 times both) through one model.
const TWIN_PLANS: readonly { plan: StorePlan; runs: number; maxCommands: number }[] = [
  { plan: 'standard', runs: 40, maxCommands: 15 },
  // A plus bucket is 400 deep: fewer, shorter cases keep the requests per case near the standard plan's.
  { plan: 'plus', runs: 8, maxCommands: 8 },
];

test(
  'the leaky bucket agrees with its model after every command (bursts, pauses, token and store switches)',
  checksRules([...BUCKET_RULES, 'store.ratelimit.per-store-and-token']),
  async ({ storeArena, target }, testInfo) => {
    if (storeArena.kind === 'twin') {
      for (const { plan, runs, maxCommands } of TWIN_PLANS) {
        // Virtual time: each case runs minutes of the bucket's life in milliseconds.
        let virtualMs = 0;
        const open = async () => {
          const world = await openTwinBucketWorld(storeArena, plan);
          return { ...world, close: () => ((virtualMs += world.now()), world.close()) };
        };
        const property = bucketModelProperty({
          open,
          plan,
          switches: true,
          maxWaitMs: 30_000,
          maxCommands,
          toleranceMs: 0,
          replayPath: readPropertyEnv().replayPath,
        });
        const outcome = await test.step(`the ${plan} plan`, () => assertProperty(testInfo, property, { numRuns: runs }));
        testInfo.annotations.push({
          type: 'virtual time',
          description: `${plan} plan: ${Math.round(virtualMs / 1000)} s of the bucket's life in ${Math.round(outcome.elapsedMs)} ms of wall time (x${Math.round(virtualMs / outcome.elapsedMs)})`,
        });
      }
      return;
    }
    // Live: real time, one store and token, a request budget shared by every case.
    const budget = new RequestBudget(liveRateBudget());
    const property = bucketModelProperty({
      open: () => openLiveBucketWorld(storeArena, budget),
      switches: false,
      maxWaitMs: 1_500,
      maxCommands: 5,
      toleranceMs: liveRateToleranceMs(),
      replayPath: readPropertyEnv().replayPath,
    });
    await assertProperty(testInfo, property, { numRuns: 2 });
    testInfo.annotations.push(budgetAnnotation(budget, target));
    expect(budget.used, 'the property sent at least one request to the live store').toBeGreaterThan(0);
  },
);

test(
  'the client pacer never causes a 429 from an empty bucket and never waits longer than the model says',
  checksRules(['store.client.paces-to-bucket'], "it measures the pacer's waits on the twin's virtual clock and needs a bucket that starts empty"),
  async ({ storeArena }, testInfo) => {
    for (const { plan } of TWIN_PLANS) {
      await test.step(`the ${plan} plan`, () => assertProperty(testInfo, pacerProperty(storeArena, plan), { numRuns: plan === 'standard' ? 25 : 10 }));
    }
  },
);
