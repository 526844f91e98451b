/**
 * Pact verification on the recordings (record and replay). Each pact interaction's test has a
 * cassette of its own, recordings/<api>/contracts/<interaction>:
 *
 * - record: the state handlers' calls are captured in-process as they are
 *   made; the Verifier's request goes through a recording proxy
 *   (src/recording/recordingProxy.ts) that forwards it to the live service
 *   with undici, where the same capture sees it.
 * - replay: the state handlers' calls are answered by nock from the cassette
 *   (startReplay), and the Verifier is pointed at a replay server sharing that
 *   cassette's book, so the pact is verified against what the service answered
 *   when it was recorded, with no network.
 *
 * On replay a failed verification is a finding about the recorded service (the
 * recording breaks the contract), unless the Verifier sent a request nothing
 * was recorded for: then the recording is stale, which is said instead.
 */
import { existsSync } from 'node:fs';
import type { Dispatcher } from 'undici';
import { harnessConfig, usesRecordings } from '../../src/config/harnessConfig.ts';
import { cassettePaths, readCassette, type RecordingApi } from '../../src/recording/cassette.ts';
import { recordingsDir } from '../../src/config/env.ts';
import { startRecordingProxy } from '../../src/recording/recordingProxy.ts';
import { startReplayServer } from '../../src/recording/replayServer.ts';
import { lockDownNetwork, startRecording, startReplay, type CassetteId } from '../../src/recording/session.ts';
import type { PactInteraction } from './pactFile.ts';
import { commandWords } from './commandWords.ts';
import type { PactProvider } from './pactProvider.ts';
import { PactMismatchError } from './verifyInteraction.ts';

export const CONTRACTS_SUITE = 'contracts';

export interface Annotation {
  readonly type: string;
  readonly description: string;
}

export interface RecordedProvider {
  /** The target with its base URL on the recording proxy (record) or the replay server (replay); its states unchanged. */
  readonly target: PactProvider;
  /** For the report: what the Verifier really talks to. */
  readonly describe: string;
  /** What a failed verification means here: on replay, a finding about the recorded service or a stale recording. */
  explain(error: unknown, interaction: PactInteraction): { error: unknown; annotation?: Annotation };
  /** Ends the session (writes the cassette on record); says what was recorded or left unused. */
  close(): Promise<Annotation | undefined>;
}

/** A recording of the service that breaks the pact: the service's failure as it answered when recorded, not the harness's. */
export class RecordedServiceFinding extends PactMismatchError {
  constructor(interaction: PactInteraction, service: string, cassette: string, found: PactMismatchError) {
    super(interaction, service, found.report);
    this.name = 'RecordedServiceFinding';
    this.message =
      `Finding about the recorded service, not a harness bug: ${found.message.replace(/^The pact interaction/, 'the pact interaction')}\n` +
      `The replay answers exactly what the ${service} answered when it was recorded in ${cassette}; check the service ` +
      `(record again to see whether it still does).`;
  }
}

/** The target moved to `served` (an origin), keeping any path the target's base URL has after its origin. */
function rebase(baseUrl: string, served: string): string {
  return `${served}${new URL(baseUrl).pathname.replace(/\/+$/, '')}`;
}

/**
 * On HARNESS_TARGET=record or replay, opens the interaction's cassette and
 * answers the target the Verifier is to use; on other targets, undefined (the
 * Verifier goes straight to `target`).
 */
export async function openRecordedProvider(options: {
  api: RecordingApi;
  test: string;
  target: PactProvider;
  /** Default CONTRACTS_SUITE; an outside consumer's pacts have a folder of their own. */
  suite?: string;
  /** The command that records this interaction, named when a replay finds no recording of it. */
  recordWith?: string;
  /** Record: on the recording proxy's requests to the service, the run's outage watch. */
  intercept?: Dispatcher.DispatcherComposeInterceptor;
}): Promise<RecordedProvider | undefined> {
  const mode = harnessConfig().target;
  if (!usesRecordings(mode)) return undefined;
  const { api, target } = options;
  const id: CassetteId = { root: recordingsDir(), api, suite: options.suite ?? CONTRACTS_SUITE, test: options.test };
  return mode === 'record' ? record(id, target, options.intercept) : replay(id, target, options.recordWith ?? commandWords().record);
}

