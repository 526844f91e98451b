/**
 * The route table of the Media Tracking API (../shared/specs/media-tracking-api.md,
 * Endpoints), stated once. The twin's registry serves it, the route-coverage
 * suite is generated from it, and the rule-coverage report counts it.
 */

/** Standard resource routes (set C): index, create, show, update (PATCH and PUT), destroy. */
export const STANDARD_COLLECTIONS = [
  'users',
  'profile-links',
  'follows',
  'media-ignores',
  'post-follows',
  'blocks',
  'linked-accounts',
  'list-imports',
  'user-roles',
  'roles',
  'notification-settings',
  'push-players',
  'library-entries',
  'favorites',
  'category-favorites',
  'categories',
  'anime',
  'manga',
  'mappings',
  'streaming-links',
  'streamers',
  'episodes',
  'chapters',
  'media-reaction-votes',
  'media-reactions',
  'characters',
  'people',
  'producers',
  'posts',
  'post-likes',
  'comments',
  'comment-likes',
  'reports',
  'site-announcements',
  'groups',
  'group-members',
  'group-permissions',
  'group-neighbors',
  'group-categories',
  'group-tickets',
  'group-ticket-messages',
  'group-reports',
  'group-bans',
  'group-member-notes',
  'leader-chat-messages',
  'group-action-logs',
  'group-invites',
  'uploads',
] as const;

/** Read-only routes: GET /{collection} and GET /{collection}/{id} only. */
export const READ_ONLY_COLLECTIONS = ['profile-link-sites', 'library-entry-logs', 'stats'] as const;

export type MediaCollection = (typeof STANDARD_COLLECTIONS)[number] | (typeof READ_ONLY_COLLECTIONS)[number];

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface SpecialRoute {
  readonly method: HttpMethod;
  /** Path shape with `{placeholders}`, under {base_url}/api/edge. */
  readonly path: string;
  readonly purpose: string;
}

/** Special routes, verbatim from the spec's table. */
export const SPECIAL_ROUTES: readonly SpecialRoute[] = [
  { method: 'GET', path: '/library-entries/_issues', purpose: 'library entry issues' },
  { method: 'DELETE', path: '/library-entries/_bulk', purpose: 'bulk delete' },
  { method: 'PATCH', path: '/library-entries/_bulk', purpose: 'bulk update' },
  { method: 'PUT', path: '/library-entries/_bulk', purpose: 'bulk update (same as PATCH)' },
  { method: 'GET', path: '/trending/{namespace}', purpose: 'trending list' },
  { method: 'GET', path: '/recommendations/{namespace}', purpose: 'recommendations' },
  { method: 'GET', path: '/recommendations/{namespace}/realtime', purpose: 'realtime recommendations' },
  { method: 'GET', path: '/category_recommendations/{namespace}', purpose: 'category recommendations' },
  { method: 'GET', path: '/category_recommendations/{namespace}/realtime', purpose: 'realtime category recommendations' },
  { method: 'DELETE', path: '/activities/{id}', purpose: 'delete an activity' },
  { method: 'GET', path: '/feeds/{group}/{id}', purpose: 'read a feed' },
  { method: 'POST', path: '/feeds/{group}/{id}/_read', purpose: 'mark feed read' },
  { method: 'POST', path: '/feeds/{group}/{id}/_seen', purpose: 'mark feed seen' },
  { method: 'DELETE', path: '/feeds/{group}/{id}/activities/{uuid}', purpose: 'delete one activity of a feed' },
  { method: 'POST', path: '/embeds', purpose: 'create an embed' },
  { method: 'POST', path: '/group-invites/{id}/_accept', purpose: 'accept an invite' },
  { method: 'POST', path: '/group-invites/{id}/_decline', purpose: 'decline an invite' },
  { method: 'POST', path: '/group-invites/{id}/_revoke', purpose: 'revoke an invite' },
  { method: 'GET', path: '/groups/{id}/_stats', purpose: 'group statistics' },
  { method: 'POST', path: '/groups/{id}/_read', purpose: 'mark group read' },
  { method: 'GET', path: '/search-keys', purpose: 'all search keys' },
  { method: 'GET', path: '/search-keys/{action}', purpose: 'one kind of search key, selected by action' },
  { method: 'POST', path: '/uploads/_bulk', purpose: 'create uploads in bulk' },
];

