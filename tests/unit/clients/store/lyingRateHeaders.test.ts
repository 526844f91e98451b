import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { VirtualClock } from '../../../../src/clock/Clock.ts';
import { StoreClient } from '../../../../src/clients/store/StoreClient.ts';
import { bucketOfPlan, MS_PER_LEAK, STORE_CONTRACT } from '../../../../src/rules/storeContract.ts';
import { FakeBucket, startFakeStore, TOKEN, USER_AGENT, type FakeStore } from './fakeStore.ts';

// store.client.paces-to-bucket against a provider whose rate headers lie (issue 45): they describe the plus plan's
// bucket (400, leaking 20/s), 429s included (Remaining 0, a Reset that fits a full bucket of 400), while it enforces
// the contract's (40, leaking 2/s). Its first unpredicted 429 teaches every client of the store on that clock.

const PLUS = bucketOfPlan('plus');

interface Arrival {
  at: number;
  admitted: boolean;
}

/** Each test its own provider: a store's base URL (and clock) is what a lesson is kept under. */
async function lyingProvider(): Promise<{ store: FakeStore; clock: VirtualClock; arrivals: Arrival[]; bucket: FakeBucket }> {
  const clock = new VirtualClock(1_700_000_000_000);
  const bucket = new FakeBucket(clock);
  const arrivals: Arrival[] = [];
  const store = await startFakeStore(() => {
    const admitted = bucket.tryAdd();
    arrivals.push({ at: clock.now(), admitted });
    // The time the enforced bucket needs to drain, told as a bucket of 400 leaking 20/s would tell it.
    const drainMs = Math.ceil(bucket.units() / FakeBucket.UNITS_PER_MS);
    const remaining = admitted ? Math.floor(PLUS.bucketSize - drainMs / PLUS.msPerLeak) : 0;
    const reset = admitted ? drainMs : PLUS.bucketSize * PLUS.msPerLeak;
    const headers = { 'X-Rate-Limit-Limit': String(PLUS.bucketSize), 'X-Rate-Limit-Remaining': String(remaining), 'X-Rate-Limit-Reset': String(reset) };
    return admitted ? { status: 200, headers, json: [] } : { status: 429, headers, json: { code: 429, message: 'Too Many Requests', description: null } };
  });
  return { store, clock, arrivals, bucket };
}

/** The lines written to stderr while `fn` runs (the pacer's notice goes there). */
async function stderrOf(fn: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  try {
    await fn();
  } finally {
    process.stderr.write = write;
  }
  return lines;
}

test('after one unpredicted 429, a new client of the store paces by the contract bucket without meeting a 429; said once', async () => {
  const { store, clock, arrivals } = await lyingProvider();
  try {
    const client = (): StoreClient => new StoreClient({ baseUrl: store.baseUrl, token: TOKEN, userAgent: USER_AGENT, clock });
    let beforeSecond = 0;
    let secondStarted = 0;
    const lines = await stderrOf(async () => {
      const first = client();
      // The headers leave room for 400: the first client sends until the enforced 40 answer 429, and its retry is served.
      for (let i = 0; i < STORE_CONTRACT.bucketSize + 1; i++) expect((await first.send({ method: 'GET', path: '/products' })).status).toBe(200);
      expect(
        arrivals.filter((a) => !a.admitted),
        'one 429: the one the headers did not predict',
      ).toHaveLength(1);
      beforeSecond = arrivals.length;
      secondStarted = clock.now();
      const second = client();
      for (let i = 0; i < 10; i++) expect((await second.send({ method: 'GET', path: '/products' })).status).toBe(200);
      // And a third, made after the second: the lesson is the store's, not one client's.
      expect((await client().send({ method: 'GET', path: '/products' })).status).toBe(200);
    });
    const later = arrivals.slice(beforeSecond);
    expect(
      later.map((a) => a.admitted),
      'the later clients met no 429',
    ).toEqual(Array(11).fill(true));
    // The bucket is full: each request of theirs leaves one leak of the contract bucket after the one before.
    expect(later.map((a) => a.at - secondStarted)).toEqual(Array.from({ length: 11 }, (_, i) => (i + 1) * MS_PER_LEAK));
    const said = lines.filter((line) => line.startsWith('StoreClient: '));
    expect(said, 'said once, naming the store and what it paces by').toHaveLength(1);
    expect(said[0]).toContain(store.baseUrl);
    expect(said[0]).toContain(`by the contract's bucket from now on (${STORE_CONTRACT.bucketSize} requests, leaking ${STORE_CONTRACT.leakPerSecond}/s)`);
    expect(said[0]).not.toContain(TOKEN);
  } finally {
    await store.close();
  }
});

test("a 429 after another client's requests teaches nothing: the model was behind, not the headers wrong", async () => {
  const clock = new VirtualClock(1_700_000_000_000);
  const bucket = new FakeBucket(clock);
  let refused = 0;
  const store = await startFakeStore(() => {
    const admitted = bucket.tryAdd();
    if (!admitted) refused++;
    return admitted ? { status: 200, headers: bucket.headers(), json: [] } : { status: 429, headers: bucket.headers(), json: { code: 429 } };
  });
  try {
    const make = (pace = true) => new StoreClient({ baseUrl: store.baseUrl, token: TOKEN, userAgent: USER_AGENT, clock, pace });
    const lines = await stderrOf(async () => {
      const paced = make();
      expect((await paced.send({ method: 'GET', path: '/products' })).status).toBe(200);
      // Another client of the same store fills the bucket, unpaced, behind the first one's back.
      const other = make(false);
      for (let i = 0; i < STORE_CONTRACT.bucketSize; i++) await other.send({ method: 'GET', path: '/products', retry: false });
      const before = refused;
      // The first client's model still says room: its request meets a 429 the honest headers explain, and is retried.
      expect((await paced.send({ method: 'GET', path: '/products' })).status).toBe(200);
      expect(refused - before).toBe(1);
    });
    expect(lines.filter((line) => line.startsWith('StoreClient: '))).toEqual([]);
  } finally {
    await store.close();
  }
});

test('retry: false still answers what the provider said, but not the 429 the pacer brought on by believing the lying headers', async () => {
  const { store, clock, arrivals } = await lyingProvider();
  try {
    const client = new StoreClient({ baseUrl: store.baseUrl, token: TOKEN, userAgent: USER_AGENT, clock });
    await stderrOf(async () => {
      const statuses: number[] = [];
      for (let i = 0; i < STORE_CONTRACT.bucketSize + 5; i++) statuses.push((await client.send({ method: 'GET', path: '/products', retry: false })).status);
      // The one 429 taught the pacer; the request it refused was sent once more, when the contract's bucket had room.
      expect(statuses).toEqual(Array(STORE_CONTRACT.bucketSize + 5).fill(200));
      expect(arrivals.filter((a) => !a.admitted)).toHaveLength(1);
      // An unpaced request is the caller's to send into a full bucket: its 429 comes as it came.
      expect((await client.send({ method: 'GET', path: '/products', pace: false, retry: false })).status).toBe(429);
    });
  } finally {
    await store.close();
  }
});
