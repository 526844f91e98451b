/** Who the store pacts are between, and where they are written (committed, so a contract change shows in review). */
export const STORE_PACT = { consumer: 'store-integration', provider: 'store-commerce-api', dir: 'contracts/pacts' } as const;
