/**
 * A team's own provider states: one file outside src/ (`--states <file>`),
 * whose default export is `defineTeamStates({ store: [...], media: [...] })`.
 * Each state is documented like the built-in ones and arranged by composing
 * them (`states.arrange(name, params)`), so it runs on every target with the
 * same guards, and no part of the harness is forked.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { unavailable, type Arranged, type ArrangeSession, type PactProvider, type Unavailable } from './pactProvider.ts';
import { commandWords } from './commandWords.ts';
import { matchState, UnknownProviderStateError, type StateEntry } from './stateVocabulary.ts';
import { eventEntry, MESSAGE_VOCABULARY, type TeamMessageState } from './messageVocabulary.ts';

export type StatesApi = 'store' | 'media';
export type { TeamMessageState } from './messageVocabulary.ts';

/** What a team's state is handed: the known states of this target, arranged on demand. */
export interface StateContext {
  /** `twin`, or `live` (also when live is recorded or replayed). */
  readonly target: 'twin' | 'live';
  /** Arranges a known state (built-in or the team's) and answers its values, headers and teardown. */
  arrange(name: string, params?: Record<string, unknown>): Promise<Arranged | Unavailable>;
  /** Skips the interaction on this target, with the reason. */
  unavailable(reason: string): Unavailable;
}

export interface TeamState extends StateEntry {
  arrange(params: Record<string, unknown>, states: StateContext): Promise<Arranged | Unavailable> | Arranged | Unavailable;
}

export type TeamStates = Partial<Record<StatesApi, readonly TeamState[]>> & {
  /** The team's own names for the store's message states (its webhook deliveries): each names the event it is. */
  readonly storeMessages?: readonly TeamMessageState[];
};

/** Identity, for the types: a team's states file exports `defineTeamStates({...})` as its default. */
export function defineTeamStates(states: TeamStates): TeamStates {
  return states;
}

/** A states file that does not load or does not export team states: a usage error (exit 2), before any request. */
export class TeamStatesError extends Error {
  override name = 'TeamStatesError';
}

/** Reads a team's states file; throws a TeamStatesError, naming the file and the fix, when its default export is not team states. */
export async function loadTeamStates(file: string): Promise<TeamStates> {
  const path = resolve(file);
  let module: { default?: unknown };
  try {
    module = (await import(pathToFileURL(path).href)) as { default?: unknown };
  } catch (error) {
    throw new TeamStatesError(
      `The states file ${path} could not be loaded (${error instanceof Error ? error.message : String(error)}). Fix the file, or the --states path.`,
      {
        cause: error,
      },
    );
  }
  let states = module.default as Record<string, unknown> | undefined;
  // Loaded inside a Playwright worker, a TypeScript module's default export can arrive wrapped once more (CommonJS interop).
  if (typeof states === 'object' && states !== null && 'default' in states && !('store' in states) && !('media' in states))
    states = states['default'] as Record<string, unknown> | undefined;
  const problem =
    typeof states !== 'object' || states === null
      ? 'has no default export'
      : Object.entries(states).find(
          ([api, list]) =>
            !['store', 'media', 'storeMessages'].includes(api) ||
            !Array.isArray(list) ||
            list.some((s: Partial<TeamState & TeamMessageState>) =>
              api === 'storeMessages'
                ? typeof s?.name !== 'string' || typeof s.event !== 'string'
                : typeof s?.name !== 'string' || typeof s.arrange !== 'function' || typeof s.twin !== 'string' || typeof s.live !== 'string',
            ),
        )?.[0];
  if (problem) {
    throw new TeamStatesError(
      `The states file ${path} ${problem === 'has no default export' ? problem : `has a bad "${problem}" entry`}: export default defineTeamStates({ store: [...], media: [...], storeMessages: [...] }), each state with name, twin, live and arrange, each message state with name and event (${commandWords().statesDoc}).`,
    );
  }
  const unknownEvents = ((states as TeamStates).storeMessages ?? []).filter((state) => !eventEntry(state));
  if (unknownEvents.length > 0) {
    throw new TeamStatesError(
      `The states file ${path} has message states naming no event of the store: ${unknownEvents.map((s) => `"${s.name}" (event "${s.event}")`).join(', ')}. ` +
        `Each names one of ${MESSAGE_VOCABULARY.map((entry) => `"${entry.name}"`).join(', ')} as its event (${commandWords().statesDoc}).`,
    );
  }
  return states as TeamStates;
}

/**
 * The target with the team's states of `api` added to its vocabulary and its table, and for the store the team's
 * message states; a name the harness already has is refused.
 */
export function withTeamStates(target: PactProvider, api: StatesApi, team: TeamStates): PactProvider {
  const messages = api === 'store' ? (team.storeMessages ?? []) : [];
  const takenMessages = messages.filter((state) => MESSAGE_VOCABULARY.some((known) => known.name === state.name)).map((state) => `"${state.name}"`);
  if (takenMessages.length > 0)
    throw new Error(`The team's message states ${takenMessages.join(', ')} are built-in message states already: rename them in the states file.`);
  if (messages.length > 0) target = { ...target, messageStates: messages };
  const added = team[api] ?? [];
  if (added.length === 0) return target;
  const taken = added.filter((state) => target.vocabulary.some((known) => known.name === state.name)).map((state) => `"${state.name}"`);
  if (taken.length > 0) throw new Error(`The team's ${api} states ${taken.join(', ')} are built-in states already: rename them in the states file.`);
  const vocabulary = [...target.vocabulary, ...added.map(({ name, params, twin, live, skippedOnLive }) => ({ name, params, twin, live, skippedOnLive }))];
  const states: Record<string, PactProvider['states'][string]> = { ...target.states };
  // A team's state composes built-in ones within the interaction's session, so they name one store as the pact does.
  const contextOf = (session: ArrangeSession | undefined): StateContext => ({
    target: target.kind,
    unavailable,
    arrange: async (name, params = {}) => {
      const match = matchState(vocabulary, name, params);
      if (!match) throw new UnknownProviderStateError({ state: name, interaction: `(the team's states file)`, api, vocabulary });
      return states[match.entry.name]!(match.params, session);
    },
  });
  for (const state of added) states[state.name] = async (params, session) => state.arrange(params, contextOf(session));
  return { ...target, vocabulary, states };
}
