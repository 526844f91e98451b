/**
 * Pacer.waitForRoom: room for requests someone else sends on the token (Pact's
 * Verifier), waited for on the clock and never by sending a request.
 */
import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { VirtualClock } from '../../../../src/clock/Clock.ts';
import { Pacer } from '../../../../src/clients/store/Pacer.ts';
import { MS_PER_LEAK } from '../../../../src/rules/storeContract.ts';

const reading = (level: number) => ({ limit: 40, remaining: 40 - level, reset: level * MS_PER_LEAK });

test('before any answer the bucket may be full: it waits for the requests to leak out', async () => {
  const clock = new VirtualClock(0);
  await new Pacer(clock).waitForRoom(2);
  expect(clock.now()).toBe(2 * MS_PER_LEAK);
});

test('with the level known, it waits just until the requests fit', async () => {
  const clock = new VirtualClock(0);
  const pacer = new Pacer(clock);
  pacer.release(pacer.track(), reading(40));
  await pacer.waitForRoom(1);
  expect(clock.now(), 'a full bucket: one request leaks out').toBe(MS_PER_LEAK);

  pacer.release(pacer.track(), reading(10));
  const before = clock.now();
  await pacer.waitForRoom(1);
  expect(clock.now(), 'room already: no wait').toBe(before);
});
