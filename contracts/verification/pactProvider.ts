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

/** What the harness arranged for one interaction (PactProvider.arrangement). */
export interface Arrangement {
  /** In words: `store 100001 (a copy of its seed) with that store's token`. */
  readonly arranged: string;
  /** Where it differs from what the pact names, in words; undefined when they agree. */
  readonly differs?: string;
  /** The record ids the pact's path names literally (`product 100001000022`): a 404 for one means the store lacks it. */
  readonly literalRecords: readonly string[];
  /** The consumer whose own app's credentials were sent (STORE_TEAM_SANDBOXES): a 403 is its app's scopes. */
  readonly appOf?: string;
  /** The scope a request needs (read_products, write_products), named when the team's app is refused. */
  readonly scopeFor?: (method: string, path: string) => string | undefined;
}

/** A state that cannot be arranged on this target, and why: the interaction is skipped with the reason. */
export interface Unavailable {
  readonly skip: string;
}

/**
 * One interaction's arranging: what its request names, as the pact writes it, and what its states share. A team's
 * pact names its own sandbox's ids literally (V1 and V2 pacts cannot do otherwise), so the states arrange under them.
 */
export interface ArrangeSession {
  /** The request's path as the pact writes it; undefined where a provider-state generator makes it (fromProviderState). */
  readonly literalPath: string | undefined;
  /** What the interaction's states share, by key (the store twin: one store for each store id they name). */
  readonly shared: Map<string, Promise<unknown>>;
}

/** Without a session (a state arranged on its own): no literal path, nothing shared. */
export type Arrange = (params: Record<string, unknown>, session?: ArrangeSession) => Promise<Arranged | Unavailable>;

/** The session of one interaction: its literal path, unless a generator makes the path. */
export function arrangeSession(interaction: { readonly request: { readonly path: string }; readonly raw?: Record<string, unknown> }): ArrangeSession {
  const generators = (interaction.raw?.['request'] as { generators?: Record<string, unknown> } | undefined)?.generators;
  return { literalPath: generators?.['path'] === undefined ? interaction.request.path : undefined, shared: new Map() };
}

/** What the provider answered the Verifier's request, as far as a pacer reads it: its status and its headers (lower-case names). */
export interface VerifierAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | number | undefined>>;
}

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
  /**
   * How an interaction that names no state is arranged (the store: the store its path names, with its credentials);
   * absent, or answering undefined: nothing to arrange.
   */
  readonly withoutState?: (session: ArrangeSession) => Promise<Arranged | Unavailable | undefined>;
  /** Headers every request carries (e.g. the live token), under the state's own. */
  readonly headers?: Record<string, string>;
  /**
   * Runs once the states are arranged, just before the Verifier's request (the live store waits for bucket room);
   * what it returns is called once the Verifier is done (the live store's pacer then counts that request).
   */
  readonly beforeRequest?: () => Promise<((answer?: VerifierAnswer) => void) | void>;
  /**
   * Live and replay: where the pact's request is sent when that differs from the path it writes (the store: the pact's
   * store id is the configured store), and the note its interaction's line says once; undefined when it is sent as written.
   */
  readonly sendsTo?: (path: string) => { readonly path: string; readonly note: string } | undefined;
  /**
   * What the harness arranged for an interaction, against what its pact names, for the account of a refusal (401, 403,
   * 404) the arrangement could have caused: `arranged` in words, `differs` where the two disagree.
   */
  readonly arrangement?: (session: ArrangeSession, values: Readonly<Record<string, unknown>>) => Arrangement;
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
