import { expect, test } from '../../../src/testing/harnessTest.ts';
import { ModelBucket } from '../../../properties/store/bucketModel.ts';
import { checkAnswer, type BucketModelState } from '../../../properties/store/rateLimit.property.ts';
import type { BucketObservation, BucketWorld } from '../../../properties/store/bucketWorld.ts';

test('the model bucket admits 40 requests from empty, refuses the 41st without counting it, and leaks 2 per second', () => {
  const bucket = new ModelBucket(0);
  for (let i = 1; i <= 40; i++) expect(bucket.request(0)).toMatchObject({ admitted: true, remaining: 40 - i, resetMs: i * 500 });
  expect(bucket.request(0)).toEqual({ admitted: false, limit: 40, remaining: 0, resetMs: 20_000 });
  expect(bucket.waitToFit(0)).toBe(500);
  expect(bucket.request(499).admitted).toBe(false);
  expect(bucket.request(500)).toMatchObject({ admitted: true, remaining: 0, resetMs: 20_000 });
  expect(bucket.drainAt(30_000)).toBe(0);
});

function world(exact: boolean): BucketWorld {
  const fail = () => Promise.reject(new Error('not used'));
  return { exact, stores: 1, tokensPerStore: 1, budget: undefined, now: () => 0, send: fail, wait: fail, close: async () => undefined };
}

function state(): BucketModelState {
  return { plan: undefined, buckets: new Map(), stores: 1, tokensPerStore: 1, store: 0, token: 0 };
}

const answer = (o: Partial<BucketObservation>): BucketObservation => ({ status: 200, limit: 40, remaining: 39, resetMs: 500, sentAt: 0, receivedAt: 0, ...o });

test('on the twin the answer must match the model exactly, and a mismatch names the rule', () => {
  const exact = world(true);
  const model = state();
  checkAnswer(model, exact, 0, answer({}));
  expect(() => checkAnswer(model, exact, 0, answer({ remaining: 38, resetMs: 999 }))).toThrow(/^\[store\.ratelimit\.reset-ms\] X-Rate-Limit-Reset is 999 ms/);
  expect(() => checkAnswer(state(), exact, 0, answer({ limit: 41 }))).toThrow(/^\[store\.ratelimit\.headers\] X-Rate-Limit-Limit is 41/);
  expect(() => checkAnswer(state(), exact, 0, answer({ status: 429, remaining: 40, resetMs: 0 }))).toThrow(/^\[store\.ratelimit\.bucket-429\] answered 429/);
  // Remaining agrees but the drain time does not: the leak rate is what differs.
  expect(() => checkAnswer(state(), exact, 0, answer({ resetMs: 334 }))).toThrow(/^\[store\.ratelimit\.leak-rate\] .* 2\.99 per second, not 2/);
});

test('on live the first answer sets the level and later ones may land anywhere in their round trip plus the tolerance', () => {
  const live = world(false);
  const model = state();
  checkAnswer(model, live, 100, answer({ remaining: 20, resetMs: 10_000, sentAt: 0, receivedAt: 80 }));
  // 1 s later one more request: the level may be 9000-9080 ms plus this one's 500, within 100 ms of slack.
  checkAnswer(model, live, 100, answer({ remaining: 21, resetMs: 9_450, sentAt: 1_080, receivedAt: 1_160 }));
  expect(() => checkAnswer(model, live, 100, answer({ remaining: 38, resetMs: 1_000, sentAt: 1_200, receivedAt: 1_260 }))).toThrow(
    /^\[store\.ratelimit\.reset-ms\]/,
  );
});

test('a live plus-plan bucket (Limit 400, field notes) is held to that plan from its first answer; a Limit no plan has names the rule', () => {
  const live = world(false);
  const model = state();
  checkAnswer(model, live, 0, answer({ limit: 400, remaining: 399, resetMs: 50 }));
  expect(model.plan?.plan).toBe('plus');
  checkAnswer(model, live, 0, answer({ limit: 400, remaining: 398, resetMs: 100 }));
  expect(() => checkAnswer(model, live, 0, answer({ limit: 40, remaining: 38, resetMs: 1000 }))).toThrow(
    /store\.ratelimit\.headers.*X-Rate-Limit-Limit is 40.*expected 400/s,
  );
  expect(() => checkAnswer(state(), live, 0, answer({ limit: 41 }))).toThrow(/X-Rate-Limit-Limit is 41.*expected 40/s);
});
