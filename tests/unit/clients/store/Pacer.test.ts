import { expect, test } from '../../../../src/testing/harnessTest.ts';
import fc from 'fast-check';
import { VirtualClock } from '../../../../src/clock/Clock.ts';
import { StoreClient } from '../../../../src/clients/store/StoreClient.ts';
import { claimsRoom, observedDrainMs, Pacer } from '../../../../src/clients/store/Pacer.ts';
import { MS_PER_LEAK, STORE_CONTRACT } from '../../../../src/rules/storeContract.ts';
import { PACER_LESSONS_VARIABLE } from '../../../../src/clients/store/pacerLessons.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeBucket, startFakeStore, TOKEN, USER_AGENT, type FakeStore } from './fakeStore.ts';

// store.client.paces-to-bucket: from an empty bucket the client never meets a 429,
// and never waits longer than one more request needs to fit.

const { bucketSize } = STORE_CONTRACT;

interface Arrival {
  at: number;
  /** Bucket level in units (1000 a request) when the request arrived, before it was added. */
  unitsBefore: number;
  admitted: boolean;
}

let store: FakeStore;
let clock = new VirtualClock(0);
let bucket = new FakeBucket(clock);
let arrivals: Arrival[] = [];

function freshProvider(): void {
  clock = new VirtualClock(1_700_000_000_000);
  bucket = new FakeBucket(clock);
  arrivals = [];
}

function pacedClient(): StoreClient {
  return new StoreClient({ baseUrl: store.baseUrl, token: TOKEN, userAgent: USER_AGENT, clock });
}

test.beforeAll(async () => {
  store = await startFakeStore(() => {
    const unitsBefore = bucket.units();
    const admitted = bucket.tryAdd();
    arrivals.push({ at: clock.now(), unitsBefore, admitted });
    return admitted
      ? { status: 200, headers: bucket.headers(), json: [] }
      : { status: 429, headers: bucket.headers(), json: { code: 429, message: 'Too Many Requests', description: null } };
  });
});

test.afterAll(async () => {
  await store.close();
});

