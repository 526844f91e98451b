/**
 * The store twin's fuzzer: its route table, its case arbitrary and a case
 * runner bound to a store of its own on the twin at `url`.
 */
import { sendChecked } from '../sendChecked.ts';
import { ANSWER_DEADLINE_MS, type TwinFuzzer } from '../twinFuzzer.ts';
import { storeCaseArb, storeRequest } from './storeCases.ts';
import { storeExpectation } from './storeOracle.ts';
import { storeFuzzRoutes } from './storeRouteTable.ts';
import { StoreWorld } from './storeWorld.ts';

export async function openStoreFuzzer(url: string): Promise<TwinFuzzer> {
  const routes = storeFuzzRoutes();
  const world = await StoreWorld.open(url, routes);
  const target = { name: 'store twin', url, deadlineMs: ANSWER_DEADLINE_MS };
  return {
    routes,
    caseArb: storeCaseArb,
    runCase: async (testCase) => {
      const request = storeRequest(testCase, world.state);
      const expected = storeExpectation(request, { routes, collections: world.collections, world: world.state });
      await sendChecked(target, request, expected, (outcome) => world.afterCase(request, outcome));
    },
  };
}