/**
 * Routes the field notes say the real service no longer serves as the spec
 * lists them: on a real provider their absence is an observation, not a
 * contract failure.
 */
export const ROUTES_NOT_SERVED_ON_LIVE: Readonly<Record<string, string>> = {
  '/search-keys': 'the real server serves /algolia-keys and /typesense-keys instead',
  '/search-keys/{action}': 'the real server serves /algolia-keys and /typesense-keys instead',
  '/recommendations/{namespace}': 'the real server removed recommendations',
  '/recommendations/{namespace}/realtime': 'the real server removed recommendations',
  '/category_recommendations/{namespace}': 'the real server removed category recommendations',
  '/category_recommendations/{namespace}/realtime': 'the real server removed category recommendations',
};

export interface MediaRoute {
  readonly method: HttpMethod;
  readonly path: string;
  /** index, create, show, update, destroy, or the special route's purpose. */
  readonly operation: string;
  readonly kind: 'standard' | 'read-only' | 'special';
}

/** Every route of the spec, expanded: 48 × 6 standard, 3 × 2 read-only, 23 special. */
export function mediaRoutes(): MediaRoute[] {
  const routes: MediaRoute[] = [];
  for (const c of STANDARD_COLLECTIONS) {
    routes.push(
      { method: 'GET', path: `/${c}`, operation: 'index', kind: 'standard' },
      { method: 'POST', path: `/${c}`, operation: 'create', kind: 'standard' },
      { method: 'GET', path: `/${c}/{id}`, operation: 'show', kind: 'standard' },
      { method: 'PATCH', path: `/${c}/{id}`, operation: 'update', kind: 'standard' },
      { method: 'PUT', path: `/${c}/{id}`, operation: 'update', kind: 'standard' },
      { method: 'DELETE', path: `/${c}/{id}`, operation: 'destroy', kind: 'standard' },
    );
  }
  for (const c of READ_ONLY_COLLECTIONS) {
    routes.push(
      { method: 'GET', path: `/${c}`, operation: 'index', kind: 'read-only' },
      { method: 'GET', path: `/${c}/{id}`, operation: 'show', kind: 'read-only' },
    );
  }
  for (const r of SPECIAL_ROUTES) routes.push({ method: r.method, path: r.path, operation: r.purpose, kind: 'special' });
  return routes;
}

/** Relationships between resources (spec table): name → the collections it is present on. */
export const MEDIA_RELATIONSHIPS: Readonly<Record<string, readonly string[]>> = {
  categories: ['anime', 'manga'],
  mappings: ['anime', 'manga'],
  mediaRelationships: ['anime', 'manga'],
  characters: ['anime', 'manga'],
  staff: ['anime', 'manga'],
  productions: ['anime', 'manga'],
  quotes: ['anime', 'manga'],
  chapters: ['manga'],
  streamingLinks: ['anime'],
  episodes: ['anime'],
  media: ['episodes'],
  videos: ['episodes'],
};

/** Deprecated relationships (spec table): name → replacement, or null where none is given. */
export const DEPRECATED_RELATIONSHIPS: Readonly<Record<string, string | null>> = {
  animeCharacters: 'characters',
  animeProductions: 'productions',
  animeStaff: 'staff',
  castings: 'staff',
  genres: 'categories',
  installments: 'mediaRelationships',
  mangaCharacters: 'characters',
  mangaStaff: 'staff',
  reviews: null,
};

/**
 * The deprecated relationships an anime or a manga keeps: every one of the table but those named
 * after the other kind (animeStaff is an anime's, mangaStaff a manga's), as the real captures show
 * (fixtures/media/anime-973.2023-capture.json carries all seven of an anime's).
 */
export function deprecatedRelationshipsOn(kind: 'anime' | 'manga'): string[] {
  const other = kind === 'anime' ? 'manga' : 'anime';
  return Object.keys(DEPRECATED_RELATIONSHIPS).filter((name) => !name.startsWith(other));
}
