/**
 * Fixtures of the properties: the arena of the configured target, and the
 * rule a property checks, named in its title and report like the suites'.
 * One `test` for both APIs' properties: Playwright starts a worker per set of
 * fixtures, so a second `test.extend` for the media properties cost every run
 * a second worker. Worker fixtures start when a test first asks for them: the
 * media arena (whose twin this worker starts and stops on the twin target) only
 * for the media properties.
 */
import { test as base } from '../../src/testing/harnessTest.ts';
import { apiOffReason, harnessConfig, type Target } from '../../src/config/harnessConfig.ts';
import { liveRequestGuard } from '../../src/testing/LiveRequestGuard.ts';
import { chargeToBudget } from '../../suites/fixtures/liveTestEnd.ts';
import { notVerifiedForOutage } from '../../src/testing/providerUnreachable.ts';
import { storeArenaForTarget, type StoreArena } from './storeArena.ts';
import { openMediaArena, type MediaArena } from './mediaArena.ts';

interface WorkerFixtures {
  storeArena: StoreArena;
  mediaArena: MediaArena;
  target: Target;
}

export const test = base.extend<{ apiConfigured: void }, WorkerFixtures>({
  // A one-API live run skips the other API's properties (properties/<api>/), naming the variables that enable them.
  apiConfigured: [
    async ({}, use, testInfo) => {
      const api = /[\\/]properties[\\/](store|media)[\\/]/.exec(testInfo.file)?.[1] as 'store' | 'media' | undefined;
      const reason = api && apiOffReason(harnessConfig(), api);
      testInfo.skip(reason !== undefined, reason);
      // An API declared unreachable earlier in the run: not verified, before the property sends anything.
      const config = api && harnessConfig()[api];
      const outage = config?.mode === 'live' ? liveRequestGuard()?.outageAt(config.apiUrl) : undefined;
      if (outage) testInfo.skip(true, notVerifiedForOutage(testInfo, outage));
      await use();
      // Live: what the property's clients sent is charged to the run's budget, like a suite test's.
      const guard = liveRequestGuard();
      const refusals = (['store', 'media'] as const).map((which) => chargeToBudget(guard, which, testInfo));
      for (const refused of refusals) refused();
    },
    { auto: true, box: 'self' },
  ],
  target: [async ({}, use) => use(harnessConfig().target), { scope: 'worker' }],
  storeArena: [async ({}, use) => use(await storeArenaForTarget()), { scope: 'worker' }],
  mediaArena: [
    async ({}, use) => {
      const opened = await openMediaArena();
      try {
        await use(opened.arena);
      } finally {
        await opened.close();
      }
    },
    { scope: 'worker' },
  ],
});

export { expect } from '@playwright/test';
