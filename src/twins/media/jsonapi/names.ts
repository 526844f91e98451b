/**
 * Member-name formats of the Media API (field notes, "Media type, keys, ids";
 * media.jsonapi.camel-case-members): members and types are camelCase, path segments dasherized,
 * and clients may write filter and field names in snake_case.
 */

/** `library_entries`, `library-entries`, `libraryEntries` → `libraryEntries`. */
export function camelize(name: string): string {
  return name.replace(/[-_]+([a-zA-Z0-9])/g, (_match, next: string) => next.toUpperCase());
}

/** `mediaRelationships` → `media-relationships`. */
export function dasherize(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

/** `mediaRelationships` → `media_relationships`. */
export function underscore(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** `libraryEntry` → `library entry`, for messages such as "You don't have permission to update this library entry." */
export function humanize(name: string): string {
  return underscore(camelize(name)).replace(/_/g, ' ');
}
