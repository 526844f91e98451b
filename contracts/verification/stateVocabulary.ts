/**
 * The provider-state vocabulary: the states a pact may name for each API, each
 * with what it arranges on the twin and what it checks on live. A pact written
 * elsewhere names states in its own words, so a state is matched by template:
 * `store {storeId} has {count} products` is met by that exact name (values in
 * the state's params) or by `store 1 has 30 products` (values in the name).
 * A name that matches nothing fails before any request, naming the closest.
 */
import { editDistance } from '../../src/text/editDistance.ts';
import { commandWords } from './commandWords.ts';

/** One state of the vocabulary, as docs/provider-states.md shows it. */
export interface StateEntry {
  /** The template: `{param}` marks a value, given in the name or in the state's params. */
  readonly name: string;
  /** Each parameter and what it means; values the state *gives* the pact (for `fromProviderState`) are marked so. */
  readonly params?: Readonly<Record<string, string>>;
  /** What the state arranges on the twin. */
  readonly twin: string;
  /** What it checks or finds on the live service. */
  readonly live: string;
  /** When the interaction is skipped on live; absent: never. */
  readonly skippedOnLive?: string;
}

export interface StateMatch {
  readonly entry: StateEntry;
  /** The values in the name, overlaid with the state's own params. */
  readonly params: Record<string, unknown>;
}

const PLACEHOLDER = /\{(\w+)\}/g;
const squash = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

/** A regular expression of the template: each `{param}` a captured value; spaces and case do not matter. */
function templatePattern(template: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = template
    .trim()
    .replace(/\s+/g, ' ')
    .split(PLACEHOLDER)
    .map((part, i) => {
      if (i % 2 === 1) {
        names.push(part);
        return '(.+?)';
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return { pattern: new RegExp(`^${source}$`, 'i'), names };
}

/** The entry a pact's state names, with its parameters; undefined when none matches. */
export function matchState(vocabulary: readonly StateEntry[], name: string, params: Record<string, unknown> = {}): StateMatch | undefined {
  const exact = vocabulary.find((entry) => entry.name === name);
  if (exact) return { entry: exact, params: { ...params } };
  const wanted = name.trim().replace(/\s+/g, ' ');
  for (const entry of vocabulary) {
    const { pattern, names } = templatePattern(entry.name);
    const found = pattern.exec(wanted);
    if (!found) continue;
    // A value still written as `{x}` is the template's own placeholder: the params give it, or the state does.
    const inline = Object.fromEntries(names.map((n, i) => [n, found[i + 1]!]).filter(([, value]) => !/^\{\w+\}$/.test(value!)));
    return { entry, params: { ...inline, ...params } };
  }
  return undefined;
}

/** The known state whose template is nearest the name (placeholders count as the words they stand for). */
export function closestState(vocabulary: readonly StateEntry[], name: string): StateEntry | undefined {
  const wanted = squash(name);
  let best: { entry: StateEntry; score: number } | undefined;
  for (const entry of vocabulary) {
    const score = editDistance(wanted, squash(entry.name.replace(PLACEHOLDER, '$1')));
    if (!best || score < best.score) best = { entry, score };
  }
  return best?.entry;
}

/** A pact names a state no table knows: thrown before any state is arranged or request sent. */
export class UnknownProviderStateError extends Error {
  override name = 'UnknownProviderStateError';

  constructor(options: { state: string; interaction: string; api: string; vocabulary: readonly StateEntry[] }) {
    const { state, interaction, api, vocabulary } = options;
    const closest = closestState(vocabulary, state);
    const words = commandWords();
    super(
      [
        `Unknown provider state "${state}" in the pact interaction "${interaction}": the ${api} knows no such state, so nothing was sent.`,
        ...(closest ? [`Closest known state: "${closest.name}".`] : []),
        `Known states of the ${api} (${words.statesDoc}):`,
        ...vocabulary.map((entry) => `  - ${entry.name}`),
        `Fix: name one of these in the consumer test's given(...), or add the state in your team's states file (${words.verify} --states <file>).`,
      ].join('\n'),
    );
  }
}

/** Resolves every state of an interaction, or throws UnknownProviderStateError for the first unknown one. */
export function resolveStates(
  vocabulary: readonly StateEntry[],
  api: string,
  interaction: { readonly description: string; readonly providerStates?: readonly { readonly name: string; readonly params?: Record<string, unknown> }[] },
): StateMatch[] {
  return (interaction.providerStates ?? []).map((state) => {
    const match = matchState(vocabulary, state.name, state.params ?? {});
    if (!match) throw new UnknownProviderStateError({ state: state.name, interaction: interaction.description, api, vocabulary });
    return match;
  });
}
