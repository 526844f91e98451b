/**
 * Text of any Unicode scalar value (every code point but the surrogates): what
 * fast-check's `unit: 'binary'` draws, without its start-up cost. Building a
 * 'binary' string arbitrary maps all 1.1 million code points back to indexes (to
 * find its dangerous-string slices): 1.6-1.9 s of CPU in every process that
 * imports one, Playwright's runner listing the tests included. This unit maps
 * back by arithmetic, so the slices (`__proto__`, `constructor`, …) stay.
 */
import fc from 'fast-check';

const FIRST_SURROGATE = 0xd800;
const SURROGATES = 0x800;
const LAST_CODE_POINT = 0x10ffff;

function toCodePoint(index: number): string {
  return String.fromCodePoint(index < FIRST_SURROGATE ? index : index + SURROGATES);
}

function toIndex(value: unknown): number {
  if (typeof value !== 'string') throw new Error('scalarText: not a string');
  const codePoint = value.codePointAt(0);
  if (codePoint === undefined || String.fromCodePoint(codePoint) !== value) throw new Error('scalarText: not one code point');
  if (codePoint >= FIRST_SURROGATE && codePoint < FIRST_SURROGATE + SURROGATES) throw new Error('scalarText: a surrogate');
  return codePoint < FIRST_SURROGATE ? codePoint : codePoint - SURROGATES;
}

/** One Unicode scalar value, shrinking towards U+0000. */
export const scalarValueArb: fc.Arbitrary<string> = fc.integer({ min: 0, max: LAST_CODE_POINT - SURROGATES }).map(toCodePoint, toIndex);

/** `fc.string({ unit: 'binary', ...constraints })`, built in a millisecond. */
export function scalarText(constraints: Omit<fc.StringConstraints, 'unit'> = {}): fc.Arbitrary<string> {
  return fc.string({ ...constraints, unit: scalarValueArb });
}
