/**
 * The media properties' fixtures: the properties' own (target, rules), plus a
 * worker's media arena, whose twin (twin target) this worker starts and stops.
 */
import { test as base } from '../support/fixtures.ts';
import { openMediaArena, type MediaArena } from '../support/mediaArena.ts';

interface MediaWorkerFixtures {
  mediaArena: MediaArena;
}

export const test = base.extend<object, MediaWorkerFixtures>({
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

export { expect, needsTwin, TWIN_ONLY } from '../support/fixtures.ts';
