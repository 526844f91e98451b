/**
 * Verifies one message interaction (a webhook delivery a team's handler accepts) with Pact's own Verifier:
 * the state names the event (a built-in message state, or the team's name for one), the store twin is made to send
 * that event's delivery for real (messageStates.ts), and the delivery, its raw body and its headers as metadata, is
 * the message Pact's Verifier matches against the pact. A mismatch fails with the same short account as an HTTP interaction:
 * what the pact expects, what the delivery holds, who acts.
 *
 * Only the store twin's deliveries can be observed from here: on live and on the recordings, and for a
 * provider that sends no messages, the interaction is not verified, with the reason (MESSAGE_NOT_VERIFIED:
 * the command then exits non-zero, scripts/pactVerify.ts).
 */
import { providerWithMetadata, Verifier } from '@pact-foundation/pact';
import { HARNESS_USER_AGENT, harnessConfig } from '../../src/config/harnessConfig.ts';
import { arrangeMessageState, type ArrangedMessage, type Delivery } from './messageStates.ts';
import { eventOf, messageVocabularyWith, type TeamMessageState } from './messageVocabulary.ts';
import { answerExcerpt, parsedBody, summariseMismatches, verifierMismatches } from './mismatchSummary.ts';
import { writeSingleInteractionPact, type PactDocument, type PactMessage } from './pactFile.ts';
import { MESSAGE_NOT_VERIFIED, type PactProvider } from './pactProvider.ts';
import { resolveStates } from './stateVocabulary.ts';
import { PactMismatchError, verifierOutput, type VerificationOutcome } from './verifyInteraction.ts';
import { whoActsOnMessage } from './whoActs.ts';

/** Why this message cannot be verified on this target; undefined when it can (an asynchronous message, the store, the twin). */
export function messageSkipReason(api: 'store' | 'media', target: Pick<PactProvider, 'kind'>, message: Pick<PactMessage, 'type'>): string | undefined {
  if (api === 'media') return `${MESSAGE_NOT_VERIFIED}: the media API sends no messages (it has no webhooks), so nothing it sends can hold this one`;
  if (message.type !== 'Asynchronous/Messages')
    return `${MESSAGE_NOT_VERIFIED}: a ${message.type} interaction; the store sends only asynchronous messages (its webhook deliveries)`;
  if (target.kind !== 'twin')
    return `${MESSAGE_NOT_VERIFIED}: a live store's webhook delivery goes to the URL the app registered, where it cannot be observed from here; message interactions are verified on the twins (--target twin)`;
  return undefined;
}

/** The one state a message names (a built-in one or the team's): the event whose delivery is the message. */
function eventState(message: PactMessage, team: readonly TeamMessageState[]) {
  const vocabulary = messageVocabularyWith(team);
  const states = resolveStates(vocabulary, 'store twin (its webhook deliveries)', message);
  const names = vocabulary.map((entry) => `"${entry.name}"`).join(', ');
  if (states.length !== 1) {
    throw new Error(
      `The message interaction "${message.description}" names ${states.length === 0 ? 'no provider state' : `${states.length} provider states`}: ` +
        `name exactly one event whose delivery is the message, in the consumer test's given(...): one of ${names}.`,
    );
  }
  return states[0]!;
}

export async function verifyMessage(options: {
  pact: PactDocument;
  message: PactMessage;
  target: PactProvider;
  api: 'store' | 'media';
  /** Where the one-interaction pact is written (the test's output folder). */
  pactFile: string;
}): Promise<VerificationOutcome> {
  const { pact, message, target, api } = options;
  const skip = messageSkipReason(api, target, message);
  if (skip) return { status: 'skipped', reason: skip };
  const team = target.messageStates ?? [];
  const state = eventState(message, team);
  // The twin the target is: its deliveries are the messages.
  const config = harnessConfig().store;
  const twin = { twinUrl: target.baseUrl, userAgent: config.mode === 'twin' ? config.userAgent : HARNESS_USER_AGENT };
  const arranged = await arrangeMessageState(twin, eventOf(state.entry.name, team));
  try {
    return { status: 'verified', report: await runVerifier(pact, message, arranged, options.pactFile) };
  } finally {
    await arranged.teardown();
  }
}

/** The delivery's headers as the message's metadata (with its content type), as a team's handler reads them. */
export function deliveryMetadata(delivery: Delivery): Record<string, string> {
  const kept = Object.entries(delivery.headers).filter(([name]) => !['content-length', 'host', 'connection'].includes(name.toLowerCase()));
  const contentType = kept.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? 'application/json';
  return { contentType, ...Object.fromEntries(kept) };
}

async function runVerifier(pact: PactDocument, message: PactMessage, arranged: ArrangedMessage, pactFile: string): Promise<string> {
  const { delivery, values } = arranged;
  const body = parsedBody(delivery.body);
  const stateName = message.providerStates![0]!.name;
  try {
    const json = await new Verifier({
      provider: pact.provider.name,
      pactUrls: [writeSingleInteractionPact(pact, message, pactFile)],
      logLevel: 'error',
      messageProviders: { [message.description]: providerWithMetadata(() => body as never, deliveryMetadata(delivery)) },
      stateHandlers: { [stateName]: async () => values },
    }).verifyProvider();
    return verifierOutput(json).join('\n');
  } catch (error) {
    const json = error instanceof Error ? error.message : String(error);
    const report = verifierOutput(json).join('\n') || String(error);
    throw new PactMismatchError(message, 'store twin', report, accountOf(message, delivery, body, json));
  }
}

/** The short account of a message that does not hold: the mismatches, what the pact expects, what the delivery holds, who acts. */
function accountOf(message: PactMessage, delivery: Delivery, body: unknown, verifierJson: string): string[] {
  const mismatches = verifierMismatches(verifierJson);
  if (mismatches.length === 0) return [];
  const event = typeof body === 'object' && body !== null ? (body as { event?: unknown }).event : undefined;
  const headers = Object.keys(deliveryMetadata(delivery)).filter((name) => name !== 'contentType');
  return [
    ...summariseMismatches(mismatches, body).map((line) => `  ${line}`),
    `The pact expects the message: ${answerExcerpt(message.contents?.content, 300)}`,
    `The delivery holds: ${answerExcerpt(body, 300)}${event ? ` (the twin's ${String(event)} webhook delivery, with ${headers.join(', ')})` : ''}`,
    whoActsOnMessage(mismatches),
  ];
}
