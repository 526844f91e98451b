/**
 * Declares the verification of one committed pact file as Playwright tests:
 * one test per interaction (so a report names the interaction that broke, and
 * a live run skips only what cannot be arranged there), and one test that the
 * file verified is the whole file the consumer tests wrote in this run.
 * On HARNESS_TARGET=record and replay each interaction is recorded or replayed
 * as recordings/<api>/contracts/<interaction> (recordedProvider.ts).
 * On live and record what the Verifier sends is charged to the run's request
 * budget as `api`'s, like the store and media fixtures' requests.
 */
import { expect, test } from '../../src/testing/harnessTest.ts';
import { liveRequestGuard } from '../../src/testing/LiveRequestGuard.ts';
import { chargeToBudget } from '../../suites/fixtures/liveTestEnd.ts';
import type { RecordingApi } from '../../src/recording/cassette.ts';
import { descriptions, pactPath, readPact, type PactNames } from './pactFile.ts';
import { verifyListed, type TargetChoice, type VerificationOptions } from './verifyListed.ts';

export type { VerificationOptions } from './verifyListed.ts';

/** `api` names the recordings the pact's provider is recorded in and replayed from. */
/** `target` gives `{ skip }` when the run leaves this API out (a one-API live run): every interaction is skipped with that reason. */
export function declarePactVerification(names: PactNames, api: RecordingApi, target: TargetChoice, options: VerificationOptions = {}): void {
  // The interactions are listed when Playwright loads the file; each test reads the pact again,
  // because the consumer tests of this same run rewrite it before verification starts.
  const listed = descriptions(readPact(names));

  test.describe(options.title ?? `${names.consumer} → ${names.provider}`, () => {
    for (const description of listed) {
      test(description, async ({}, testInfo) => {
        const outcome = await verifyListed({ names, api, target, options }, description, testInfo);
        if (outcome.status === 'skipped') test.skip(true, outcome.reason);
      });
    }

    if (options.wholeFile === false) return;
    test('every interaction the consumer tests wrote is verified', ({}, testInfo) => {
      // Sends nothing: its zero keeps it out of the budget line's "not counted".
      chargeToBudget(liveRequestGuard(), api, testInfo);
      const written = descriptions(readPact(names));
      const unverified = written.filter((description) => !listed.includes(description));
      expect(
        unverified,
        `${pactPath(names)} gained interactions after this run listed its tests (${unverified.join('; ')}): run again, and commit the pact file`,
      ).toEqual([]);
    });
  });
}
