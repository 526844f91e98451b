import { expect, test, verifies, type StoreUnderTest } from '../fixtures/storeFixtures.ts';
import { expectMainLanguage, expectRemainingAsResetSays, expectStatus, jsonOf, rateHeadersOf, uniqueName } from '../fixtures/storeChecks.ts';
import { precondition, says } from '../../src/testing/ruleTest.ts';
import { bucketOfPlan, STORE_CONTRACT, STORE_PLANS, type StorePlan } from '../../src/rules/storeContract.ts';
import { STORE_RULES } from '../../src/rules/storeRules.ts';
import type { StoreClient } from '../../src/clients/store/StoreClient.ts';
import type { StoreResponse } from '../../src/clients/store/types.ts';

// Limits: a leaky bucket of 40 requests leaking 2 per second, per store and token (the standard plan).

/**
 * One unretried request: what the provider does, not what the client smooths over.
 * `pace: true` waits for room first (live: earlier tests may have filled the bucket).
 */
function raw(client: StoreClient, pace = false): Promise<StoreResponse> {
  return client.send({ method: 'GET', path: '/products', query: { per_page: 1 }, pace, retry: false });
}

/** Sends unpaced requests until the first 429 or `max` requests (read before each one: it may grow); returns the answers. */
async function burst(client: StoreClient, max: number | (() => number)): Promise<StoreResponse[]> {
  const answers: StoreResponse[] = [];
  const bound = typeof max === 'number' ? () => max : max;
  for (let i = 0; i < bound(); i++) {
    const res = await raw(client);
    answers.push(res);
    if (res.status === 429) break;
  }
  return answers;
}

/** Why the rate-limit tests that drive the bucket's clock are twin-only. */
const NEEDS_TWIN_CLOCK = 'needs the twin clock';

function twinOf(store: StoreUnderTest) {
  test.skip(!store.twin, NEEDS_TWIN_CLOCK);
  return store.twin!;
}

test(
  ...verifies('store.ratelimit.headers', 'on successes and errors, Remaining counting down', async ({ store, rule }) => {
    const a = await raw(store.client, true);
    const b = await raw(store.client, true);
    expectStatus(a, 200, rule);
    const first = rateHeadersOf(a, rule);
    const second = rateHeadersOf(b, rule);
    // Between the two requests the bucket may leak a little on a real clock.
    expect(second.remaining, says(rule, 'each request takes one from Remaining')).toBeLessThanOrEqual(first.remaining + 1);
    // An error answer carries them too; which 4xx a missing category gets, the contract leaves open.
    const missing = await store.send({ method: 'GET', path: '/categories/999999999', retry: false });
    expect(missing.status >= 400 && missing.status < 500, says(rule, `a missing category answers an error (got ${missing.status})`)).toBe(true);
    const readings = [first, second, rateHeadersOf(missing, rule)];
    // And every page of a walk, not only the first: the pacer reads them on every answer it gets.
    const page1 = await store.send({ method: 'GET', path: '/products', query: { per_page: 2 }, pace: true });
    expectStatus(page1, 200, rule);
    const next = page1.links.next;
    precondition(rule, store.target, next !== undefined, 'a second page of products (more than 2 products, and a Link to it)');
    const page2 = await store.send({ method: 'GET', url: next!, pace: true });
    expectStatus(page2, 200, rule);
    readings.push(rateHeadersOf(page1, rule), rateHeadersOf(page2, rule));
    // What the pacer paces by: Remaining counts the requests that fit, not one fewer nor one more.
    expectRemainingAsResetSays(readings, rule);
  }),
);

