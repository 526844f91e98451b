import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { STORE_CONTRACT } from '../../../../src/rules/storeContract.ts';
import { LATEST_TIMESTAMP_MS, formatTimestamp, parseTimestamp, toWholeSecond } from '../../../../src/twins/store/timestamps.ts';

test('store.timestamps.format: UTC, whole seconds, +0000 without a colon', () => {
  const written = formatTimestamp(Date.UTC(2026, 0, 1, 0, 0, 0, 999));
  expect(written).toBe('2026-01-01T00:00:00+0000');
  expect(written).toMatch(STORE_CONTRACT.timestampPattern);
  expect(formatTimestamp(Date.UTC(2012, 1, 19, 17, 34, 36))).toBe('2012-02-19T17:34:36+0000');
  expect(formatTimestamp(LATEST_TIMESTAMP_MS)).toBe('9999-12-31T23:59:59+0000');
  expect(() => formatTimestamp(LATEST_TIMESTAMP_MS + 1000)).toThrow(RangeError);
  expect(() => formatTimestamp(Number.NaN)).toThrow(RangeError);
  expect(toWholeSecond(1_999)).toBe(1_000);
});

test('filters read the contract form, the docs form with a colon, Z, date-only, and a "+" that arrived as a space', () => {
  const expected = Date.UTC(2025, 0, 31, 12, 0, 0);
  expect(parseTimestamp('2025-01-31T12:00:00+0000')).toBe(expected);
  expect(parseTimestamp('2025-01-31T09:00:00-03:00')).toBe(expected);
  expect(parseTimestamp('2025-01-31T12:00:00Z')).toBe(expected);
  expect(parseTimestamp('2025-01-31T12:00:00 0000')).toBe(expected);
  expect(parseTimestamp('2025-01-31T12:00:00')).toBe(expected);
  expect(parseTimestamp('2025-01-31T12:00:00.250Z')).toBe(expected + 250);
  expect(parseTimestamp('2025-01-31')).toBe(Date.UTC(2025, 0, 31));
  expect(parseTimestamp('0099-01-01')).toBe(new Date('0099-01-01T00:00:00Z').getTime());
  // What formatTimestamp writes reads back to the same instant.
  expect(parseTimestamp(formatTimestamp(expected))).toBe(expected);
});

test('anything else is not a date', () => {
  for (const text of ['', 'yesterday', '2025-02-30', '2025-13-01', '2025-01-31T24:00:00', '2025-01-31T12:00:00+2500', '1e9999', '2025-1-3']) {
    expect(parseTimestamp(text), text).toBeUndefined();
  }
});
