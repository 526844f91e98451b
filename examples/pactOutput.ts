/**
 * Where the examples' consumer tests write their pacts. A team writes to its own `pacts/`; here they go
 * to this run's folder first, and examples/pacts.publish.ts moves them into examples/pacts with one
 * rename each, so a run beside this one (npm test runs several) never reads a half-written pact.
 */
import { join } from 'node:path';
import { PACT_OUTPUT_DIR } from '../contracts/pactNames.ts';

export const EXAMPLE_PACT_OUTPUT = join(PACT_OUTPUT_DIR, 'examples');
export const EXAMPLE_PACT_DIR = 'examples/pacts';
