/**
 * Setup of the consumer-contract run: start from no pact files, so an
 * interaction removed from the code also leaves the committed pact (Pact merges
 * into an existing file otherwise).
 */
import { rmSync } from 'node:fs';
import { test as setup } from '../src/testing/harnessTest.ts';

setup('clear the pact files before the consumer tests write them', () => {
  rmSync('contracts/pacts', { recursive: true, force: true });
});
