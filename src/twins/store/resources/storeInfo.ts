import { renderLocalized } from '../localized.ts';
import type { StoreState } from '../storeState.ts';
import { formatTimestamp } from '../timestamps.ts';

/** The store's storefront host: `.test` is reserved, so nothing real is ever named. */
export function storeDomain(store: StoreState): string {
  return `store-${store.id}.twin.test`;
}

/** GET /store: the store's languages and main language (field notes, Localization). */
export function renderStore(store: StoreState): Record<string, unknown> {
  const portuguese = store.mainLanguage === 'pt';
  return {
    id: store.id,
    name: renderLocalized(store.name, store.languages),
    description: renderLocalized({}, store.languages),
    email: `owner-${store.id}@${storeDomain(store)}`,
    contact_email: `contact-${store.id}@${storeDomain(store)}`,
    country: portuguese ? 'BR' : 'AR',
    main_currency: portuguese ? 'BRL' : 'ARS',
    main_language: store.mainLanguage,
    languages: [...store.languages],
    original_domain: storeDomain(store),
    created_at: formatTimestamp(store.createdAt),
  };
}