test(
  ...verifies(
    'store.ratelimit.headers',
    'on write answers too: a create and an update',
    async ({ store, rule }) => {
      // "Rate headers on responses": a write's answer counts against the bucket and says so like a read's.
      const created = await store.send({ method: 'POST', path: '/categories', json: { name: uniqueName('Rate headers') }, pace: true });
      // Which 2xx a create answers, the contract leaves open (a 200 is an allowed deviation).
      expect(created.status >= 200 && created.status < 300, says(rule, `creating a category answered ${created.status}`)).toBe(true);
      const id = (jsonOf(created, rule) as { id: number }).id;
      store.track('categories', id);
      rateHeadersOf(created, rule);
      const updated = await store.send({ method: 'PUT', path: `/categories/${id}`, json: { name: uniqueName('Rate headers, renamed') }, pace: true });
      expectStatus(updated, 200, rule);
      rateHeadersOf(updated, rule);
    },
    { writes: true },
  ),
);

test(
  ...verifies('store.ratelimit.bucket-429', 'a bounded burst from the remaining capacity', async ({ store, rule }) => {
    const probe = await raw(store.client, true);
    const start = Date.now();
    expectStatus(probe, 200, rule);
    const { remaining, plan } = rateHeadersOf(probe, rule);
    // Bounded: never more than a full bucket plus what leaks meanwhile (a plus plan leaks 20/s) and a margin.
    const leakedSince = () => ((Date.now() - start) / 1000) * plan.leakPerSecond;
    const answers = await burst(store.client, () => remaining + Math.ceil(leakedSince()) + 15);
    const leaked = leakedSince();
    const served = answers.filter((r) => r.status === 200).length;
    const limited = answers.at(-1)!;
    expect(limited.status, says(rule, `after ${answers.length} requests in a burst (Remaining was ${remaining}) no 429 came`)).toBe(429);
    expect(served, says(rule, `429 came after ${served} requests although Remaining said ${remaining}`)).toBeGreaterThanOrEqual(remaining);
    expect(served, says(rule, `${served} requests were served beyond a bucket of ${plan.bucketSize}`)).toBeLessThanOrEqual(remaining + Math.ceil(leaked) + 1);
    const headers = rateHeadersOf(limited, rule);
    expect(headers.remaining, says(rule, 'a 429 says nothing remains')).toBe(0);
    // A 429 is a response too: store.headers.main-language holds on it.
    expectMainLanguage(limited, store.mainLanguage, STORE_RULES['store.headers.main-language']!);
  }),
);

