/**
 * Sparse fieldsets, `fields[anime]=slug,titles` (media.jsonapi.sparse-fields): which attributes and
 * relationships each type shows. Names may be camelCase or snake_case.
 */
import { definitionForType } from '../registry.ts';
import { invalidField, invalidResource } from './errors.ts';
import { camelize } from './names.ts';

/** Type → the member names to show; a type absent here shows everything. */
export type Fieldsets = ReadonlyMap<string, ReadonlySet<string>>;

export function parseFieldsets(fields: ReadonlyMap<string, string>): Fieldsets {
  const parsed = new Map<string, Set<string>>();
  for (const [rawType, list] of fields) {
    const definition = definitionForType(camelize(rawType));
    if (!definition) throw invalidResource(rawType);
    const names = new Set<string>();
    for (const rawName of list.split(',')) {
      const trimmed = rawName.trim();
      if (trimmed === '') continue;
      const name = camelize(trimmed);
      const attribute = Object.hasOwn(definition.attributes, name) ? definition.attributes[name] : undefined;
      const relationship = Object.hasOwn(definition.relationships, name);
      if ((attribute === undefined || attribute.writeOnly) && !relationship) throw invalidField(trimmed, definition.type);
      names.add(name);
    }
    parsed.set(definition.type, names);
  }
  return parsed;
}

export function showsField(fieldsets: Fieldsets, type: string, name: string): boolean {
  const shown = fieldsets.get(type);
  return shown === undefined || shown.has(name);
}
