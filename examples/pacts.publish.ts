/**
 * After the examples' consumer tests: the pacts they wrote replace the committed ones in examples/pacts,
 * one rename per changed file, as for the harness's own (contracts/publishPacts.ts).
 */
import { expect, test as setup } from '../src/testing/harnessTest.ts';
import { publishPacts } from '../contracts/publishPacts.ts';
import { EXAMPLE_PACT_DIR, EXAMPLE_PACT_OUTPUT } from './pactOutput.ts';

setup("the pacts the examples' consumer tests wrote become the committed ones", () => {
  expect(publishPacts(EXAMPLE_PACT_OUTPUT, EXAMPLE_PACT_DIR), `the examples' consumer tests wrote no pact into ${EXAMPLE_PACT_OUTPUT}`).not.toHaveLength(0);
});
