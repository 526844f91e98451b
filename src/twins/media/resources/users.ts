/**
 * Users and what hangs off a user: profile links, follows, blocks, linked
 * accounts, imports, roles, notification settings, push players, favorites
 * and stats.
 */
import type { ValidationIssue } from '../jsonapi/errors.ts';
import type { MediaState } from '../mediaState.ts';
import { storedOne, type MediaRecord, type Ref } from '../model.ts';
import { SLUGGABLE, attr, defineResource, filter, policies, rel, checks, type Draft, type ResourceDefinition, type PolicyCheck } from './define.ts';

/** The viewer is this user (or an admin): a user's own profile. */
export const isSelf: PolicyCheck = (viewer, record) => viewer.isAdmin || (viewer.user !== undefined && viewer.user.id === record.id);

function countWhere(state: MediaState, type: string, relationship: string, target: MediaRecord): number {
  return state.all(type).filter((other) => storedOne(other, relationship)?.id === target.id).length;
}

/** 422 when another record of `type` already has the same value (case-insensitive for text). */
export function uniqueAttribute(state: MediaState, type: string, draft: Draft, name: string): ValidationIssue[] {
  const value = draft.attributes[name];
  if (typeof value !== 'string' || value === '') return [];
  const taken = state.all(type).some((other) => other.id !== draft.id && String(other.attributes[name]).toLowerCase() === value.toLowerCase());
  return taken ? [{ field: name, message: 'has already been taken' }] : [];
}

/** 422 when another record of `type` links to the same targets (a second follow of the same user). */
export function uniqueLinks(state: MediaState, type: string, draft: Draft, names: readonly string[], field: string): ValidationIssue[] {
  const wanted = names.map((name) => draft.links[name] as Ref | null | undefined);
  if (wanted.some((ref) => !ref)) return [];
  const taken = state.all(type).some(
    (other) =>
      other.id !== draft.id &&
      names.every((name, i) => {
        const ref = storedOne(other, name);
        return ref !== null && ref.type === wanted[i]?.type && ref.id === wanted[i]?.id;
      }),
  );
  return taken ? [{ field, message: 'has already been taken' }] : [];
}