async function record(id: CassetteId, target: PactProvider, intercept?: Dispatcher.DispatcherComposeInterceptor): Promise<RecordedProvider> {
  const base = new URL(target.baseUrl);
  const proxy = await startRecordingProxy({ origin: base.origin, ...(intercept ? { intercept } : {}) });
  // Pact's JS side reaches the proxy from this process too: only the proxy's exchange with the service is the recording.
  const session = await startRecording(id, { origin: base.origin, ignoreOrigins: [proxy.url] }).catch(async (error: unknown) => {
    await proxy.close();
    throw error;
  });
  return {
    target: { ...target, baseUrl: rebase(target.baseUrl, proxy.url) },
    describe: `${target.name} at ${target.baseUrl}, recorded through ${proxy.url}`,
    explain: (error) => ({ error }),
    close: async () => {
      await proxy.close();
      const outcome = await session.close();
      return { type: 'recorded', description: `${outcome.interactions} interaction(s) in ${outcome.files[0]}` };
    },
  };
}

async function replay(id: CassetteId, target: PactProvider, recordWith: string): Promise<RecordedProvider> {
  const { raw } = cassettePaths(id.root, id.api, id.suite, id.test);
  // Nothing to answer from: said at once, before a state is arranged or a request sent.
  if (!existsSync(raw)) {
    throw new Error(
      `Not verified: the interaction "${id.test}" was never recorded, so the replay cannot answer it (no ${raw}). ` +
        `A replay answers only what was recorded on the live service. Fix: record it, with the live variables set: ${recordWith}.`,
    );
  }
  // Lockdown: the recorded origin answers from the cassette, anything else is refused.
  await lockDownNetwork([new URL(target.baseUrl).origin]);
  const session = await startReplay(id);
  const server = await startReplayServer({ root: id.root, api: id.api, book: session.book! }).catch(async (error: unknown) => {
    await session.close();
    throw error;
  });
  // Pact's JS side forwards the Verifier's requests with node:http, which nock sees: let those reach the replay server.
  const { default: nock } = await import('nock');
  const served = new URL(server.url).host;
  nock.enableNetConnect((host: string) => host === served);
  const service = `recorded ${target.name}`;
  return {
    target: { ...target, name: service, baseUrl: rebase(target.baseUrl, server.url) },
    describe: `${service}, replayed from ${raw} at ${server.url}`,
    explain: explainReplayFailure(raw, service, () => server.misses(), recordWith),
    close: async () => {
      await server.close();
      nock.disableNetConnect();
      const outcome = await session.close();
      if (outcome.unused.length === 0) return undefined;
      const first = outcome.unused[0]!;
      return {
        type: 'replay',
        description: `${outcome.unused.length} of ${outcome.interactions} recorded request(s) were not sent (first: ${first.method} ${first.path}); the verification sends less than when it was recorded`,
      };
    },
  };
}

/**
 * What a failed verification against a replay means: requests the recording does not hold make it stale (it says
 * nothing about the service); otherwise the recorded service breaks the interaction, a finding about the service.
 */
function explainReplayFailure(raw: string, service: string, missesSoFar: () => readonly string[], recordWith: string): RecordedProvider['explain'] {
  return (error, interaction) => {
    if (!(error instanceof PactMismatchError)) return { error };
    const misses = missesSoFar();
    if (misses.length > 0) {
      return {
        error: new Error(
          `The recording ${raw} does not hold what the Verifier sent, so this failure says nothing about the service: ${misses.map((m) => m.replace(/\.$/, '')).join(' | ')}. ` +
            `The pact or the states changed since it was recorded: record it again (${recordWith}).`,
        ),
        annotation: { type: 'replay', description: `stale recording: ${misses.length} request(s) the Verifier sent were not recorded` },
      };
    }
    const origin = recordedOrigin(raw);
    const where = origin ? `${raw} (from ${origin})` : raw;
    return {
      error: new RecordedServiceFinding(interaction, service, where, error),
      annotation: {
        type: 'finding',
        description: `the ${service} breaks this interaction as recorded in ${where}: a finding about the service, not a harness bug`,
      },
    };
  };
}

/** Where the recording was made, and whether from the service or a local stand-in of it. */
function recordedOrigin(raw: string): string | undefined {
  try {
    const cassette = readCassette(raw);
    const origins = [...new Set(cassette.interactions.map((i) => i.scope))];
    return `${origins.join(', ')}, ${cassette.source === 'loopback' ? 'a local stand-in' : 'the remote service'}`;
  } catch {
    return undefined;
  }
}
