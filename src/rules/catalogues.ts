import type { RuleCatalogue } from './Rule.ts';
import { MEDIA_RULES } from './mediaRules.ts';
import { STORE_RULES } from './storeRules.ts';

/** Every API's rule catalogue, by the prefix of its rule ids. */
export const CATALOGUES: Readonly<Record<string, RuleCatalogue>> = { store: STORE_RULES, media: MEDIA_RULES };