const USER_NAME = /^[A-Za-z0-9_]{3,20}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const USERS: ResourceDefinition = defineResource({
  collection: 'users',
  type: 'users',
  singular: 'user',
  routes: 'standard',
  bases: [SLUGGABLE],
  attributes: {
    name: attr.string({ write: 'always', required: true, maxLength: 20, sortable: true }),
    pastNames: attr.strings({ default: [] }),
    about: attr.string({ write: 'always', maxLength: 500, default: '' }),
    location: attr.string({ write: 'always', maxLength: 200 }),
    waifuOrHusbando: attr.enum(['Waifu', 'Husbando'] as const, { write: 'always' }),
    followersCount: attr.integer({ sortable: true, compute: (record, state) => countWhere(state, 'follows', 'followed', record) }),
    followingCount: attr.integer({ sortable: true, compute: (record, state) => countWhere(state, 'follows', 'follower', record) }),
    lifeSpentOnAnime: attr.integer({ default: 0 }),
    birthday: attr.date({ write: 'always' }),
    gender: attr.string({ write: 'always', maxLength: 100 }),
    commentsCount: attr.integer({ compute: (record, state) => countWhere(state, 'comments', 'user', record) }),
    favoritesCount: attr.integer({ compute: (record, state) => countWhere(state, 'favorites', 'user', record) }),
    likesGivenCount: attr.integer({ compute: (record, state) => countWhere(state, 'postLikes', 'user', record) }),
    postsCount: attr.integer({ compute: (record, state) => countWhere(state, 'posts', 'user', record) }),
    ratingsCount: attr.integer({
      compute: (record, state) =>
        state.all('libraryEntries').filter((entry) => storedOne(entry, 'user')?.id === record.id && entry.attributes['ratingTwenty'] != null).length,
    }),
    mediaReactionsCount: attr.integer({ compute: (record, state) => countWhere(state, 'mediaReactions', 'user', record) }),
    title: attr.string(),
    profileCompleted: attr.boolean({ default: false }),
    feedCompleted: attr.boolean({ default: false }),
    website: attr.string({ write: 'always', maxLength: 500 }),
    avatar: attr.object({ write: 'always' }),
    coverImage: attr.object({ write: 'always' }),
    email: attr.string({ write: 'always', required: true, maxLength: 200, ownerOnly: true }),
    password: attr.string({ write: 'always', required: true, maxLength: 200, writeOnly: true }),
    sfwFilter: attr.boolean({ write: 'always', default: true, ownerOnly: true }),
    ratingSystem: attr.enum(['simple', 'advanced', 'regular'] as const, { write: 'always', default: 'simple', ownerOnly: true }),
    theme: attr.enum(['light', 'dark'] as const, { write: 'always', default: 'light', ownerOnly: true }),
    timeZone: attr.string({ write: 'always', ownerOnly: true }),
    language: attr.string({ write: 'always', ownerOnly: true }),
    country: attr.string({ write: 'always', maxLength: 2, ownerOnly: true }),
    status: attr.enum(['registered', 'unregistered', 'aozora'] as const, { default: 'registered' }),
  },
  relationships: {
    waifu: rel.one('characters', { write: 'always' }),
    pinnedPost: rel.one('posts', { write: 'always' }),
    followers: rel.inverse('follows', 'followed'),
    following: rel.inverse('follows', 'follower'),
    blocks: rel.inverse('blocks', 'user'),
    linkedAccounts: rel.inverse('linkedAccounts', 'user'),
    profileLinks: rel.inverse('profileLinks', 'user'),
    userRoles: rel.inverse('userRoles', 'user'),
    libraryEntries: rel.inverse('libraryEntries', 'user'),
    favorites: rel.inverse('favorites', 'user'),
    categoryFavorites: rel.inverse('categoryFavorites', 'user'),
    stats: rel.inverse('stats', 'user'),
    notificationSettings: rel.inverse('notificationSettings', 'user'),
    pushPlayers: rel.inverse('pushPlayers', 'user'),
    reviews: rel.deprecated(null),
  },
  filters: {
    name: { values: 'other', match: (record, tokens) => tokens.some((token) => token?.toLowerCase() === String(record.attributes['name']).toLowerCase()) },
    // The npm client's `self()` is `GET /users?filter[self]=true`.
    self: {
      values: 'other',
      accepts: (token) => token === 'true',
      match: (record, _tokens, { viewer }) => viewer.user?.id === record.id,
    },
    query: filter.text((record) => [record.attributes['name']]),
  },
  policy: { read: checks.everyone, create: checks.everyone, update: isSelf, destroy: checks.admin },
  owner: '$self',
  validate: (draft, { state }) => {
    const issues: ValidationIssue[] = [...uniqueAttribute(state, 'users', draft, 'name'), ...uniqueAttribute(state, 'users', draft, 'email')];
    const name = draft.attributes['name'];
    if (typeof name === 'string' && name !== '' && (!USER_NAME.test(name) || /^\d+$/.test(name))) {
      issues.push({ field: 'name', message: 'is invalid' });
    }
    const email = draft.attributes['email'];
    if (typeof email === 'string' && email !== '' && !EMAIL.test(email)) issues.push({ field: 'email', message: 'is invalid' });
    const password = draft.secrets['password'];
    if (draft.written.has('password') && password !== undefined && password.length < 8) {
      issues.push({ field: 'password', message: 'is too short (minimum is 8 characters)' });
    }
    return issues;
  },
  beforeSave: (draft) => {
    if (draft.written.has('name') && !draft.written.has('slug')) draft.attributes['slug'] = String(draft.attributes['name']).toLowerCase();
  },
});

export const PROFILE_LINK_SITES: ResourceDefinition = defineResource({
  collection: 'profile-link-sites',
  type: 'profileLinkSites',
  singular: 'profile link site',
  routes: 'read-only',
  attributes: { name: attr.string({ sortable: true }), validateFind: attr.string(), validateReplace: attr.string() },
  filters: { name: filter.attribute('name') },
  policy: policies.readOnly(),
});

export const PROFILE_LINKS: ResourceDefinition = defineResource({
  collection: 'profile-links',
  type: 'profileLinks',
  singular: 'profile link',
  routes: 'standard',
  attributes: { url: attr.string({ write: 'always', required: true, maxLength: 2000 }) },
  relationships: {
    user: rel.one('users', { write: 'create', required: true }),
    profileLinkSite: rel.one('profileLinkSites', { write: 'create', required: true }),
  },
  filters: { userId: filter.ref('user'), user: filter.ref('user'), profileLinkSiteId: filter.ref('profileLinkSite') },
  policy: policies.owned('user'),
  owner: 'user',
});

