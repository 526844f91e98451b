/**
 * Pacer.waitForRoom: room for requests someone else sends on the token (Pact's
 * Verifier), waited for on the clock and never by sending a request.
 */
import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { VirtualClock } from '../../../../src/clock/Clock.ts';
import { Pacer } from '../../../../src/clients/store/Pacer.ts';
import { StoreClient } from '../../../../src/clients/store/StoreClient.ts';
import { startFakeStore, TOKEN, USER_AGENT } from './fakeStore.ts';
import { MS_PER_LEAK } from '../../../../src/rules/storeContract.ts';

const reading = (level: number) => ({ limit: 40, remaining: 40 - level, reset: level * MS_PER_LEAK });

test('before any answer the bucket may be full: it waits for the requests to leak out', async () => {
  const clock = new VirtualClock(0);
  await new Pacer(clock).waitForRoom(2);
  expect(clock.now()).toBe(2 * MS_PER_LEAK);
});

test("for its own client's requests an unknown level is no reason to wait ('go'): a known one is", async () => {
  const clock = new VirtualClock(0);
  const pacer = new Pacer(clock);
  await pacer.waitForRoom(1, 'go');
  expect(clock.now(), 'nothing known yet: the first request shows the level').toBe(0);
  pacer.release(pacer.track(), reading(40));
  await pacer.waitForRoom(1, 'go');
  expect(clock.now(), 'a full bucket by the answer: one leak').toBe(MS_PER_LEAK);
});

test('the room it waited for is known afterwards: the next wait follows the model, not a full bucket again', async () => {
  const clock = new VirtualClock(0);
  const pacer = new Pacer(clock);
  await pacer.waitForRoom(1);
  await pacer.waitForRoom(1);
  expect(clock.now(), 'nothing was sent in between: the room is still there').toBe(MS_PER_LEAK);
  pacer.release(pacer.track(), undefined);
  await pacer.waitForRoom(1);
  expect(clock.now(), 'a request without rate headers took that room: one more leak').toBe(2 * MS_PER_LEAK);
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

/** A client whose first answer showed a bucket with room for exactly one more request, and its clock. */
async function withOnePlaceLeft(check: (client: StoreClient, clock: VirtualClock) => Promise<void>): Promise<void> {
  const clock = new VirtualClock(0);
  const store = await startFakeStore(() => ({
    json: [],
    headers: { 'x-rate-limit-limit': '40', 'x-rate-limit-remaining': '1', 'x-rate-limit-reset': String(39 * MS_PER_LEAK) },
  }));
  try {
    const client = new StoreClient({ baseUrl: store.baseUrl, token: TOKEN, userAgent: USER_AGENT, clock });
    await client.listProducts();
    await check(client, clock);
  } finally {
    await store.close();
  }
}

test("StoreClient.holdRoom counts the other program's request once it is answered: the next request waits for it", () =>
  withOnePlaceLeft(async (client, clock) => {
    const answered = await client.holdRoom();
    expect(clock.now(), 'one place left: no wait').toBe(0);
    answered();
    await client.waitForRoom(1);
    expect(clock.now(), 'the held request filled the bucket: the next waits one leak').toBe(MS_PER_LEAK);
  }));

test("StoreClient.holdRoom given the other program's answer takes its rate headers: the level is the provider's, not a guess", () =>
  withOnePlaceLeft(async (client, clock) => {
    const answered = await client.holdRoom();
    // The bucket leaked more than this client counted on: its answer says ten fit, where counting alone says none.
    answered({ status: 200, headers: { 'X-Rate-Limit-Limit': '40', 'X-Rate-Limit-Remaining': '10', 'X-Rate-Limit-Reset': String(30 * MS_PER_LEAK) } });
    await client.waitForRoom(3);
    expect(clock.now(), 'ten fit by the answer: no wait for three').toBe(0);
  }));
