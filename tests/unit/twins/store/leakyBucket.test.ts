import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { MS_PER_LEAK, STORE_CONTRACT } from '../../../../src/rules/storeContract.ts';
import { LeakyBucket, rateLimitHeaders } from '../../../../src/twins/store/leakyBucket.ts';

const { bucketSize, leakPerSecond } = STORE_CONTRACT;

test('store.ratelimit.bucket-429: a burst fills the bucket and the next request does not fit', () => {
  const bucket = new LeakyBucket(0);
  for (let i = 0; i < bucketSize; i += 1) expect(bucket.tryAdd(0)).toBe(true);
  expect(bucket.tryAdd(0)).toBe(false);
  expect(bucket.level(0)).toBe(bucketSize);
});

test('store.ratelimit.leak-rate: the bucket leaks continuously at the contract rate', () => {
  const bucket = new LeakyBucket(0);
  for (let i = 0; i < bucketSize; i += 1) bucket.tryAdd(0);
  expect(bucket.tryAdd(MS_PER_LEAK - 1), 'not quite one request leaked').toBe(false);
  expect(bucket.tryAdd(MS_PER_LEAK), 'one request leaked').toBe(true);
  expect(bucket.tryAdd(MS_PER_LEAK)).toBe(false);
  expect(bucket.level(MS_PER_LEAK + 1000)).toBe(bucketSize - leakPerSecond);
  expect(bucket.level(10 * 60_000), 'never below empty').toBe(0);
});

test('store.ratelimit.headers and store.ratelimit.reset-ms: remaining is floored, reset is ms until empty', () => {
  const bucket = new LeakyBucket(1_000);
  expect(bucket.read(1_000)).toEqual({ limit: bucketSize, remaining: bucketSize, resetMs: 0 });
  bucket.tryAdd(1_000);
  bucket.tryAdd(1_000);
  expect(bucket.read(1_000)).toEqual({ limit: bucketSize, remaining: bucketSize - 2, resetMs: 1_000 });
  // 1.7 requests leak-free left after 150 ms at 2/s: remaining floor(38.3) = 38, reset ceil(850).
  expect(bucket.read(1_150)).toEqual({ limit: bucketSize, remaining: bucketSize - 2, resetMs: 850 });
  expect(rateLimitHeaders(bucket.read(1_150))).toEqual({
    'X-Rate-Limit-Limit': String(bucketSize),
    'X-Rate-Limit-Remaining': String(bucketSize - 2),
    'X-Rate-Limit-Reset': '850',
  });
  expect(bucket.fullReading()).toEqual({ limit: bucketSize, remaining: 0, resetMs: (bucketSize / leakPerSecond) * 1000 });
});

test('a clock set backwards leaks nothing and does not leak the same time twice', () => {
  const bucket = new LeakyBucket(10_000);
  for (let i = 0; i < bucketSize; i += 1) bucket.tryAdd(10_000);
  expect(bucket.tryAdd(5_000)).toBe(false);
  expect(bucket.level(5_000)).toBe(bucketSize);
  expect(bucket.level(10_000 + MS_PER_LEAK)).toBe(bucketSize - 1);
});