export const FOLLOWS: ResourceDefinition = defineResource({
  collection: 'follows',
  type: 'follows',
  singular: 'follow',
  routes: 'standard',
  relationships: {
    follower: rel.one('users', { write: 'create', required: true }),
    followed: rel.one('users', { write: 'create', required: true }),
  },
  filters: { follower: filter.ref('follower'), followerId: filter.ref('follower'), followed: filter.ref('followed'), followedId: filter.ref('followed') },
  policy: policies.appendOnly('follower'),
  owner: 'follower',
  validate: (draft, { state }) => {
    const issues = uniqueLinks(state, 'follows', draft, ['follower', 'followed'], 'followed');
    const follower = draft.links['follower'] as Ref | null | undefined;
    const followed = draft.links['followed'] as Ref | null | undefined;
    if (follower && followed && follower.id === followed.id) issues.push({ field: 'followed', message: 'cannot follow yourself', relationship: true });
    return issues;
  },
});

export const BLOCKS: ResourceDefinition = defineResource({
  collection: 'blocks',
  type: 'blocks',
  singular: 'block',
  routes: 'standard',
  relationships: { user: rel.one('users', { write: 'create', required: true }), blocked: rel.one('users', { write: 'create', required: true }) },
  filters: { userId: filter.ref('user'), user: filter.ref('user'), blockedId: filter.ref('blocked'), blocked: filter.ref('blocked') },
  policy: policies.private('user'),
  owner: 'user',
  validate: (draft, { state }) => uniqueLinks(state, 'blocks', draft, ['user', 'blocked'], 'blocked'),
});

export const MEDIA_IGNORES: ResourceDefinition = defineResource({
  collection: 'media-ignores',
  type: 'mediaIgnores',
  singular: 'media ignore',
  routes: 'standard',
  relationships: { user: rel.one('users', { write: 'create', required: true }), media: rel.one(['anime', 'manga'], { write: 'create', required: true }) },
  filters: { userId: filter.ref('user'), mediaId: filter.ref('media'), mediaType: filter.refType('media', ['anime', 'manga']) },
  policy: policies.private('user'),
  owner: 'user',
  validate: (draft, { state }) => uniqueLinks(state, 'mediaIgnores', draft, ['user', 'media'], 'media'),
});

export const LINKED_ACCOUNTS: ResourceDefinition = defineResource({
  collection: 'linked-accounts',
  type: 'linkedAccounts',
  singular: 'linked account',
  routes: 'standard',
  attributes: {
    kind: attr.enum(['my-anime-list'] as const, { write: 'create', required: true }),
    externalUserId: attr.string({ write: 'always', required: true, maxLength: 200 }),
    token: attr.string({ write: 'always', writeOnly: true, maxLength: 2000 }),
    shareTo: attr.boolean({ write: 'always', default: false }),
    shareFrom: attr.boolean({ write: 'always', default: false }),
    syncTo: attr.boolean({ write: 'always', default: false }),
    disabledReason: attr.string(),
  },
  relationships: { user: rel.one('users', { write: 'create', required: true }), libraryEntryLogs: rel.inverse('libraryEntryLogs', 'linkedAccount') },
  filters: { userId: filter.ref('user'), kind: filter.attribute('kind') },
  policy: policies.private('user'),
  owner: 'user',
});

export const LIST_IMPORT_KINDS = ['anilist', 'animeplanet', 'myanimelist', 'kitsu'] as const;

export const LIST_IMPORTS: ResourceDefinition = defineResource({
  collection: 'list-imports',
  type: 'listImports',
  singular: 'list import',
  routes: 'standard',
  attributes: {
    kind: attr.enum(LIST_IMPORT_KINDS, { write: 'create', required: true }),
    inputText: attr.string({ write: 'create', maxLength: 200 }),
    strategy: attr.enum(['greater', 'obliterate'] as const, { write: 'create', required: true }),
    status: attr.enum(['queued', 'running', 'failed', 'completed', 'partially_failed'] as const, { default: 'queued' }),
    progress: attr.integer({ default: 0 }),
    total: attr.integer(),
    errorMessage: attr.string(),
    errorTrace: attr.string(),
  },
  relationships: { user: rel.one('users', { write: 'create', required: true }) },
  filters: { userId: filter.ref('user'), status: filter.attribute('status') },
  policy: { ...policies.private('user'), update: checks.admin },
  owner: 'user',
});

export const ROLES: ResourceDefinition = defineResource({
  collection: 'roles',
  type: 'roles',
  singular: 'role',
  routes: 'standard',
  attributes: {
    name: attr.string({ write: 'always', required: true, maxLength: 100, sortable: true }),
    resourceId: attr.integer({ write: 'always' }),
    resourceType: attr.string({ write: 'always' }),
  },
  relationships: { userRoles: rel.inverse('userRoles', 'role') },
  filters: { name: filter.attribute('name') },
  policy: policies.catalogue(),
});

