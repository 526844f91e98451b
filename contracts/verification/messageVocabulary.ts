/**
 * The states a message interaction may name: one per event whose webhook delivery the store twin sends
 * (messageStates.ts arranges them), and a team's own names for them (its states file's `storeMessages`). A store
 * delivery carries only `store_id`, `event` and `id`, so which event is all a message state decides: a team's
 * message state names the event it is. Apart from messageStates.ts so that a states file is checked without loading
 * the store provider.
 */
import type { StateEntry } from './stateVocabulary.ts';

/** The message states' templates: one per event the store twin delivers. */
export const MESSAGE_STATES = {
  productCreated: 'a product was created',
  productUpdated: 'a product was updated',
  productDeleted: 'a product was deleted',
  categoryCreated: 'a category was created',
  categoryUpdated: 'a category was updated',
  categoryDeleted: 'a category was deleted',
  storeSuspended: 'the store was suspended',
  storeResumed: 'the store was resumed',
} as const;

const GIVEN_STORE = { storeId: 'given: the store that sent the delivery (its `store_id`)' };

/** A message state: what the twin does to send its delivery; on live there is nothing to see, so it is never verified there. */
function delivery(name: string, params: Readonly<Record<string, string>> | undefined, twin: string): StateEntry {
  return {
    name,
    ...(params ? { params } : {}),
    twin,
    live: 'nothing: a live delivery goes to the URL the app registered, where the harness cannot see it',
    skippedOnLive: 'always: message interactions are verified on the twins (not verified, and the run fails, on live and replay)',
  };
}

/** The message states as docs/provider-states.md shows them. */
export const MESSAGE_VOCABULARY: readonly StateEntry[] = [
  delivery(
    MESSAGE_STATES.productCreated,
    { ...GIVEN_STORE, productId: "given: the product created (the delivery's `id`)" },
    'a fresh store with a webhook for product/created; a product is created through the API, and the delivery the twin sends is the message',
  ),
  delivery(
    MESSAGE_STATES.productUpdated,
    { ...GIVEN_STORE, productId: 'given: the product updated' },
    'a fresh store with a webhook for product/updated; a product of the seed is renamed through the API',
  ),
  delivery(
    MESSAGE_STATES.productDeleted,
    { ...GIVEN_STORE, productId: 'given: the product deleted' },
    'a fresh store with a webhook for product/deleted; a product of the seed is deleted through the API',
  ),
  delivery(
    MESSAGE_STATES.categoryCreated,
    { ...GIVEN_STORE, categoryId: 'given: the category created' },
    'a fresh store with a webhook for category/created; a category is created through the API',
  ),
  delivery(
    MESSAGE_STATES.categoryUpdated,
    { ...GIVEN_STORE, categoryId: 'given: the category updated' },
    'a fresh store with a webhook for category/updated; a category of the seed is renamed through the API',
  ),
  delivery(
    MESSAGE_STATES.categoryDeleted,
    { ...GIVEN_STORE, categoryId: 'given: the category deleted' },
    'a fresh store with a webhook for category/deleted; a category without subcategories is deleted through the API',
  ),
  delivery(MESSAGE_STATES.storeSuspended, GIVEN_STORE, 'a fresh store with a webhook for app/suspended; the store is suspended through the control API'),
  delivery(
    MESSAGE_STATES.storeResumed,
    GIVEN_STORE,
    'a fresh store with a webhook for app/resumed; the store is suspended, then resumed, through the control API',
  ),
];

/** A team's own name for one of the store's message states (docs/provider-states.md, "A team's own states"). */
export interface TeamMessageState {
  /** The template, as the team's consumer tests name the state. */
  readonly name: string;
  readonly params?: Readonly<Record<string, string>>;
  /** The store's message state whose delivery is the message: `a product was created`, … */
  readonly event: string;
}

/** The built-in message state a team's message state names; undefined when it names none. */
export function eventEntry(state: Pick<TeamMessageState, 'event'>): StateEntry | undefined {
  return MESSAGE_VOCABULARY.find((entry) => entry.name === state.event);
}

/** The message states with the team's: each of the team's documented as the delivery of its event. */
export function messageVocabularyWith(team: readonly TeamMessageState[]): StateEntry[] {
  return [
    ...MESSAGE_VOCABULARY,
    ...team.map((state) => {
      const event = eventEntry(state)!;
      return delivery(state.name, state.params ?? event.params, `as "${event.name}": ${event.twin}`);
    }),
  ];
}

/** The built-in message state whose delivery answers `name` (a built-in name, or one of the team's). */
export function eventOf(name: string, team: readonly TeamMessageState[]): string {
  return team.find((state) => state.name === name)?.event ?? name;
}
