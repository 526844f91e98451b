/**
 * The resource object of a create or update body: `{"data": {"type", "id",
 * "attributes", "relationships"}}`. Structure problems are 400s with
 * jsonapi-resources' titles; values are checked later (422).
 */
import { isJsonObject } from '../../serving/requestBody.ts';
import type { Ref } from '../model.ts';
import { targetTypes, type ResourceDefinition } from '../resources/define.ts';
import { ERROR_CODES, JsonApiError, badRequest, invalidResource, paramMissing, paramNotAllowed } from './errors.ts';
import { camelize } from './names.ts';

export interface ResourceWrite {
  readonly attributes: ReadonlyMap<string, unknown>;
  readonly relationships: ReadonlyMap<string, Ref | null | Ref[]>;
}

function invalidLinksObject(name: string): JsonApiError {
  return JsonApiError.of(
    400,
    'Invalid Links Object',
    `Data is not a valid Links Object: relationships.${name} must be {"data": {"type": "...", "id": "..."}} (or null, or a list for to-many).`,
    ERROR_CODES.invalidLinksObject,
  );
}

function readIdentifier(value: unknown, name: string, allowed: readonly string[]): Ref {
  if (!isJsonObject(value)) throw invalidLinksObject(name);
  const { type, id } = value;
  if (typeof type !== 'string' || (typeof id !== 'string' && typeof id !== 'number')) throw invalidLinksObject(name);
  const normalized = camelize(type);
  if (!allowed.includes(normalized)) {
    throw JsonApiError.of(
      400,
      'Type Mismatch',
      `${type} is not a valid type for this operation: ${name} takes ${allowed.join(' or ')}.`,
      ERROR_CODES.typeMismatch,
    );
  }
  return { type: normalized, id: String(id) };
}

/** Reads a write body for `definition`; `urlId` is the id of an update's path. */
export function readResourceDocument(body: unknown, definition: ResourceDefinition, action: 'create' | 'update', urlId?: string): ResourceWrite {
  if (!isJsonObject(body) || !Object.hasOwn(body, 'data')) throw paramMissing('data');
  const data = body['data'];
  if (!isJsonObject(data)) throw badRequest(`data must be one resource object, e.g. {"data": {"type": "${definition.type}", "attributes": {...}}}.`);
  if (data['type'] === undefined || data['type'] === null) throw paramMissing('type');
  if (typeof data['type'] !== 'string' || camelize(data['type']) !== definition.type) throw invalidResource(String(data['type']));
  const id = data['id'];
  if (action === 'create' && id !== undefined && id !== null) throw paramNotAllowed('id');
  if (action === 'update') {
    if (id === undefined || id === null) throw paramMissing('id');
    if (String(id) !== urlId)
      throw JsonApiError.of(400, 'Key is not included in URL', `The URL does not support the key ${String(id)}`, ERROR_CODES.keyNotIncludedInUrl);
  }
  return { attributes: readAttributes(data, definition, action), relationships: readRelationships(data, definition, action) };
}

/** The attributes a write may set: each must be one the action may write (some only on create). */
function readAttributes(data: Readonly<Record<string, unknown>>, definition: ResourceDefinition, action: 'create' | 'update'): Map<string, unknown> {
  const attributes = new Map<string, unknown>();
  const rawAttributes = data['attributes'];
  if (rawAttributes !== undefined && rawAttributes !== null) {
    if (!isJsonObject(rawAttributes)) throw badRequest('attributes must be an object of member names and values.');
    for (const [key, value] of Object.entries(rawAttributes)) {
      const name = camelize(key);
      const spec = Object.hasOwn(definition.attributes, name) ? definition.attributes[name] : undefined;
      const writable = spec?.write === 'always' || (spec?.write === 'create' && action === 'create');
      if (!writable) throw paramNotAllowed(key);
      attributes.set(name, value);
    }
  }
  return attributes;
}

/** The relationships a write may set, each `{"data": ...}` linkage checked against the types it may point at. */
function readRelationships(
  data: Readonly<Record<string, unknown>>,
  definition: ResourceDefinition,
  action: 'create' | 'update',
): Map<string, Ref | null | Ref[]> {
  const relationships = new Map<string, Ref | null | Ref[]>();
  const rawRelationships = data['relationships'];
  if (rawRelationships !== undefined && rawRelationships !== null) {
    if (!isJsonObject(rawRelationships)) throw badRequest('relationships must be an object of relationship names and {"data": ...} objects.');
    for (const [key, value] of Object.entries(rawRelationships)) {
      const name = camelize(key);
      const spec = Object.hasOwn(definition.relationships, name) ? definition.relationships[name] : undefined;
      if (!spec || spec.kind === 'deprecated') throw paramNotAllowed(key);
      const writable = spec.write === 'always' || (spec.write === 'create' && action === 'create');
      if (!writable) throw paramNotAllowed(key);
      if (!isJsonObject(value) || !Object.hasOwn(value, 'data')) throw invalidLinksObject(key);
      const linkage = value['data'];
      const allowed = targetTypes(spec);
      if (spec.kind === 'one') {
        relationships.set(name, linkage === null ? null : readIdentifier(linkage, key, allowed));
      } else {
        if (!Array.isArray(linkage)) throw invalidLinksObject(key);
        relationships.set(
          name,
          linkage.map((item) => readIdentifier(item, key, allowed)),
        );
      }
    }
  }
  return relationships;
}
