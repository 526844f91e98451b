/**
 * The media pagination property goes red on a media twin started with each
 * pagination break (src/twins/media/twinBreaks.ts), naming the rule it
 * breaks and how to replay the counterexample.
 */
import { test } from '../../../src/testing/harnessTest.ts';
import { MEDIA_TWIN_BREAKS, type MediaTwinBreak } from '../../../src/twins/media/twinBreaks.ts';
import { startMediaTwin, type RunningMediaTwin } from '../../../src/twins/media/server.ts';
import { paginationProperty } from '../../../properties/media/pagination.property.ts';
import { expectRed } from '../../../properties/support/twinBreak.ts';
import { twinMediaArena } from '../../../properties/support/mediaArena.ts';
import { runProperty } from '../../../properties/support/propertyRun.ts';

interface MediaTwinBreakCase {
  readonly twinBreak: MediaTwinBreak;
  /** The rule the counterexample's report must name. */
  readonly rule: string;
  /** Enough cases to find the break every time (each run stops at the first counterexample). */
  readonly numRuns: number;
}

const CASES: readonly MediaTwinBreakCase[] = [
  { twinBreak: 'page-drops-item', rule: 'media.pagination.follow-next', numRuns: 100 },
  { twinBreak: 'page-repeats-item', rule: 'media.pagination.follow-next', numRuns: 100 },
  { twinBreak: 'wrong-last-link', rule: 'media.pagination.links', numRuns: 100 },
];

for (const c of CASES) {
  const breaks = MEDIA_TWIN_BREAKS[c.twinBreak];
  test.describe(`media twin with a break: ${breaks}`, () => {
    let twin: RunningMediaTwin | undefined;
    test.beforeAll(async () => {
      twin = await startMediaTwin({ port: 0, clock: 'virtual', twinBreak: c.twinBreak, onInternalError: () => undefined });
    });
    test.afterAll(async () => {
      await twin?.close();
    });

    test(`the property of ${c.rule} goes red`, { annotation: { type: 'break', description: breaks } }, async ({}, testInfo) => {
      // Fixed run count and a fresh seed: the environment's FC_* variables are for the real properties.
      const outcome = await runProperty(
        paginationProperty({ arena: twinMediaArena(twin!.url) }),
        { numRuns: c.numRuns, title: testInfo.title },
        { numRuns: undefined, seed: undefined, path: undefined },
      );
      await expectRed(outcome, c.rule, breaks, (report) => testInfo.attach('counterexample.txt', { body: report, contentType: 'text/plain' }));
    });
  });
}
