import { isRecord, toResource } from './toResource.ts';
import type { Resource, ResourceIdentifier, ResourceObject } from './types.ts';

/** What a relationship can be looked up in: a JsonApiDocument, a CollectionPage or a SingleDocument. */
export interface IncludedSource {
  data?: ResourceObject | readonly ResourceObject[] | null;
  included?: readonly ResourceObject[];
}

/**
 * The resources a relationship of `resource` points at, looked up in the
 * document's `included` (then its primary data, which full linkage may point at):
 * - undefined: no such relationship, or it has only links (not included);
 * - null: a to-one relationship with `data: null` (e.g. adult media hidden from an anonymous include);
 * - a Resource: to-one; undefined if the document does not carry it;
 * - Resource[]: to-many, in linkage order; identifiers the document does not carry are left out.
 */
export function resolveRelationship(doc: IncludedSource, resource: ResourceObject, name: string): Resource | Resource[] | null | undefined {
  const relationship = resource.relationships?.[name];
  if (!relationship || !('data' in relationship) || relationship.data === undefined) return undefined;
  const linkage = relationship.data;
  if (linkage === null) return null;
  const index = indexOf(doc);
  if (Array.isArray(linkage)) return linkage.map((identifier) => index.get(keyOf(identifier))).filter((found): found is Resource => found !== undefined);
  return index.get(keyOf(linkage));
}

function indexOf(doc: IncludedSource): Map<string, Resource> {
  const index = new Map<string, Resource>();
  const data: readonly unknown[] = doc.data === undefined || doc.data === null ? [] : Array.isArray(doc.data) ? doc.data : [doc.data];
  // Primary data first, then included: on a clash the included copy wins.
  for (const object of [...data, ...(doc.included ?? [])]) {
    if (isResourceObject(object)) index.set(keyOf(object), toResource(object));
  }
  return index;
}

function isResourceObject(value: unknown): value is ResourceObject {
  return isRecord(value) && value.id !== undefined && typeof value.type === 'string';
}

function keyOf(identifier: Pick<ResourceIdentifier, 'id' | 'type'>): string {
  return `${identifier.type}\u0000${String(identifier.id)}`;
}
