/**
 * One listed interaction of a pact, verified: found in the pact as it is now, its states arranged on the
 * (possibly recorded) provider, Pact's Verifier run, what it sent charged to the live budget. The same steps
 * for a Playwright test (declarePactVerification.ts: npm test, the harness's own pacts) and for the packaged
 * command's run in one process (runPactPlan.ts). Either gives it somewhere to write what it found (`Record`):
 * Playwright's TestInfo is one. A failure is thrown; a skip is returned with its reason.
 */
import { getGlobalDispatcher } from 'undici';
import { harnessConfig, usesRecordings } from '../../src/config/harnessConfig.ts';
import type { RecordingApi } from '../../src/recording/cassette.ts';
import { liveRequestGuard, type LiveRequestGuard } from '../../src/testing/LiveRequestGuard.ts';
import { outageOf } from '../../src/http/providerOutage.ts';
import { notVerifiedForOutage } from '../../src/testing/providerUnreachable.ts';
import { chargeToBudget } from '../../suites/fixtures/liveTestEnd.ts';
import { pactPath, readPact, type PactDocument, type PactInteraction, type PactMessage, type PactNames } from './pactFile.ts';
import type { PactProvider } from './pactProvider.ts';
import type { RecordedProvider } from './recordedProvider.ts';
import { resolveStates } from './stateVocabulary.ts';
import { PROVIDER_NOTE } from '../../src/reporters/pactVerifyConsole.ts';

// Pact's Verifier and the recording machinery load when an interaction is verified, not where Playwright lists the
// tests: its main process loads declarePactVerification.ts only to list them.
const verification = () => import('./verifyInteraction.ts');

/** Where a verification writes what it found: Playwright's TestInfo, or interactionRecord.ts for one interaction. */
export interface VerificationRecord {
  readonly annotations: { type: string; description?: string }[];
  attach(name: string, options: { body: string; contentType: string }): Promise<void>;
  /** A path in this interaction's own output folder. */
  outputPath(...segments: string[]): string;
}

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

export type TargetChoice = () => PactProvider | { skip: string } | Promise<PactProvider | { skip: string }>;

export interface Declared {
  readonly names: PactNames;
  /** The recordings the pact's provider is recorded in and replayed from. */
  readonly api: RecordingApi;
  /** `{ skip }` when the run leaves this API out (a one-API live run): every interaction is skipped with that reason. */
  readonly target: TargetChoice;
  readonly options: VerificationOptions;
}

/** How a listed interaction ended when it did not fail. */
export type ListedOutcome = { readonly status: 'verified' } | { readonly status: 'skipped'; readonly reason: string };

/**
 * Verifies the interaction `description` of the pact `declared` names; throws its failure. The file is read again
 * unless `read` is given: under Playwright the consumer tests may write it anew between the listing and the test; a
 * run of a plan (verifySandboxes.ts) reads each file once, as its pacts are not written while it runs.
 */