test.describe('a paced client against the documented bucket on the same clock', () => {
  test('a burst of 130 from an empty bucket: 40 at once, then one per leak interval, no 429', async () => {
    freshProvider();
    const client = pacedClient();
    const started = clock.now();
    const statuses: number[] = [];
    for (let i = 0; i < 130; i++) statuses.push((await client.send({ method: 'GET', path: '/products' })).status);
    expect(statuses).toEqual(Array(130).fill(200));
    expect(arrivals.every((a) => a.admitted)).toBe(true);
    expect(arrivals).toHaveLength(130);
    expect(clock.now() - started).toBe((130 - bucketSize) * MS_PER_LEAK);
    expect(arrivals.slice(0, bucketSize).every((a) => a.at === started)).toBe(true);
  });

  test('any sequence of calls with pauses: no 429, and every wait is the shortest that fits', async () => {
    // Mostly back to back, so the bucket fills and the pacer has to wait; odd pauses make the level fractional.
    const gapArb = fc.oneof(
      { arbitrary: fc.constant(0), weight: 6 },
      { arbitrary: fc.integer({ min: 1, max: 40 }), weight: 2 },
      { arbitrary: fc.integer({ min: 0, max: 3_000 }), weight: 1 },
    );
    let waits = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(gapArb, { minLength: 30, maxLength: 160, size: 'max' }), async (gaps) => {
        freshProvider();
        const client = pacedClient();
        for (const gap of gaps) {
          clock.advance(gap);
          const calledAt = clock.now();
          const res = await client.send({ method: 'GET', path: '/products' });
          const arrival = arrivals.at(-1)!;
          // Plain checks in the loop (fast-check reports the throw): an expect per request is a Playwright step each.
          if (res.status !== 200 || !arrival.admitted) throw new Error(`the client met a ${res.status} at ${arrival.at} ms`);
          if (arrival.at > calledAt) {
            waits++;
            // It waited: one millisecond earlier the bucket (1 ms less leaked) had no room.
            if (bucket.fitsAtLevel(arrival.unitsBefore + FakeBucket.UNITS_PER_MS)) throw new Error(`waited ${arrival.at - calledAt} ms longer than needed`);
          }
        }
        expect(arrivals, 'one request per call: no 429 was retried').toHaveLength(gaps.length);
      }),
      // Each case is up to 160 real requests: 15 cases keep the gate fast and still meet a full bucket hundreds of times.
      { numRuns: 15 },
    );
    expect(waits, 'the sequences reached a full bucket').toBeGreaterThan(100);
  });

  test('concurrent calls count the requests in flight: no 429', async () => {
    const groupArb = fc.record({ gap: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 2_000 })), parallel: fc.integer({ min: 1, max: 12 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(groupArb, { minLength: 1, maxLength: 25 }), async (groups) => {
        freshProvider();
        const client = pacedClient();
        let calls = 0;
        for (const { gap, parallel } of groups) {
          clock.advance(gap);
          calls += parallel;
          const answers = await Promise.all(Array.from({ length: parallel }, () => client.send({ method: 'GET', path: '/products' })));
          expect(answers.map((a) => a.status)).toEqual(Array(parallel).fill(200));
        }
        expect(
          arrivals.filter((a) => !a.admitted),
          'the client met a 429',
        ).toEqual([]);
        expect(arrivals).toHaveLength(calls);
      }),
      { numRuns: 10 },
    );
  });

  test('a bucket someone else filled: the first 429 is waited out from Reset, then pacing holds', async () => {
    freshProvider();
    for (let i = 0; i < bucketSize; i++) bucket.tryAdd();
    const client = pacedClient();
    const started = clock.now();
    for (let i = 0; i < 10; i++) expect((await client.send({ method: 'GET', path: '/products' })).status).toBe(200);
    expect(arrivals.map((a) => a.admitted)).toEqual([false, ...Array(10).fill(true)]);
    // Reset − (limit − 1) × 500 ms for the retry, then one leak interval per request.
    expect(clock.now() - started).toBe(10 * MS_PER_LEAK);
  });

  test('pace: false sends at once; the next paced request still counts it', async () => {
    freshProvider();
    const client = pacedClient();
    for (let i = 0; i < bucketSize; i++) await client.send({ method: 'GET', path: '/products', pace: false });
    const before = clock.now();
    expect(before).toBe(arrivals[0]!.at);
    expect((await client.send({ method: 'GET', path: '/products' })).status).toBe(200);
    expect(clock.now() - before).toBe(MS_PER_LEAK);
  });
});

