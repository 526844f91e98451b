/**
 * Social features: posts, comments, likes, follows of posts, reports,
 * reactions and their votes, uploads and site announcements; and the feed
 * types (activities, activity groups) the feed routes render.
 */
import type { ValidationIssue } from '../jsonapi/errors.ts';
import type { MediaState } from '../mediaState.ts';
import { storedOne, type MediaRecord, type Ref } from '../model.ts';
import { attr, anyOf, defineResource, filter, ownerIs, policies, rel, checks, type ResourceDefinition, type PolicyCheck } from './define.ts';
import { REPORT_REASONS, REPORT_STATUSES, isBanned, leaderOf, membershipOf } from './groups.ts';
import { linkedMediaVisible } from './media.ts';
import { uniqueLinks } from './users.ts';

const MEDIA_TYPES = ['anime', 'manga'] as const;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** `contentFormatted`: the content as one HTML paragraph. */
function formatted(record: MediaRecord): string | null {
  const content = record.attributes['content'];
  return typeof content === 'string' ? `<p>${escapeHtml(content)}</p>` : null;
}

function countLinked(state: MediaState, type: string, relationship: string, record: MediaRecord): number {
  return state.all(type).filter((other) => storedOne(other, relationship)?.id === record.id).length;
}

/** A post to a group needs a member who is not banned. */
const mayPostTo: PolicyCheck = (viewer, record, state) => {
  const group = storedOne(record, 'targetGroup');
  if (!group || viewer.isAdmin) return true;
  return membershipOf(state, viewer.user?.id, group.id) !== undefined && !isBanned(state, viewer.user?.id, group.id);
};

const both =
  (...all: PolicyCheck[]): PolicyCheck =>
  (viewer, record, state) =>
    all.every((rule) => rule(viewer, record, state));

export const POSTS: ResourceDefinition = defineResource({
  collection: 'posts',
  type: 'posts',
  singular: 'post',
  routes: 'standard',
  attributes: {
    content: attr.string({ write: 'always', required: true, maxLength: 9_000 }),
    contentFormatted: attr.string({ compute: formatted }),
    commentsCount: attr.integer({ sortable: true, compute: (record, state) => countLinked(state, 'comments', 'post', record) }),
    postLikesCount: attr.integer({ sortable: true, compute: (record, state) => countLinked(state, 'postLikes', 'post', record) }),
    spoiler: attr.boolean({ write: 'always', default: false }),
    nsfw: attr.boolean({ write: 'always', default: false }),
    blocked: attr.boolean({ default: false }),
    deletedAt: attr.datetime(),
    topLevelCommentsCount: attr.integer({
      compute: (record, state) =>
        state.all('comments').filter((comment) => storedOne(comment, 'post')?.id === record.id && !storedOne(comment, 'parent')).length,
    }),
    editedAt: attr.datetime(),
    targetInterest: attr.enum(MEDIA_TYPES, { write: 'create' }),
    embed: attr.object({ write: 'always' }),
  },
  relationships: {
    user: rel.one('users', { write: 'create', required: true }),
    targetUser: rel.one('users', { write: 'create' }),
    targetGroup: rel.one('groups', { write: 'create' }),
    media: rel.one(MEDIA_TYPES, { write: 'create' }),
    spoiledUnit: rel.one(['episodes', 'chapters'], { write: 'create' }),
    comments: rel.inverse('comments', 'post'),
    postLikes: rel.inverse('postLikes', 'post'),
    uploads: rel.inverse('uploads', 'owner'),
  },
  filters: {
    userId: filter.ref('user'),
    user: filter.ref('user'),
    targetUserId: filter.ref('targetUser'),
    targetGroupId: filter.ref('targetGroup'),
    mediaId: filter.ref('media'),
    mediaType: filter.refType('media', MEDIA_TYPES),
  },
  policy: {
    read: linkedMediaVisible('media'),
    create: both(ownerIs('user'), mayPostTo),
    update: ownerIs('user'),
    destroy: anyOf(
      ownerIs('user'),
      leaderOf((record) => storedOne(record, 'targetGroup')?.id, 'content'),
    ),
  },
  owner: 'user',
  beforeSave: (draft, { action, state }) => {
    if (action === 'update' && draft.written.has('content')) draft.attributes['editedAt'] = state.nowIso();
  },
});

