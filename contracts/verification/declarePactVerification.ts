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
import type { TestInfo } from '@playwright/test';
import { expect, test } from '../../src/testing/harnessTest.ts';
import { liveRequestGuard } from '../../src/testing/LiveRequestGuard.ts';
import { chargeToBudget } from '../../suites/fixtures/liveTestEnd.ts';
import type { RecordingApi } from '../../src/recording/cassette.ts';
import { pactPath, readPact, type PactDocument, type PactInteraction, type PactMessage, type PactNames } from './pactFile.ts';
import type { PactProvider } from './pactProvider.ts';
import type { RecordedProvider } from './recordedProvider.ts';
import { resolveStates } from './stateVocabulary.ts';

// Pact's Verifier and the recording machinery load in the test that uses them, not where Playwright lists the
// tests: its main process loads this file only to list them (bench/pactVerifySpeed.ts, docs/speed.md).
const verification = () => import('./verifyInteraction.ts');

export interface VerificationOptions {
  /** The describe title (default `consumer → provider`): the report's first line about this pact. */
  readonly title?: string;
  /** Where its cassettes are under recordings/<api>/ (default `contracts`). */
  readonly suite?: string;
  /** The command that records this pact's interactions, for the message when a replay finds none. */
  readonly recordWith?: string;
  /** Whether a test checks that the file verified is the whole file this run's consumer tests wrote (the harness's own pacts). */
  readonly wholeFile?: boolean;
}

/** `api` names the recordings the pact's provider is recorded in and replayed from. */
/** `target` gives `{ skip }` when the run leaves this API out (a one-API live run): every interaction is skipped with that reason. */
export function declarePactVerification(
  names: PactNames,
  api: RecordingApi,
  target: () => PactProvider | { skip: string } | Promise<PactProvider | { skip: string }>,
  options: VerificationOptions = {},
): void {
  // The interactions are listed when Playwright loads the file; each test reads the pact again,
  // because the consumer tests of this same run rewrite it before verification starts.
  const listed = descriptions(readPact(names));

  test.describe(options.title ?? `${names.consumer} → ${names.provider}`, () => {
    for (const description of listed) {
      test(description, ({}, testInfo) => verifyListed({ names, api, target, options }, description, testInfo));
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

/** Every interaction of the file, HTTP and message, in the file's order. */
function descriptions(pact: PactDocument): string[] {
  return [...pact.interactions, ...pact.messages].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map((i) => i.description);
}

interface Declared {
  readonly names: PactNames;
  readonly api: RecordingApi;
  readonly target: () => PactProvider | { skip: string } | Promise<PactProvider | { skip: string }>;
  readonly options: VerificationOptions;
}

/** One interaction's test: found in the pact as it is now, verified against the (possibly recorded) provider, charged to the budget. */
async function verifyListed({ names, api, target, options }: Declared, description: string, testInfo: TestInfo): Promise<void> {
  const pact = readPact(names);
  const interaction = pact.interactions.find((i) => i.description === description);
  const message = interaction ? undefined : pact.messages.find((m) => m.description === description);
  expect(
    interaction ?? message,
    `"${description}" is no longer in ${pactPath(names)}: the consumer tests dropped it; run again to verify the new file`,
  ).toBeDefined();
  // Where the interaction is in the consumer's own file, for a report the team reads.
  testInfo.annotations.push({
    type: 'pact interaction',
    description: `${((interaction ?? message)!.index ?? pact.interactions.indexOf(interaction!)) + 1} of ${pact.count} in ${pactPath(names)}`,
  });
  const chosen = await target();
  if ('skip' in chosen) return test.skip(true, chosen.skip);
  if (message) return verifyListedMessage(pact, message, chosen, api, testInfo);
  // An unknown provider state fails here, before a recording is opened or a request sent.
  resolveStates(chosen.vocabulary, chosen.name, interaction!);
  // Undefined on the twins and replays, which cost nothing.
  const guard = liveRequestGuard();
  const { openRecordedProvider } = await import('./recordedProvider.ts');
  const { verifyInteraction } = await verification();
  const recorded = await openRecordedProvider({
    api,
    test: description,
    target: chosen,
    ...(options.suite ? { suite: options.suite } : {}),
    ...(options.recordWith ? { recordWith: options.recordWith } : {}),
  });
  const provider = recorded?.target ?? chosen;
  testInfo.annotations.push({ type: 'provider', description: recorded?.describe ?? `${provider.name} at ${provider.baseUrl}` });
  try {
    const outcome = await verifyInteraction({
      pact,
      interaction: interaction!,
      target: provider,
      pactFile: testInfo.outputPath('pact.json'),
      api,
      ...(guard ? { budget: { guard, api } } : {}),
    });
    if (outcome.status === 'skipped') return test.skip(true, outcome.reason);
    await testInfo.attach('pact verification', { body: outcome.report, contentType: 'text/plain' });
  } catch (caught) {
    await explainFailure(caught, recorded, interaction!, testInfo);
  } finally {
    const closed = await recorded?.close();
    if (closed) testInfo.annotations.push(closed);
    // A refused request has already failed verifyInteraction with the budget's error.
    chargeToBudget(guard, api, testInfo);
  }
}

/** A message interaction: the twin's delivery for its state, matched by Pact's Verifier; sends nothing to a live API. */
async function verifyListedMessage(pact: PactDocument, message: PactMessage, target: PactProvider, api: RecordingApi, testInfo: TestInfo): Promise<void> {
  testInfo.annotations.push({
    type: 'provider',
    description: `the ${api} ${target.kind === 'twin' ? 'twin' : 'target'}'s webhook deliveries (a message interaction)`,
  });
  const { verifyMessage } = await import('./verifyMessage.ts');
  const { PactMismatchError } = await verification();
  try {
    const outcome = await verifyMessage({ pact, message, target, api: api === 'media' ? 'media' : 'store', pactFile: testInfo.outputPath('pact.json') });
    if (outcome.status === 'skipped') return test.skip(true, outcome.reason);
    await testInfo.attach('pact verification', { body: outcome.report, contentType: 'text/plain' });
  } catch (caught) {
    if (caught instanceof PactMismatchError) await testInfo.attach('pact mismatch report', { body: caught.report, contentType: 'text/plain' });
    throw caught;
  }
}

/** Rethrows a failed verification, told in the recording's terms when there is one, with Pact's report attached. */
async function explainFailure(caught: unknown, recorded: RecordedProvider | undefined, interaction: PactInteraction, testInfo: TestInfo): Promise<never> {
  const { error, annotation } = recorded?.explain(caught, interaction) ?? { error: caught };
  if (annotation) testInfo.annotations.push(annotation);
  if (error instanceof (await verification()).PactMismatchError)
    await testInfo.attach('pact mismatch report', { body: error.report, contentType: 'text/plain' });
  throw error;
}
