/**
 * The media twin's fuzzer: its route table, its case arbitrary and a case
 * runner bound to the twin at `url` (signed in as the seeded admin).
 */
import { sendChecked } from '../sendChecked.ts';
import { ANSWER_DEADLINE_MS, type TwinFuzzer } from '../twinFuzzer.ts';
import { mediaCaseArb, mediaRequest } from './mediaCases.ts';
import { mediaExpectation } from './mediaOracle.ts';
import { mediaFuzzRoutes, type MediaFuzzRoute } from './mediaRouteTable.ts';
import { MediaWorld } from './mediaWorld.ts';

export async function openMediaFuzzer(url: string): Promise<TwinFuzzer<MediaFuzzRoute>> {
  const routes = mediaFuzzRoutes();
  const world = await MediaWorld.open(url);
  const target = { name: 'media twin', url, deadlineMs: ANSWER_DEADLINE_MS };
  return {
    routes,
    caseArb: mediaCaseArb,
    runCase: async (testCase) => {
      const request = mediaRequest(testCase, world.state);
      const expected = mediaExpectation(request, { routes, world: world.state });
      await sendChecked(target, request, expected, (outcome) => world.afterCase(request, outcome));
    },
  };
}
