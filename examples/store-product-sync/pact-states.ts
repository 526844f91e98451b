/**
 * The product sync team's own provider state, in one file of its own (docs/provider-states.md, "A team's own
 * states"): `npx api-contract-harness pact-verify --pact ./pacts --states ./pact-states.ts`. It composes a
 * built-in state, so it runs on the twins, the recordings and live with the harness's guards.
 */
import { defineTeamStates } from 'api-contract-harness/states';

export default defineTeamStates({
  store: [
    {
      name: 'a catalogue for the product sync',
      params: { storeId: 'given: the store', count: 'given: 31 products, so the sync reads two pages of 30' },
      twin: 'a fresh store with 31 products',
      live: 'the configured store, when it has 31 products or more',
      skippedOnLive: 'when it has fewer',
      arrange: (_params, states) => states.arrange('store {storeId} has {count} products', { count: 31 }),
    },
  ],
});