export const POST_LIKES: ResourceDefinition = defineResource({
  collection: 'post-likes',
  type: 'postLikes',
  singular: 'post like',
  routes: 'standard',
  relationships: { user: rel.one('users', { write: 'create', required: true }), post: rel.one('posts', { write: 'create', required: true }) },
  filters: { userId: filter.ref('user'), postId: filter.ref('post'), post: filter.ref('post') },
  policy: policies.appendOnly('user'),
  owner: 'user',
  validate: (draft, { state }) => uniqueLinks(state, 'postLikes', draft, ['user', 'post'], 'post'),
});

export const POST_FOLLOWS: ResourceDefinition = defineResource({
  collection: 'post-follows',
  type: 'postFollows',
  singular: 'post follow',
  routes: 'standard',
  relationships: { user: rel.one('users', { write: 'create', required: true }), post: rel.one('posts', { write: 'create', required: true }) },
  filters: { userId: filter.ref('user'), postId: filter.ref('post') },
  policy: policies.appendOnly('user'),
  owner: 'user',
  validate: (draft, { state }) => uniqueLinks(state, 'postFollows', draft, ['user', 'post'], 'post'),
});

export const COMMENTS: ResourceDefinition = defineResource({
  collection: 'comments',
  type: 'comments',
  singular: 'comment',
  routes: 'standard',
  attributes: {
    content: attr.string({ write: 'always', required: true, maxLength: 9_000 }),
    contentFormatted: attr.string({ compute: formatted }),
    blocked: attr.boolean({ default: false }),
    deletedAt: attr.datetime(),
    likesCount: attr.integer({ sortable: true, compute: (record, state) => countLinked(state, 'commentLikes', 'comment', record) }),
    repliesCount: attr.integer({ compute: (record, state) => countLinked(state, 'comments', 'parent', record) }),
    editedAt: attr.datetime(),
    embed: attr.object({ write: 'always' }),
  },
  relationships: {
    user: rel.one('users', { write: 'create', required: true }),
    post: rel.one('posts', { write: 'create', required: true }),
    parent: rel.one('comments', { write: 'create' }),
    likes: rel.inverse('commentLikes', 'comment'),
    replies: rel.inverse('comments', 'parent'),
    uploads: rel.inverse('uploads', 'owner'),
  },
  filters: { userId: filter.ref('user'), postId: filter.ref('post'), post: filter.ref('post'), parentId: filter.ref('parent') },
  policy: policies.owned('user'),
  owner: 'user',
  validate: (draft, { state }) => {
    const parent = draft.links['parent'] as Ref | null | undefined;
    const post = draft.links['post'] as Ref | null | undefined;
    const parentRecord = parent ? state.get('comments', parent.id) : undefined;
    if (parentRecord && storedOne(parentRecord, 'post')?.id !== post?.id) return [{ field: 'parent', message: 'must be on the same post', relationship: true }];
    return [];
  },
  beforeSave: (draft, { action, state }) => {
    if (action === 'update' && draft.written.has('content')) draft.attributes['editedAt'] = state.nowIso();
  },
});

export const COMMENT_LIKES: ResourceDefinition = defineResource({
  collection: 'comment-likes',
  type: 'commentLikes',
  singular: 'comment like',
  routes: 'standard',
  relationships: { user: rel.one('users', { write: 'create', required: true }), comment: rel.one('comments', { write: 'create', required: true }) },
  filters: { userId: filter.ref('user'), commentId: filter.ref('comment'), comment: filter.ref('comment') },
  policy: policies.appendOnly('user'),
  owner: 'user',
  validate: (draft, { state }) => uniqueLinks(state, 'commentLikes', draft, ['user', 'comment'], 'comment'),
});

