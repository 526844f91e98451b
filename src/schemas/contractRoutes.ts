/**
 * Each API's route schemas for any provider: where its paths start (any store id for the store) and which
 * contract schema each route has. What reads a pact, a recording or a provider's answer without knowing
 * the provider's own base takes them from here.
 */
import { MEDIA_CONTRACT } from '../rules/mediaContract.ts';
import { STORE_CONTRACT } from '../rules/storeContract.ts';
import { mediaResponseSchema } from './mediaResponseSchema.ts';
import type { RouteSchemas } from './schemaBreaches.ts';
import { storeResponseSchema } from './storeResponseSchema.ts';
import { STORE_FIELD_NOTES_SHAPES } from './fieldNotesShapes.ts';

export const CONTRACT_ROUTES: Readonly<Record<'store' | 'media', RouteSchemas>> = {
  store: { basePath: new RegExp(`/${STORE_CONTRACT.version}/\\d+`), schemaFor: storeResponseSchema, fieldNotesShapes: STORE_FIELD_NOTES_SHAPES },
  media: { basePath: MEDIA_CONTRACT.edgePrefix, schemaFor: mediaResponseSchema },
};
