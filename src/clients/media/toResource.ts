import type { Resource, ResourceObject } from './types.ts';

/**
 * A resource object with `attributes` and `relationships` always objects (the
 * 2016 capture has no relationships; a sparse fieldset may leave out both).
 * An object that already has both is returned as is, so identities survive.
 * id and type are not coerced: a number id is the provider's fault, for the schemas to show.
 */
export function toResource(object: ResourceObject): Resource {
  if (isRecord(object.attributes) && isRecord(object.relationships)) return object as Resource;
  return {
    ...object,
    attributes: isRecord(object.attributes) ? object.attributes : {},
    relationships: isRecord(object.relationships) ? object.relationships : {},
  };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
