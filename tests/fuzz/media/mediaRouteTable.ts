/**
 * The Media API routes the fuzzer walks: every route of the spec's table
 * (`mediaRoutes()`, paths under /api/edge) and the two OAuth routes of the
 * contract's numbers (MEDIA_CONTRACT: paths from the host).
 */
import { MEDIA_CONTRACT } from '../../../src/rules/mediaContract.ts';
import { mediaRoutes, type MediaRoute } from '../../../src/rules/mediaRoutes.ts';
import { fuzzRoute, type FuzzRoute } from '../fuzzRoute.ts';
import type { WriteAction } from './mediaBodies.ts';

export type MediaRouteKind = MediaRoute['kind'] | 'oauth';

export interface MediaFuzzRoute extends FuzzRoute {
  readonly kind: MediaRouteKind;
  /** index, create, show, update, destroy, the special route's purpose, or `token` / `revoke`. */
  readonly operation: string;
}

const braces = (segment: string): string | undefined => (segment.startsWith('{') && segment.endsWith('}') ? segment.slice(1, -1) : undefined);

export function mediaFuzzRoutes(): MediaFuzzRoute[] {
  const api = mediaRoutes().map((route) => ({ ...fuzzRoute(route.method, route.path, braces), kind: route.kind, operation: route.operation }));
  const oauth = [
    { path: MEDIA_CONTRACT.oauthTokenPath, operation: 'token' },
    { path: MEDIA_CONTRACT.oauthRevokePath, operation: 'revoke' },
  ].map(({ path, operation }) => ({ ...fuzzRoute('POST', path, braces), kind: 'oauth' as const, operation }));
  return [...api, ...oauth];
}

/** The collection a route belongs to: its first segment (`/anime/{id}` → anime). */
export function collectionOf(route: FuzzRoute): string {
  const first = route.segments[0];
  return first && 'literal' in first ? first.literal : '';
}

/** The write action of a standard create or update, which sends a resource document. */
export function writeActionOf(route: MediaFuzzRoute): WriteAction | undefined {
  if (route.kind !== 'standard') return undefined;
  return route.operation === 'create' || route.operation === 'update' ? route.operation : undefined;
}
