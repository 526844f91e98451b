/**
 * Which handler answers a request under /api/edge: a special route of the
 * spec's table first (`/library-entries/_issues` before `/library-entries/{id}`),
 * then the registry's routes. Anything else is 404 "Route Not Found", as Rails
 * answers a path or method it has no route for (media.routes.unknown-route-404).
 */
import type { TwinResponse } from './http/responses.ts';
import { routeNotFound } from './jsonapi/errors.ts';
import {
  createResponse,
  destroyResponse,
  indexResponse,
  relatedResponse,
  relationshipResponse,
  showResponse,
  updateResponse,
  type ApiContext,
} from './operations.ts';
import { definitionForCollection } from './registry.ts';
import { matchSpecialRoute } from './special/specialRoutes.ts';

/** `method` is the request's, with HEAD already turned into GET. */
export function routeApiRequest(context: ApiContext, method: string, segments: readonly string[]): TwinResponse {
  // media.routes.special
  const special = matchSpecialRoute(method, segments);
  if (special) return special.handler(context, special.params);

  const [collection = '', id, third, fourth, ...rest] = segments;
  const definition = definitionForCollection(collection);
  if (!definition || rest.length > 0) throw routeNotFound();
  // media.routes.standard: set C writes (create, PATCH and PUT update, destroy); media.routes.read-only: GET index and show only.
  const writable = definition.routes === 'standard';
  if (id === undefined) {
    if (method === 'GET') return indexResponse(context, definition);
    if (method === 'POST' && writable) return createResponse(context, definition);
  } else if (third === undefined) {
    if (method === 'GET') return showResponse(context, definition, id);
    if ((method === 'PATCH' || method === 'PUT') && writable) return updateResponse(context, definition, id);
    if (method === 'DELETE' && writable) return destroyResponse(context, definition, id);
  } else if (fourth === undefined) {
    if (method === 'GET') return relatedResponse(context, definition, id, third);
  } else if (third === 'relationships' && method === 'GET') {
    return relationshipResponse(context, definition, id, fourth);
  }
  throw routeNotFound();
}
