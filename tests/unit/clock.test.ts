import { expect, test } from '../../src/testing/harnessTest.ts';
import { VirtualClock } from '../../src/clock/Clock.ts';

test('VirtualClock.sleep advances time at once instead of waiting', async () => {
  const clock = new VirtualClock(1_000);
  await clock.sleep(2_500);
  expect(clock.now()).toBe(3_500);
  expect(() => clock.advance(-1)).toThrow(/non-negative/);
});
