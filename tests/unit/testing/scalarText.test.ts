import fc from 'fast-check';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { scalarText, scalarValueArb } from '../../../src/testing/scalarText.ts';

const SURROGATE = /[\ud800-\udfff]/;

test('scalarText draws every plane of Unicode and never a lone surrogate, as unit binary does', () => {
  const samples = fc.sample(scalarText({ minLength: 1, maxLength: 40 }), { numRuns: 3000, seed: 7 });
  const codePoints = samples.flatMap((text) => [...text].map((char) => char.codePointAt(0) ?? -1));
  const problems = [
    ...samples
      .filter((text) => SURROGATE.test(text.replace(/[\ud800-\udbff][\udc00-\udfff]/g, '')))
      .map((text) => `a lone surrogate in ${JSON.stringify(text)}`),
    ...samples.filter((text) => [...text].length > 40 || text.length === 0).map((text) => `length out of 1..40: ${JSON.stringify(text)}`),
  ];
  expect(problems).toEqual([]);
  expect(Math.min(...codePoints), 'the control characters').toBe(0);
  expect(
    codePoints.some((point) => point > 0xffff),
    'astral code points',
  ).toBe(true);
  expect(
    codePoints.some((point) => point > 0xdfff && point <= 0xffff),
    'the BMP above the surrogates',
  ).toBe(true);
});

test("scalarText keeps fast-check's dangerous strings, which needs each code point to map back", () => {
  const samples = fc.sample(scalarText({ maxLength: 20 }), { numRuns: 3000, seed: 7 });
  expect(samples.filter((text) => text === '__proto__' || text === 'constructor' || text === 'toString').length).toBeGreaterThan(0);
  const back = ['\u0000', 'a', '\ud7ff', '\ue000', '\u{10ffff}'].map((char) => scalarValueArb.canShrinkWithoutContext(char));
  expect(back).toEqual([true, true, true, true, true]);
  expect(['\ud800', 'ab', 7].map((value) => scalarValueArb.canShrinkWithoutContext(value))).toEqual([false, false, false]);
});
