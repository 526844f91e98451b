import { expect, test } from '../../../src/testing/harnessTest.ts';
import fc from 'fast-check';
import { PropertyEnvError, readPropertyEnv, runProperty } from '../../../properties/support/propertyRun.ts';
import { liveRateBudget, RequestBudget } from '../../../properties/support/liveBudget.ts';

const noEnv = { numRuns: undefined, seed: undefined, path: undefined };

test('readPropertyEnv reads FC_NUM_RUNS, FC_SEED and FC_PATH', () => {
  expect(readPropertyEnv({})).toEqual({ ...noEnv, replayPath: undefined });
  expect(readPropertyEnv({ FC_NUM_RUNS: '500', FC_SEED: '-42', FC_PATH: '3:0:1' })).toEqual({ numRuns: 500, seed: -42, path: '3:0:1', replayPath: undefined });
  expect(readPropertyEnv({ FC_SEED: '7', FC_PATH: '1:1', FC_REPLAY_PATH: 'CFA:F' }).replayPath).toBe('CFA:F');
});

test('readPropertyEnv names the variable and the fix for every bad value', () => {
  const read = (env: Record<string, string>) => () => readPropertyEnv(env);
  expect(read({ FC_NUM_RUNS: 'lots' })).toThrow(/FC_NUM_RUNS is "lots": set it to a whole number/);
  expect(read({ FC_NUM_RUNS: '0' })).toThrow(PropertyEnvError);
  expect(read({ FC_SEED: '1.5' })).toThrow(/FC_SEED is "1.5"/);
  expect(read({ FC_SEED: '1', FC_PATH: '3;1' })).toThrow(/FC_PATH is "3;1"/);
  expect(read({ FC_PATH: '3:1' })).toThrow(/FC_PATH needs FC_SEED/);
  expect(read({ FC_REPLAY_PATH: 'CFA:F' })).toThrow(/FC_REPLAY_PATH is "CFA:F": set it, with FC_SEED and FC_PATH/);
});

test('a failing property reports the seed, the path, the shrunk counterexample and the replay command', async () => {
  const property = fc.asyncProperty(fc.integer({ min: 0, max: 1000 }), async (n) => {
    if (n >= 10) throw new Error(`[demo.rule] ${n} is too big`);
  });
  const outcome = await runProperty(property, { numRuns: 200, title: 'demo' }, noEnv);
  expect(outcome.failed).toBe(true);
  expect(outcome.report).toContain('Counterexample: [10]');
  expect(outcome.report).toContain('What broke: [demo.rule] 10 is too big');
  expect(outcome.replay).toBe(`FC_SEED=${outcome.seed} FC_PATH=${outcome.path} npx playwright test --project=properties -g "demo"`);

  // The printed seed and path replay exactly the shrunk case, first time.
  const seen: number[] = [];
  const replayed = fc.asyncProperty(fc.integer({ min: 0, max: 1000 }), async (n) => {
    seen.push(n);
    if (n >= 10) throw new Error(`[demo.rule] ${n} is too big`);
  });
  const again = await runProperty(replayed, { numRuns: 200 }, { numRuns: undefined, seed: outcome.seed, path: outcome.path! });
  expect(again.failed).toBe(true);
  expect(seen[0]).toBe(10);
});

test('FC_NUM_RUNS overrides the number of cases of a property', async () => {
  let cases = 0;
  const outcome = await runProperty(
    fc.asyncProperty(fc.nat(), async () => void cases++),
    { numRuns: 10 },
    { ...noEnv, numRuns: 37 },
  );
  expect(outcome.failed).toBe(false);
  expect(cases).toBe(37);
});

test('a request budget refuses what would exceed it and says the run stopped early', () => {
  const budget = new RequestBudget(3);
  expect(budget.take(2)).toBe(true);
  expect(budget.stoppedEarly).toBe(false);
  expect(budget.take(2)).toBe(false);
  expect(budget.used).toBe(2);
  expect(budget.stoppedEarly).toBe(true);
  expect(liveRateBudget({})).toBe(60);
  expect(() => liveRateBudget({ LIVE_RATE_BUDGET: '-1' })).toThrow(/LIVE_RATE_BUDGET is "-1"/);
});
