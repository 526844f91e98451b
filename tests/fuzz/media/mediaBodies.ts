/**
 * Write bodies of the Media API's standard routes, from the twin's registry
 * (ASSUMPTIONS.md: "One registry ... drives every route: each type's
 * collection, attributes, relationships"): the JSON:API document a create or
 * update sends, and members of the wrong kind for the fuzzer to put in it.
 */
import fc from 'fast-check';
import type { AttributeKind, AttributeSpec, RelationshipSpec, ResourceDefinition } from '../../../src/twins/media/resources/define.ts';

export type WriteAction = 'create' | 'update';

/** Members are written `attributes.<name>` or `relationships.<name>`. */
export type WrittenMembers = Readonly<Record<string, unknown>>;

/** Whether an attribute or a (not deprecated) relationship may be written by this action. */
export function writable(spec: AttributeSpec | RelationshipSpec, action: WriteAction): boolean {
  if (spec.kind === 'deprecated') return false;
  return spec.write === 'always' || (spec.write === 'create' && action === 'create');
}

/** `{"data": {"type", "id"?, "attributes", "relationships"?}}` with the members given. */
export function resourceDocument(definition: ResourceDefinition, action: WriteAction, id: string | undefined, members: WrittenMembers = {}): unknown {
  const attributes: Record<string, unknown> = {};
  const relationships: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(members)) {
    const [part, name = ''] = key.split('.');
    if (part === 'attributes') attributes[name] = value;
    else relationships[name] = value;
  }
  return {
    data: {
      type: definition.type,
      ...(action === 'update' ? { id } : {}),
      attributes,
      ...(Object.keys(relationships).length > 0 ? { relationships } : {}),
    },
  };
}

/** Values whose JSON type the kind never takes ("json" takes anything, so it has none). */
const WRONG_BY_KIND: Readonly<Record<AttributeKind, readonly unknown[]>> = {
  string: [12345, true, [], {}],
  integer: ['12', true, [], {}, 1.5],
  number: ['12', true, [], {}],
  decimal: [12, true, [], {}],
  boolean: ['true', 1, [], {}],
  date: [20240101, true, [], {}],
  datetime: [1700000000, true, [], {}],
  object: ['x', 1, [], true],
  stringArray: ['x', 1, {}, true],
  enum: [12, true, [], {}],
  json: [],
};

/** Whether a value has a JSON type the kind takes; the rest of its rules (ranges, formats, values) decide between 2xx and 422. */
export function kindTakes(kind: AttributeKind, value: unknown): boolean {
  if (value === null) return true;
  switch (kind) {
    case 'string':
    case 'decimal':
    case 'date':
    case 'datetime':
    case 'enum':
      return typeof value === 'string';
    case 'integer':
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return typeof value === 'object' && !Array.isArray(value);
    case 'stringArray':
      return Array.isArray(value);
    case 'json':
      return true;
  }
}

/** Linkage that is not `{"data": {type, id}}` (or a list of them for to-many): "400 Invalid Links Object (115)", or "Type Mismatch (116)". */
const WRONG_LINKAGE: readonly unknown[] = ['x', 7, { data: 'x' }, { data: { type: 'zzFuzz', id: '1' } }, { data: { id: '1' } }, { linkage: null }];

/** Up to three writable members of the wrong kind, or undefined when the type writes nothing that has a wrong kind. */
export function wrongMembersArb(definition: ResourceDefinition, action: WriteAction): fc.Arbitrary<WrittenMembers> | undefined {
  const choices: fc.Arbitrary<readonly [string, unknown]>[] = [];
  for (const [name, spec] of Object.entries(definition.attributes)) {
    const wrong = WRONG_BY_KIND[spec.kind];
    if (writable(spec, action) && wrong.length > 0) choices.push(fc.tuple(fc.constant(`attributes.${name}`), fc.constantFrom(...wrong)));
  }
  for (const [name, spec] of Object.entries(definition.relationships)) {
    if (writable(spec, action)) choices.push(fc.tuple(fc.constant(`relationships.${name}`), fc.constantFrom(...WRONG_LINKAGE)));
  }
  if (choices.length === 0) return undefined;
  return fc.uniqueArray(fc.oneof(...choices), { minLength: 1, maxLength: 3, selector: ([key]) => key }).map((entries) => Object.fromEntries(entries));
}