export const REPORTS: ResourceDefinition = defineResource({
  collection: 'reports',
  type: 'reports',
  singular: 'report',
  routes: 'standard',
  attributes: {
    reason: attr.enum(REPORT_REASONS, { write: 'create', required: true, nullable: false }),
    status: attr.enum(REPORT_STATUSES, { write: 'always', default: 'reported', nullable: false }),
    explanation: attr.string({ write: 'create', maxLength: 5000 }),
  },
  relationships: {
    user: rel.one('users', { write: 'create', required: true }),
    naughty: rel.one(['posts', 'comments', 'mediaReactions'], { write: 'create', required: true }),
    moderator: rel.one('users', { write: 'always' }),
  },
  filters: { userId: filter.ref('user'), status: filter.attribute('status', REPORT_STATUSES), reason: filter.attribute('reason', REPORT_REASONS) },
  policy: { read: ownerIs('user'), create: ownerIs('user'), update: checks.admin, destroy: checks.admin },
  owner: 'user',
  validate: (draft, { state }) => uniqueLinks(state, 'reports', draft, ['user', 'naughty'], 'naughty'),
});

export const MEDIA_REACTIONS: ResourceDefinition = defineResource({
  collection: 'media-reactions',
  type: 'mediaReactions',
  singular: 'media reaction',
  routes: 'standard',
  attributes: {
    reaction: attr.string({ write: 'always', required: true, maxLength: 140 }),
    upVotesCount: attr.integer({ sortable: true, compute: (record, state) => countLinked(state, 'mediaReactionVotes', 'mediaReaction', record) }),
    progress: attr.integer(),
    deletedAt: attr.datetime(),
  },
  relationships: {
    user: rel.one('users', { write: 'create', required: true }),
    media: rel.one(MEDIA_TYPES, { write: 'create', required: true }),
    anime: rel.one('anime', { resolve: (record) => (storedOne(record, 'media')?.type === 'anime' ? storedOne(record, 'media') : null) }),
    manga: rel.one('manga', { resolve: (record) => (storedOne(record, 'media')?.type === 'manga' ? storedOne(record, 'media') : null) }),
    libraryEntry: rel.one('libraryEntries', { write: 'create' }),
    votes: rel.inverse('mediaReactionVotes', 'mediaReaction'),
  },
  filters: {
    userId: filter.ref('user'),
    user: filter.ref('user'),
    mediaId: filter.ref('media'),
    mediaType: filter.refType('media', MEDIA_TYPES),
    animeId: { values: 'id', match: (record, tokens) => storedOne(record, 'media')?.type === 'anime' && tokens.includes(storedOne(record, 'media')?.id ?? '') },
    mangaId: { values: 'id', match: (record, tokens) => storedOne(record, 'media')?.type === 'manga' && tokens.includes(storedOne(record, 'media')?.id ?? '') },
  },
  policy: { ...policies.owned('user', linkedMediaVisible('media')) },
  owner: 'user',
  validate: (draft, { state }) => uniqueLinks(state, 'mediaReactions', draft, ['user', 'media'], 'media'),
});

export const MEDIA_REACTION_VOTES: ResourceDefinition = defineResource({
  collection: 'media-reaction-votes',
  type: 'mediaReactionVotes',
  singular: 'media reaction vote',
  routes: 'standard',
  relationships: { user: rel.one('users', { write: 'create', required: true }), mediaReaction: rel.one('mediaReactions', { write: 'create', required: true }) },
  filters: { userId: filter.ref('user'), mediaReactionId: filter.ref('mediaReaction') },
  policy: policies.appendOnly('user'),
  owner: 'user',
  validate: (draft, { state }) => {
    const issues: ValidationIssue[] = uniqueLinks(state, 'mediaReactionVotes', draft, ['user', 'mediaReaction'], 'mediaReaction');
    const reaction = draft.links['mediaReaction'] as Ref | null | undefined;
    const found = reaction ? state.get('mediaReactions', reaction.id) : undefined;
    if (found && storedOne(found, 'user')?.id === (draft.links['user'] as Ref | null | undefined)?.id) {
      issues.push({ field: 'mediaReaction', message: 'cannot vote for your own reaction', relationship: true });
    }
    return issues;
  },
});

export const SITE_ANNOUNCEMENTS: ResourceDefinition = defineResource({
  collection: 'site-announcements',
  type: 'siteAnnouncements',
  singular: 'site announcement',
  routes: 'standard',
  attributes: {
    title: attr.string({ write: 'always', required: true, maxLength: 300 }),
    description: attr.string({ write: 'always' }),
    imageUrl: attr.string({ write: 'always', maxLength: 2000 }),
    link: attr.string({ write: 'always', maxLength: 2000 }),
  },
  relationships: { user: rel.one('users', { write: 'create' }) },
  policy: policies.catalogue(),
  owner: 'user',
});

