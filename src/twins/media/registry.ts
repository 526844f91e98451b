/**
 * The resource registry: one definition per JSON:API type, found by its
 * collection path or its type. Every route of the spec's table is served from
 * it; loading fails if a collection of the table is missing.
 */
import { READ_ONLY_COLLECTIONS, STANDARD_COLLECTIONS } from '../../rules/mediaRoutes.ts';
import { CATALOGUE_RESOURCES } from './resources/catalogue.ts';
import type { ResourceDefinition } from './resources/define.ts';
import { GROUP_RESOURCES } from './resources/groups.ts';
import { LIBRARY_RESOURCES } from './resources/library.ts';
import { ANIME, MANGA } from './resources/media.ts';
import { SOCIAL_RESOURCES } from './resources/social.ts';
import { USER_RESOURCES } from './resources/users.ts';

export const RESOURCES: readonly ResourceDefinition[] = [
  ANIME,
  MANGA,
  ...CATALOGUE_RESOURCES,
  ...USER_RESOURCES,
  ...LIBRARY_RESOURCES,
  ...SOCIAL_RESOURCES,
  ...GROUP_RESOURCES,
];

const byCollection = new Map(RESOURCES.filter((definition) => definition.routes !== 'none').map((definition) => [definition.collection, definition]));
const byType = new Map(RESOURCES.map((definition) => [definition.type, definition]));

/** media.routes.standard, media.routes.read-only: every collection of the spec's sets is served with its routes, or the twin does not load. */
function assertTable(): void {
  const problems: string[] = [];
  for (const collection of STANDARD_COLLECTIONS) {
    if (byCollection.get(collection)?.routes !== 'standard') problems.push(`${collection} must be a standard collection`);
  }
  for (const collection of READ_ONLY_COLLECTIONS) {
    if (byCollection.get(collection)?.routes !== 'read-only') problems.push(`${collection} must be a read-only collection`);
  }
  if (byType.size !== RESOURCES.length) problems.push('two definitions share a type');
  for (const definition of RESOURCES) {
    for (const [name, spec] of Object.entries(definition.relationships)) {
      if (spec.kind === 'deprecated') continue;
      const targets = typeof spec.target === 'string' ? [spec.target] : spec.target;
      for (const target of targets) if (!byType.has(target)) problems.push(`${definition.type}.${name} points at unknown type ${target}`);
    }
  }
  if (problems.length > 0) throw new Error(`media twin registry: ${problems.join('; ')}`);
}
assertTable();

/** The definition served at `/{collection}`, if that collection has routes. */
export function definitionForCollection(collection: string): ResourceDefinition | undefined {
  return byCollection.get(collection);
}

export function definitionForType(type: string): ResourceDefinition | undefined {
  return byType.get(type);
}

/** The definition of a type the registry is known to hold (types come from the registry itself). */
export function requireDefinition(type: string): ResourceDefinition {
  const definition = byType.get(type);
  if (!definition) throw new Error(`media twin registry: no definition for type ${type}`);
  return definition;
}
