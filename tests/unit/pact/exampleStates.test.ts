/**
 * npm test verifies the examples' committed pacts with tests/fixtures/pact-states.ts; the example itself ships
 * examples/store-product-sync/pact-states.ts, which imports the installed package. The two say the same thing.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '../../../src/testing/harnessTest.ts';

/** A states file's text below its imports: what it defines. */
const definitions = (path: string): string => readFileSync(path, 'utf8').replace(/^[\s\S]*?\nexport default /, '');

test("the gate's copy of the product sync's states is the example's, word for word", () => {
  const example = definitions('examples/store-product-sync/pact-states.ts');
  expect(example).toContain("name: 'a catalogue for the product sync'");
  expect(definitions('tests/fixtures/pact-states.ts')).toBe(example);
});
