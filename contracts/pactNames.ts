/**
 * Who each pact is between and where pacts live: the one place the consumer
 * tests, the verification, the static check and the broker scripts take these
 * names from.
 */
import { reportPath, runName } from '../src/config/env.ts';

/** The committed pacts (a contract change shows in review): what the verification, the static check and the broker read. */
export const PACT_DIR = 'contracts/pacts';

/**
 * Where this run's consumer tests write. contracts/pacts.publish.ts then moves
 * each changed pact into PACT_DIR with one rename, so a run beside this one
 * (npm test runs several at once) never reads a missing or half-written pact.
 */
export const PACT_OUTPUT_DIR = reportPath('pacts', runName() ?? 'default');

export const STORE_PACT = { consumer: 'store-integration', provider: 'store-commerce-api', dir: PACT_DIR } as const;
export const MEDIA_PACT = { consumer: 'media-integration', provider: 'media-tracking-api', dir: PACT_DIR } as const;

/** Every consumer whose pacts are published: can-i-deploy asks about all of them at once. */
export const CONSUMERS = [STORE_PACT.consumer, MEDIA_PACT.consumer] as const;

/**
 * The pacts of other consumers that npm test verifies through the outside entry point (npm run pact:verify -- --pact):
 * the examples' (written by their own consumer tests, which scripts/packageCheck.ts runs and compares with these)
 * and held-out ones written by hand.
 */
export const OUTSIDE_PACT_SOURCES = ['examples/pacts', 'tests/fixtures/pacts'] as const;

/** The states of the examples' team (a team's own provider states), loaded with OUTSIDE_PACT_SOURCES (tests/fixtures/pact-states.ts says why a copy). */
export const OUTSIDE_STATES_FILE = 'tests/fixtures/pact-states.ts';