export async function verifyListed(
  { names, api, target, options }: Declared,
  description: string,
  record: VerificationRecord,
  read?: PactDocument,
): Promise<ListedOutcome> {
  const pact = read ?? readPact(names);
  const interaction = pact.interactions.find((i) => i.description === description);
  const message = interaction ? undefined : pact.messages.find((m) => m.description === description);
  if (!interaction && !message)
    throw new Error(`"${description}" is no longer in ${pactPath(names)}: the consumer tests dropped it; run again to verify the new file`);
  // Where the interaction is in the consumer's own file, for a report the team reads.
  record.annotations.push({
    type: 'pact interaction',
    description: `${((interaction ?? message)!.index ?? pact.interactions.indexOf(interaction!)) + 1} of ${pact.count} in ${pactPath(names)}`,
  });
  const chosen = await target();
  if ('skip' in chosen) return { status: 'skipped', reason: chosen.skip };
  if (message) return verifyListedMessage(pact, message, chosen, api, record);
  // An unknown provider state fails here, before a recording is opened or a request sent.
  resolveStates(chosen.vocabulary, chosen.name, interaction!);
  // Undefined on the twins and replays, which cost nothing.
  const guard = liveRequestGuard();
  // A provider declared unreachable earlier in the run: not verified, before a state is arranged (an outage, not a verdict).
  const declared = guard?.outageAt(chosen.baseUrl);
  if (declared) return { status: 'skipped', reason: notVerifiedForOutage(record, declared) };
  const recorded = await openRecording(api, description, chosen, options, guard);
  // Live: the Verifier's requests pass the outage watch too (verifierFront.ts); record: the recording proxy's.
  const watch = recorded ? undefined : guard?.outageInterceptor(api);
  const provider = recorded?.target ?? chosen;
  record.annotations.push({ type: 'provider', description: recorded?.describe ?? `${chosen.name} at ${chosen.baseUrl}` });
  // The provider stopped answering while this interaction was verified: not verified, whatever the Verifier said.
  const unreachable = (caught?: unknown) => {
    const outage = guard?.unreachable(api) ?? outageOf(caught);
    return outage ? ({ status: 'skipped', reason: notVerifiedForOutage(record, outage) } as const) : undefined;
  };
  try {
    const { verifyInteraction } = await verification();
    const outcome = await verifyInteraction({
      pact,
      interaction: interaction!,
      target: provider,
      api,
      ...(guard ? { budget: { guard, api } } : {}),
      ...(watch ? { dispatcher: getGlobalDispatcher().compose(watch) } : {}),
    });
    if (outcome.note) record.annotations.push({ type: PROVIDER_NOTE, description: outcome.note });
    const outage = unreachable();
    if (outage) return outage;
    if (outcome.status === 'skipped') return { status: 'skipped', reason: outcome.reason };
    await record.attach('pact verification', { body: outcome.report, contentType: 'text/plain' });
    return { status: 'verified' };
  } catch (caught) {
    const outage = unreachable(caught);
    if (outage) return outage;
    const note = (await verification()).sentToNote(provider, interaction!);
    if (note) record.annotations.push({ type: PROVIDER_NOTE, description: note });
    return await explainFailure(caught, recorded, interaction!, record);
  } finally {
    const closed = await recorded?.close();
    if (closed) record.annotations.push(closed);
    // A refused request has already failed verifyInteraction with the budget's error.
    chargeToBudget(guard, api, record);
  }
}

/** The recording or replay of this interaction, on HARNESS_TARGET=record and replay; undefined elsewhere (nothing loaded). */
async function openRecording(
  api: RecordingApi,
  description: string,
  target: PactProvider,
  options: VerificationOptions,
  guard: LiveRequestGuard | undefined,
): Promise<RecordedProvider | undefined> {
  // Asked here too, so a run on the twins or live never loads the recording machinery.
  if (!usesRecordings(harnessConfig().target)) return undefined;
  const { openRecordedProvider } = await import('./recordedProvider.ts');
  return openRecordedProvider({
    api,
    test: description,
    target,
    ...(options.suite ? { suite: options.suite } : {}),
    ...(options.recordWith ? { recordWith: options.recordWith } : {}),
    ...(guard?.outages ? { intercept: guard.outageInterceptor(api)! } : {}),
  });
}

/** A message interaction: the twin's delivery for its state, matched by Pact's Verifier; sends nothing to a live API. */
async function verifyListedMessage(
  pact: PactDocument,
  message: PactMessage,
  target: PactProvider,
  api: RecordingApi,
  record: VerificationRecord,
): Promise<ListedOutcome> {
  record.annotations.push({ type: 'pact message', description: 'a message interaction' });
  record.annotations.push({
    type: 'provider',
    description: `the ${api} ${target.kind === 'twin' ? 'twin' : 'target'}'s webhook deliveries (a message interaction)`,
  });
  const { verifyMessage } = await import('./verifyMessage.ts');
  const { PactMismatchError } = await verification();
  try {
    const outcome = await verifyMessage({ pact, message, target, api: api === 'media' ? 'media' : 'store', pactFile: record.outputPath('pact.json') });
    if (outcome.status === 'skipped') return outcome;
    await record.attach('pact verification', { body: outcome.report, contentType: 'text/plain' });
    return { status: 'verified' };
  } catch (caught) {
    if (caught instanceof PactMismatchError) await record.attach('pact mismatch report', { body: caught.report, contentType: 'text/plain' });
    throw caught;
  }
}

/** Rethrows a failed verification, told in the recording's terms when there is one, with Pact's report attached. */
async function explainFailure(
  caught: unknown,
  recorded: RecordedProvider | undefined,
  interaction: PactInteraction,
  record: VerificationRecord,
): Promise<never> {
  const { error, annotation } = recorded?.explain(caught, interaction) ?? { error: caught };
  if (annotation) record.annotations.push(annotation);
  if (error instanceof (await verification()).PactMismatchError) await record.attach('pact mismatch report', { body: error.report, contentType: 'text/plain' });
  throw error;
}