export const USER_ROLES: ResourceDefinition = defineResource({
  collection: 'user-roles',
  type: 'userRoles',
  singular: 'user role',
  routes: 'standard',
  relationships: { user: rel.one('users', { write: 'create', required: true }), role: rel.one('roles', { write: 'create', required: true }) },
  filters: { userId: filter.ref('user'), roleId: filter.ref('role') },
  policy: policies.catalogue(),
  validate: (draft, { state }) => uniqueLinks(state, 'userRoles', draft, ['user', 'role'], 'role'),
});

export const NOTIFICATION_SETTINGS: ResourceDefinition = defineResource({
  collection: 'notification-settings',
  type: 'notificationSettings',
  singular: 'notification setting',
  routes: 'standard',
  attributes: {
    setting: attr.enum(['mentions', 'replies', 'likes', 'follows', 'posts', 'reaction_votes', 'invited'] as const, { write: 'create', required: true }),
    emailEnabled: attr.boolean({ write: 'always', default: true }),
    webEnabled: attr.boolean({ write: 'always', default: true }),
    mobileEnabled: attr.boolean({ write: 'always', default: true }),
    fbMessengerEnabled: attr.boolean({ write: 'always', default: false }),
  },
  relationships: { user: rel.one('users', { write: 'create', required: true }) },
  filters: { userId: filter.ref('user'), setting: filter.attribute('setting') },
  policy: policies.private('user'),
  owner: 'user',
});

export const PUSH_PLAYERS: ResourceDefinition = defineResource({
  collection: 'push-players',
  type: 'pushPlayers',
  singular: 'push player',
  routes: 'standard',
  attributes: {
    playerId: attr.string({ write: 'create', required: true, maxLength: 200 }),
    platform: attr.enum(['web', 'mobile'] as const, { write: 'create', required: true }),
  },
  relationships: { user: rel.one('users', { write: 'create', required: true }) },
  filters: { userId: filter.ref('user'), platform: filter.attribute('platform') },
  policy: policies.private('user'),
  owner: 'user',
});

export const FAVORITE_ITEM_TYPES = ['anime', 'manga', 'characters', 'people'] as const;

export const FAVORITES: ResourceDefinition = defineResource({
  collection: 'favorites',
  type: 'favorites',
  singular: 'favorite',
  routes: 'standard',
  attributes: { favRank: attr.integer({ write: 'always', min: 1, sortable: true }) },
  relationships: { user: rel.one('users', { write: 'create', required: true }), item: rel.one(FAVORITE_ITEM_TYPES, { write: 'create', required: true }) },
  filters: { userId: filter.ref('user'), user: filter.ref('user'), itemId: filter.ref('item'), itemType: filter.refType('item', FAVORITE_ITEM_TYPES) },
  policy: policies.owned('user'),
  owner: 'user',
  validate: (draft, { state }) => uniqueLinks(state, 'favorites', draft, ['user', 'item'], 'item'),
});

export const CATEGORY_FAVORITES: ResourceDefinition = defineResource({
  collection: 'category-favorites',
  type: 'categoryFavorites',
  singular: 'category favorite',
  routes: 'standard',
  relationships: { user: rel.one('users', { write: 'create', required: true }), category: rel.one('categories', { write: 'create', required: true }) },
  filters: { userId: filter.ref('user'), categoryId: filter.ref('category') },
  policy: policies.appendOnly('user'),
  owner: 'user',
  validate: (draft, { state }) => uniqueLinks(state, 'categoryFavorites', draft, ['user', 'category'], 'category'),
});

export const STAT_KINDS = [
  'anime-amount-consumed',
  'anime-category-breakdown',
  'anime-favorite-year',
  'anime-activity-history',
  'manga-amount-consumed',
  'manga-category-breakdown',
  'manga-favorite-year',
  'manga-activity-history',
] as const;

export const STATS: ResourceDefinition = defineResource({
  collection: 'stats',
  type: 'stats',
  singular: 'stat',
  routes: 'read-only',
  attributes: { kind: attr.enum(STAT_KINDS), statsData: attr.object() },
  relationships: { user: rel.one('users') },
  filters: { userId: filter.ref('user'), user: filter.ref('user'), kind: filter.attribute('kind', STAT_KINDS) },
  policy: policies.readOnly(),
});

export const USER_RESOURCES: readonly ResourceDefinition[] = [
  USERS,
  PROFILE_LINK_SITES,
  PROFILE_LINKS,
  FOLLOWS,
  BLOCKS,
  MEDIA_IGNORES,
  LINKED_ACCOUNTS,
  LIST_IMPORTS,
  ROLES,
  USER_ROLES,
  NOTIFICATION_SETTINGS,
  PUSH_PLAYERS,
  FAVORITES,
  CATEGORY_FAVORITES,
  STATS,
];
