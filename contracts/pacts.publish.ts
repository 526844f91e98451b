/**
 * After the consumer tests: the pacts they wrote replace the committed ones
 * (contracts/pacts), one rename per changed file (publishPacts.ts).
 */
import { test as setup, expect } from '../src/testing/harnessTest.ts';
import { PACT_DIR, PACT_OUTPUT_DIR } from './pactNames.ts';
import { publishPacts } from './publishPacts.ts';

setup('the pacts the consumer tests wrote become the committed pacts', () => {
  expect(publishPacts(PACT_OUTPUT_DIR, PACT_DIR), `the consumer tests wrote no pact into ${PACT_OUTPUT_DIR}`).not.toHaveLength(0);
});
