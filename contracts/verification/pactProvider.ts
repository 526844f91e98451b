/**
 * What a pact is verified against: a provider's base URL and, for each
 * provider state the pacts name, how to arrange it there. One table per API
 * and target (contracts/<api>/providerStates.ts) is the only place states live.
 */
import type { StateEntry } from './stateVocabulary.ts';
import type { TeamMessageState } from './messageVocabulary.ts';

/** What arranging a state gave: values for the pact's provider-state expressions, headers for the request, and how to undo it. */
export interface Arranged {
  /** Values the pact's `fromProviderState` expressions read (e.g. `storeId`). */
  readonly values?: Record<string, string | number | boolean>;
  /** Headers set on the request to the provider (credentials): injected by a request filter, never written to a pact. */
  readonly headers?: Record<string, string>;
  /** Undo what the state made (e.g. delete what a live write created), after the verification. */
  readonly teardown?: () => Promise<void>;
}

/** A state that cannot be arranged on this target, and why: the interaction is skipped with the reason. */
export interface Unavailable {
  readonly skip: string;
}

export type Arrange = (params: Record<string, unknown>) => Promise<Arranged | Unavailable>;

export interface PactProvider {
  /** Which target this is, for reports (`twin`, `live`). */
  readonly name: string;
  /** Whether the states are arranged on a twin or found on a real service (also when it is recorded or replayed). */
  readonly kind: 'twin' | 'live';
  /** Origin (and any path before the pact's paths) of the provider. */
  readonly baseUrl: string;
  /** The states a pact may name here, documented (docs/provider-states.md); a pact's state is matched against these. */
  readonly vocabulary: readonly StateEntry[];
  /** How each state of the vocabulary is arranged here, by its template. */
  readonly states: Readonly<Record<string, Arrange>>;
  /** Headers every request carries (e.g. the live token), under the state's own. */
  readonly headers?: Record<string, string>;
  /**
   * Runs once the states are arranged, just before the Verifier's request (the live store waits for bucket room);
   * what it returns is called once the Verifier is done (the live store's pacer then counts that request).
   */
  readonly beforeRequest?: () => Promise<(() => void) | void>;
  /** A team's own names for the store's message states (its states file's `storeMessages`; verifyMessage.ts). */
  readonly messageStates?: readonly TeamMessageState[];
}

/**
 * How a message interaction's skip reason starts (verifyMessage.ts): a run that skipped one exits non-zero
 * (scripts/pactVerify.ts), since it verified less than the pact asks.
 */
export const MESSAGE_NOT_VERIFIED = 'message not verified';

export function unavailable(reason: string): Unavailable {
  return { skip: reason };
}

export function isUnavailable(value: Arranged | Unavailable): value is Unavailable {
  return 'skip' in value;
}
