/**
 * `include=categories,mediaRelationships.destination` (media.jsonapi.included): parsed into a tree of
 * relationship names, each checked against the types it can reach (a polymorphic relationship reaches
 * several; an unknown name is media.errors.bad-query-400). Names may be camelCase or snake_case.
 */
import { definitionForType } from '../registry.ts';
import { targetTypes, type ResourceDefinition } from '../resources/define.ts';
import { invalidInclude } from './errors.ts';
import { camelize } from './names.ts';

export interface IncludeNode {
  /** Relationship name (camelCase) → what to include below it. */
  readonly children: Map<string, IncludeNode>;
}

export function emptyInclude(): IncludeNode {
  return { children: new Map() };
}

/** Parses and checks an include list against the primary resource's definition. */
export function parseInclude(raw: string | undefined, definition: ResourceDefinition): IncludeNode {
  const root = emptyInclude();
  if (raw === undefined) return root;
  for (const path of raw.split(',')) {
    const trimmed = path.trim();
    if (trimmed === '') continue;
    let node = root;
    let types: readonly string[] = [definition.type];
    for (const segment of trimmed.split('.')) {
      const name = camelize(segment);
      const owners = types.flatMap((type) => {
        const relationships = definitionForType(type)?.relationships;
        const spec = relationships && Object.hasOwn(relationships, name) ? relationships[name] : undefined;
        return spec ? [spec] : [];
      });
      if (segment === '' || owners.length === 0) throw invalidInclude(segment, types.join(' or ') || 'a deprecated relationship');
      types = [...new Set(owners.flatMap(targetTypes))];
      let child = node.children.get(name);
      if (!child) {
        child = emptyInclude();
        node.children.set(name, child);
      }
      node = child;
    }
  }
  return root;
}
