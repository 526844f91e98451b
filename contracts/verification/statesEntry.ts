/**
 * `api-contract-harness/states` as a team imports it: the Node is checked first (src/config/nodeVersion.ts),
 * as for the bin and `/twins`. The types come from teamStates.ts itself (package.json `exports`); a unit
 * test holds the names below to that module's.
 */
import { assertSupportedNode } from '../../src/config/nodeVersion.ts';

assertSupportedNode('api-contract-harness/states');
const states = await import('./teamStates.ts');

export const { defineTeamStates, TeamStatesError, loadTeamStates, withTeamStates } = states;
