/**
 * The handlers of the spec's special routes, keyed by method and path exactly
 * as SPECIAL_ROUTES lists them; loading fails if one has no handler (media.routes.special).
 */
import { SPECIAL_ROUTES } from '../../../rules/mediaRoutes.ts';
import type { SpecialHandler } from './common.ts';
import { createEmbed } from './embeds.ts';
import { deleteActivity, deleteFeedActivity, markFeedRead, markFeedSeen, readFeed } from './feeds.ts';
import { acceptInvite, declineInvite, groupStats, markGroupRead, revokeInvite } from './groups.ts';
import { libraryBulkDelete, libraryBulkUpdate, libraryIssues } from './libraryEntries.ts';
import { categoryRecommendations, realtimeCategoryRecommendations, realtimeRecommendations, recommendations, trending } from './mediaLists.ts';
import { allSearchKeys, oneSearchKey } from './searchKeys.ts';
import { bulkUploads } from './uploads.ts';

const HANDLERS: Readonly<Record<string, SpecialHandler>> = {
  'GET /library-entries/_issues': libraryIssues,
  'DELETE /library-entries/_bulk': libraryBulkDelete,
  'PATCH /library-entries/_bulk': libraryBulkUpdate,
  'PUT /library-entries/_bulk': libraryBulkUpdate,
  'GET /trending/{namespace}': trending,
  'GET /recommendations/{namespace}': recommendations,
  'GET /recommendations/{namespace}/realtime': realtimeRecommendations,
  'GET /category_recommendations/{namespace}': categoryRecommendations,
  'GET /category_recommendations/{namespace}/realtime': realtimeCategoryRecommendations,
  'DELETE /activities/{id}': deleteActivity,
  'GET /feeds/{group}/{id}': readFeed,
  'POST /feeds/{group}/{id}/_read': markFeedRead,
  'POST /feeds/{group}/{id}/_seen': markFeedSeen,
  'DELETE /feeds/{group}/{id}/activities/{uuid}': deleteFeedActivity,
  'POST /embeds': createEmbed,
  'POST /group-invites/{id}/_accept': acceptInvite,
  'POST /group-invites/{id}/_decline': declineInvite,
  'POST /group-invites/{id}/_revoke': revokeInvite,
  'GET /groups/{id}/_stats': groupStats,
  'POST /groups/{id}/_read': markGroupRead,
  'GET /search-keys': allSearchKeys,
  'GET /search-keys/{action}': oneSearchKey,
  'POST /uploads/_bulk': bulkUploads,
};

export interface SpecialRoute {
  readonly method: string;
  readonly segments: readonly string[];
  readonly handler: SpecialHandler;
}

export const SPECIAL_HANDLERS: readonly SpecialRoute[] = SPECIAL_ROUTES.map((route) => {
  const handler = HANDLERS[`${route.method} ${route.path}`];
  if (!handler) throw new Error(`media twin: special route ${route.method} ${route.path} has no handler in special/specialRoutes.ts`);
  return { method: route.method, segments: route.path.split('/').slice(1), handler };
});

if (Object.keys(HANDLERS).length !== SPECIAL_ROUTES.length)
  throw new Error('media twin: special/specialRoutes.ts has a handler for a route SPECIAL_ROUTES does not list');

/** The special route a method and path match, with its `{parameters}`. */
export function matchSpecialRoute(method: string, segments: readonly string[]): { handler: SpecialHandler; params: Record<string, string> } | undefined {
  for (const route of SPECIAL_HANDLERS) {
    if (route.method !== method || route.segments.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = route.segments.every((pattern, i) => {
      const actual = segments[i] ?? '';
      if (pattern.startsWith('{') && pattern.endsWith('}')) {
        params[pattern.slice(1, -1)] = actual;
        return actual !== '';
      }
      return pattern === actual;
    });
    if (matches) return { handler: route.handler, params };
  }
  return undefined;
}
