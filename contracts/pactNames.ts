/**
 * Who each pact is between and where pacts are written (committed, so a
 * contract change shows in review): the one place the consumer tests, the
 * verification, the static check and the broker scripts take these names from.
 */
export const PACT_DIR = 'contracts/pacts';

export const STORE_PACT = { consumer: 'store-integration', provider: 'store-commerce-api', dir: PACT_DIR } as const;
export const MEDIA_PACT = { consumer: 'media-integration', provider: 'media-tracking-api', dir: PACT_DIR } as const;

/** Every consumer whose pacts are published: can-i-deploy asks about all of them at once. */
export const CONSUMERS = [STORE_PACT.consumer, MEDIA_PACT.consumer] as const;
