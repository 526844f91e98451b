import { isJsonApiContentType } from '../http/negotiation.ts';
import { canRead } from '../access.ts';
import type { TwinResponse } from '../http/responses.ts';
import { JsonApiError, mustBeLoggedIn, unsupportedMediaType } from '../jsonapi/errors.ts';
import type { MediaRecord } from '../model.ts';
import type { ApiContext } from '../operations.ts';

/** A special route: the path parameters by the names of the spec's table (`namespace`, `group`, `id`, `uuid`, `action`). */
export type SpecialHandler = (context: ApiContext, params: Readonly<Record<string, string>>) => TwinResponse;

/** The body of a special route, if it has one: it must be JSON:API like every write (415 otherwise, media.writes.media-type-415). */
export function specialBody(context: ApiContext): unknown {
  if (!context.hasBody) return undefined;
  if (!isJsonApiContentType(context.headers)) throw unsupportedMediaType(context.headers['content-type'] ?? '');
  return context.json();
}

/** The signed-in user, or 403 "Must be logged in" as the real custom controllers answer. */
export function signedInUser(context: ApiContext): MediaRecord {
  if (!context.viewer.user) throw mustBeLoggedIn();
  return context.viewer.user;
}

export const MEDIA_NAMESPACES = ['anime', 'manga'] as const;

/** `anime` or `manga`; anything else is 400 "Invalid namespace" (the real recommendations controller's answer; media.special.trending). */
export function readNamespace(raw: string | undefined): 'anime' | 'manga' {
  const namespace = (raw ?? '').toLowerCase();
  if (namespace === 'anime' || namespace === 'manga') return namespace;
  throw JsonApiError.custom(400, 'Invalid namespace');
}

/** The start of the twin's current UTC day, as an ISO date prefix (`2025-01-01`). */
export function today(context: ApiContext): string {
  return context.state.nowIso().slice(0, 10);
}

/** Records of a type the viewer may see. */
export function visibleRecords(context: ApiContext, type: string): MediaRecord[] {
  return context.state.all(type).filter((record) => canRead(context.state, context.viewer, record));
}
