/**
 * Setup of the consumer-contract run: start from no pact files in this run's
 * output folder, so an interaction removed from the code also leaves the pact
 * (Pact merges into an existing file otherwise).
 */
import { rmSync } from 'node:fs';
import { test as setup } from '../src/testing/harnessTest.ts';
import { PACT_OUTPUT_DIR } from './pactNames.ts';

setup('clear the pact files before the consumer tests write them', () => {
  rmSync(PACT_OUTPUT_DIR, { recursive: true, force: true });
});