const DATA_URI = /^data:image\/(png|jpe?g|gif|webp);base64,[A-Za-z0-9+/=\s]+$/;
const HTTP_URL = /^https?:\/\/[^\s]+$/;

/** An upload's `content` is written as a data URI or an http(s) URL and stored as image links. */
export function uploadContent(id: string, written: string): Record<string, unknown> {
  const extension = DATA_URI.exec(written)?.[1]?.replace('jpeg', 'jpg');
  const original = extension ? `https://media.twin.test/uploads/${id}/original.${extension}` : written;
  return { original, meta: { dimensions: {} } };
}

export function isUploadSource(value: unknown): value is string {
  return typeof value === 'string' && (DATA_URI.test(value) || HTTP_URL.test(value));
}

export const UPLOADS: ResourceDefinition = defineResource({
  collection: 'uploads',
  type: 'uploads',
  singular: 'upload',
  routes: 'standard',
  attributes: {
    content: attr.json({ write: 'create', required: true }),
    uploadOrder: attr.integer({ write: 'always', min: 0 }),
  },
  relationships: { user: rel.one('users', { write: 'create', required: true }), owner: rel.one(['posts', 'comments'], { write: 'always' }) },
  filters: { userId: filter.ref('user'), ownerId: filter.ref('owner'), ownerType: filter.refType('owner', ['posts', 'comments']) },
  policy: policies.owned('user'),
  owner: 'user',
  validate: (draft, { action }) => {
    const content = draft.attributes['content'];
    if (action === 'create' && draft.written.has('content') && !isUploadSource(content)) {
      return [{ field: 'content', message: 'must be a data:image/... base64 URI or an http(s) URL' }];
    }
    return [];
  },
  beforeSave: (draft, { action, state }) => {
    const content = draft.attributes['content'];
    if (action === 'create' && typeof content === 'string') {
      draft.attributes['content'] = uploadContent(state.peekId('uploads'), content);
    }
  },
});

export const ACTIVITIES: ResourceDefinition = defineResource({
  collection: 'activities',
  type: 'activities',
  singular: 'activity',
  routes: 'none',
  attributes: {
    status: attr.string(),
    verb: attr.string(),
    time: attr.datetime(),
    streamId: attr.string(),
    foreignId: attr.string(),
    rating: attr.integer(),
    progress: attr.integer(),
    replyToType: attr.string(),
    replyToUser: attr.string(),
    nineteenScale: attr.boolean(),
    mentionedUsers: attr.strings(),
  },
  relationships: {
    actor: rel.one('users'),
    subject: rel.one(['posts', 'comments', 'follows', 'libraryEntries', 'postLikes', 'commentLikes', 'groupInvites', 'mediaReactions']),
    target: rel.one(['users', 'posts', 'groups', 'anime', 'manga', 'comments']),
    media: rel.one(MEDIA_TYPES),
    unit: rel.one(['episodes', 'chapters']),
  },
  policy: { read: linkedMediaVisible('media'), create: checks.nobody, update: checks.nobody, destroy: ownerIs('actor') },
});

export const ACTIVITY_GROUPS: ResourceDefinition = defineResource({
  collection: 'activity-groups',
  type: 'activityGroups',
  singular: 'activity group',
  routes: 'none',
  attributes: { group: attr.string(), isRead: attr.boolean(), isSeen: attr.boolean(), activityCount: attr.integer() },
  relationships: { activities: rel.many('activities') },
  policy: policies.readOnly(),
});

export const SOCIAL_RESOURCES: readonly ResourceDefinition[] = [
  POSTS,
  POST_LIKES,
  POST_FOLLOWS,
  COMMENTS,
  COMMENT_LIKES,
  REPORTS,
  MEDIA_REACTIONS,
  MEDIA_REACTION_VOTES,
  SITE_ANNOUNCEMENTS,
  UPLOADS,
  ACTIVITIES,
  ACTIVITY_GROUPS,
];