// The twin's bucket on each plan, through the same model: the contract's numbers are the
// standard plan's; a higher plan multiplies the size and the leak (field notes, ASSUMPTIONS.md).
for (const plan of Object.keys(STORE_PLANS) as StorePlan[]) {
  const { bucketSize, leakPerSecond, msPerLeak } = bucketOfPlan(plan);
  const onPlan = async (store: StoreUnderTest) => {
    twinOf(store);
    return plan === 'standard' ? store.twin! : store.openTwinStore({ plan });
  };

  test(
    ...verifies(
      'store.ratelimit.bucket-429',
      `${plan} plan: exactly ${bucketSize} from an empty bucket`,
      async ({ store, rule }) => {
        const twin = await onPlan(store);
        const answers = await burst(twin.clientWith({ pace: false }), bucketSize + 5);
        expect(
          answers.map((a) => a.status),
          says(rule, `${bucketSize} requests fit, the next answers 429`),
        ).toEqual([...Array(bucketSize).fill(200), 429]);
        expect(rateHeadersOf(answers[0]!, rule).remaining, says(rule, `the first request leaves ${bucketSize - 1}`)).toBe(bucketSize - 1);
      },
      { needsTwin: NEEDS_TWIN_CLOCK },
    ),
  );

  test(
    ...verifies('store.ratelimit.leak-rate', `${plan} plan: after 5 s, ${5 * leakPerSecond} more fit`, async ({ store, rule }) => {
      const twin = await onPlan(store);
      const client = twin.clientWith({ pace: false });
      await burst(client, bucketSize + 1);
      await twin.advance(5_000);
      const after = await burst(client, 5 * leakPerSecond + 10);
      expect(after.filter((r) => r.status === 200).length, says(rule, `${leakPerSecond}/s for 5 s frees ${5 * leakPerSecond} places`)).toBe(5 * leakPerSecond);
      await twin.advance(msPerLeak - 1);
      expect((await raw(client)).status, says(rule, 'one place frees only after a whole leak interval')).toBe(429);
      await twin.advance(1);
      expect((await raw(client)).status, says(rule, 'one place frees after a leak interval')).toBe(200);
    }),
  );

  test(
    ...verifies('store.ratelimit.reset-ms', `${plan} plan: Reset is the time to drain the bucket completely`, async ({ store, rule }) => {
      const twin = await onPlan(store);
      const client = twin.clientWith({ pace: false });
      let last: StoreResponse | undefined;
      for (let i = 0; i < 10; i++) last = await raw(client);
      expect(rateHeadersOf(last!, rule).reset, says(rule, `10 requests drain in 10 × ${msPerLeak} ms`)).toBe(10 * msPerLeak);
      // Two leak intervals later: 10 − 2 leaked + 1 new = 9 in the bucket.
      await twin.advance(2 * msPerLeak);
      const level = 9;
      const later = await raw(client);
      expect(rateHeadersOf(later, rule).reset, says(rule, 'Reset falls as the bucket leaks')).toBe(level * msPerLeak);
      expect(rateHeadersOf(later, rule).remaining, says(rule, 'Remaining rises as the bucket leaks')).toBe(bucketSize - level);
    }),
  );

  test(
    ...verifies(
      'store.client.paces-to-bucket',
      `${plan} plan: iterating 260 products 2 at a time meets no 429 and waits no longer than needed`,
      async ({ store, rule }) => {
        const twin = await onPlan(store);
        const statuses: number[] = [];
        const client = twin.clientWith({ onExchange: (e) => statuses.push(e.response?.status ?? 0) });
        const started = twin.clock.now();
        let count = 0;
        for await (const _ of client.iterateProducts({ per_page: 2 })) count++;
        const elapsed = twin.clock.now() - started;
        // The bucket lets a whole bucket through at once, then one per leak interval.
        const minimum = Math.max(0, statuses.length - bucketSize) * msPerLeak;
        expect(count, 'every product visited').toBe(260);
        expect(
          statuses.filter((s) => s === 429),
          says(rule, 'the paced client met a 429'),
        ).toEqual([]);
        expect(statuses.length, 'one request per page of 2').toBe(130);
        expect(elapsed, says(rule, `pacing took ${elapsed} ms of store time; the bucket needs at least ${minimum} ms`)).toBeGreaterThanOrEqual(minimum);
        expect(elapsed, says(rule, `pacing waited ${elapsed - minimum} ms longer than the bucket requires`)).toBeLessThanOrEqual(minimum + msPerLeak);
      },
    ),
  );
}

test(
  ...verifies('store.ratelimit.per-store-and-token', 'a full bucket of one token leaves others served', async ({ store, rule }) => {
    const twin = twinOf(store);
    await burst(twin.clientWith({ pace: false }), STORE_CONTRACT.bucketSize + 1);
    expect((await raw(twin.clientWith({ pace: false }))).status, 'the first token is limited').toBe(429);
    const { token } = await twin.control.addToken(twin.info.storeId);
    expect((await raw(twin.clientWith({ token, pace: false }))).status, says(rule, 'another token of the same store has its own bucket')).toBe(200);
    const other = await store.openTwinStore();
    expect((await raw(other.clientWith({ pace: false }))).status, says(rule, 'another store has its own bucket')).toBe(200);
  }),
);

test(
  ...verifies('store.client.paces-to-bucket', 'a 429 is waited out from the rate headers and retried', async ({ store, rule }) => {
    const twin = twinOf(store);
    await twin.control.injectFaults(twin.info.storeId, { status: 429, count: 2 });
    const started = twin.clock.now();
    const page = await twin.client.listProducts({ per_page: 3 });
    expect(page.items, says(rule, 'the call succeeds after the 429s')).toHaveLength(3);
    expect(twin.clock.now() - started, says(rule, 'the client waited before retrying')).toBeGreaterThan(0);
  }),
);