test.describe('Pacer model', () => {
  test('Reset gives the exact level when it agrees with Remaining; a Reset in seconds is not believed', () => {
    expect(observedDrainMs({ limit: 40, remaining: 31, reset: 4_500 }, 40)).toBe(4_500);
    // 39.3 requests: Remaining rounds down to 0, Reset says 19 650 ms exactly.
    expect(observedDrainMs({ limit: 40, remaining: 0, reset: 19_650 }, 40)).toBe(19_650);
    expect(observedDrainMs({ limit: 40, remaining: 0, reset: 20 }, 40)).toBe(20_000);
    expect(observedDrainMs({ limit: undefined, remaining: 38, reset: undefined }, 40)).toBe(1_000);
    expect(observedDrainMs(undefined, 40)).toBeUndefined();
  });

  test('an answer alone on the wire sets the level, even lower; an overlapping stale one cannot lower it', () => {
    const clock = new VirtualClock(0);
    const pacer = new Pacer(clock);
    const reading = (level: number) => ({ limit: 40, remaining: 40 - level, reset: level * MS_PER_LEAK });

    pacer.release(pacer.track(), reading(40));
    expect(pacer.level()).toBe(40);
    pacer.release(pacer.track(), reading(3));
    expect(pacer.level()).toBe(3);

    const a = pacer.track();
    const b = pacer.track();
    pacer.release(b, reading(5));
    pacer.release(a, reading(4));
    expect(pacer.level()).toBe(5);
  });

  test('requests in flight take room; without rate headers an answer counts as one request', async () => {
    const clock = new VirtualClock(0);
    const pacer = new Pacer(clock);
    pacer.release(pacer.track(), { limit: 40, remaining: 2, reset: 38 * MS_PER_LEAK });
    const inFlight = pacer.track();
    expect(pacer.waitNeeded()).toBe(0);
    const second = pacer.track();
    expect(pacer.waitNeeded()).toBe(MS_PER_LEAK);
    pacer.release(inFlight, undefined);
    pacer.release(second, undefined);
    expect(pacer.level()).toBe(40);
    const ticket = await pacer.acquire();
    expect(clock.now()).toBe(MS_PER_LEAK);
    pacer.release(ticket, undefined);
  });

  test('a 429 whose headers say a request fits: the headers are not read again, the contract bucket is counted, each 429 shows it full', () => {
    const clock = new VirtualClock(0);
    const pacer = new Pacer(clock);
    // The plus plan's headers, a bucket nearly empty: what a provider that enforces a smaller bucket may keep saying.
    const plusEmpty = { limit: 400, remaining: 399, reset: 50 };
    pacer.release(pacer.track(), plusEmpty);
    expect(pacer.capacity).toBe(400);
    pacer.release(pacer.track(), plusEmpty, true);
    expect(pacer.distrustsHeaders).toBe(true);
    expect(pacer.capacity).toBe(STORE_CONTRACT.bucketSize);
    expect(pacer.level(), 'a 429 shows the bucket full').toBe(bucketSize);
    expect(pacer.waitNeeded(), 'the next request waits one leak of the contract bucket').toBe(MS_PER_LEAK);
    clock.advance(MS_PER_LEAK);
    // The lying headers of a later success are not read: the request is counted instead.
    pacer.release(pacer.track(), plusEmpty);
    expect(pacer.level()).toBe(bucketSize);
    expect(pacer.waitNeeded()).toBe(MS_PER_LEAK);
  });

  test('a 429 that says the bucket is full, or says nothing, keeps the headers trusted', () => {
    const clock = new VirtualClock(0);
    const pacer = new Pacer(clock);
    pacer.release(pacer.track(), { limit: 40, remaining: 0, reset: 39.5 * MS_PER_LEAK }, true);
    pacer.release(pacer.track(), undefined, true);
    expect(pacer.distrustsHeaders).toBe(false);
    expect(claimsRoom({ limit: 40, remaining: 0, reset: 40 * MS_PER_LEAK }, 40)).toBe(false);
    expect(claimsRoom({ limit: 40, remaining: 3, reset: 40 * MS_PER_LEAK }, 40)).toBe(true);
    expect(claimsRoom({ limit: 40, remaining: undefined, reset: 0 }, 40)).toBe(true);
    expect(claimsRoom({ limit: 40, remaining: undefined, reset: 39 * MS_PER_LEAK }, 40)).toBe(false);
    expect(claimsRoom(undefined, 40)).toBe(false);
  });

  test("the lesson is the run's: a pacer of another worker process starts by the contract's bucket, and it is said once", () => {
    const dir = mkdtempSync(join(tmpdir(), 'pacer-lessons-'));
    const before = process.env[PACER_LESSONS_VARIABLE];
    process.env[PACER_LESSONS_VARIABLE] = join(dir, 'lessons');
    writeFileSync(join(dir, 'lessons'), '');
    try {
      const store = 'http://127.0.0.1:9/v1/100001';
      const said: string[] = [];
      // A clock of its own stands for another process: pacers share a ledger only on one clock.
      const first = new Pacer(new VirtualClock(0), { store, notice: (line) => said.push(line) });
      first.release(first.track(), { limit: 400, remaining: 399, reset: 50 });
      first.release(first.track(), { limit: 400, remaining: 399, reset: 50 }, true);
      expect(said).toHaveLength(1);
      const later = new Pacer(new VirtualClock(0), { store, notice: (line) => said.push(line) });
      expect(later.distrustsHeaders, 'a worker started after the lesson').toBe(true);
      expect(later.capacity).toBe(STORE_CONTRACT.bucketSize);
      later.release(later.track(), { limit: 400, remaining: 399, reset: 50 }, true);
      expect(said, 'said once in the run').toHaveLength(1);
      const other = new Pacer(new VirtualClock(0), { store: 'http://127.0.0.1:9/v1/200002', notice: (line) => said.push(line) });
      expect(other.distrustsHeaders, "another store's headers are still read").toBe(false);
    } finally {
      if (before === undefined) delete process.env[PACER_LESSONS_VARIABLE];
      else process.env[PACER_LESSONS_VARIABLE] = before;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
