/**
 * Feeds (field notes, "Special routes"): `GET /feeds/{group}/{id}` answers an
 * activity-group document with cursor pagination; `_read` and `_seen` mark
 * groups for the viewer; activities can be deleted from a feed or by id.
 * Feeds the viewer may not see answer 403 "Not allowed to access that feed",
 * as the real FeedsController does.
 */
import { canRead } from '../access.ts';
import { MEDIA_CONTRACT } from '../../../rules/mediaContract.ts';
import { jsonResponse, type TwinResponse } from '../http/responses.ts';
import { decodeSegment } from '../../serving/requestTarget.ts';
import { collectionDocument } from '../jsonapi/document.ts';
import { JsonApiError, forbidden, invalidPageValue, recordNotFound } from '../jsonapi/errors.ts';
import { parseFieldsets } from '../jsonapi/fields.ts';
import { parseInclude, type IncludeNode } from '../jsonapi/include.ts';
import { withQuery } from '../jsonapi/links.ts';
import { parsePage } from '../jsonapi/paginator.ts';
import { parseJsonApiQuery } from '../jsonapi/query.ts';
import { compareIds, refOf, storedOne, type MediaRecord, type Ref } from '../model.ts';
import type { ApiContext } from '../operations.ts';
import { requireDefinition } from '../registry.ts';
import { ACTIVITY_GROUPS } from '../resources/social.ts';
import { signedInUser, specialBody, type SpecialHandler } from './common.ts';

export const FEED_GROUPS = ['global', 'timeline', 'user', 'user_aggr', 'notifications', 'media', 'media_aggr', 'group', 'group_aggr'] as const;
type FeedGroup = (typeof FEED_GROUPS)[number];

const AGGREGATED: ReadonlySet<FeedGroup> = new Set(['timeline', 'user_aggr', 'notifications', 'media_aggr', 'group_aggr']);

interface Feed {
  readonly group: FeedGroup;
  readonly id: string;
  /** The user whose own feed this is (timeline, notifications, user feeds). */
  readonly owner: string | undefined;
  readonly contains: (activity: MediaRecord) => boolean;
}

const notAllowed = (): JsonApiError => JsonApiError.custom(403, 'Not allowed to access that feed');

function sameRef(ref: Ref | null, type: string, id: string): boolean {
  return ref !== null && ref.type === type && ref.id === id;
}

/**
 * The feed a path names, if the viewer may see it; 403 otherwise (unknown groups included, as on the real service).
 * Kept whole as one switch, a case per feed group: side by side they show who may open which feed and which activities it holds.
 */
function openFeed(context: ApiContext, rawGroup: string | undefined, rawId: string | undefined): Feed {
  const group = decodeSegment(rawGroup ?? '') as FeedGroup;
  const id = decodeSegment(rawId ?? '');
  const { state, viewer } = context;
  if (!(FEED_GROUPS as readonly string[]).includes(group)) throw notAllowed();
  switch (group) {
    case 'global':
      return { group, id, owner: undefined, contains: (activity) => activity.attributes['verb'] === 'post' };
    case 'user':
    case 'user_aggr': {
      if (!/^\d+$/.test(id) || !state.get('users', id)) throw notAllowed();
      return { group, id, owner: id, contains: (activity) => storedOne(activity, 'actor')?.id === id };
    }
    case 'timeline': {
      if (viewer.user?.id !== id) throw notAllowed();
      const followed = new Set(state.all('follows').flatMap((follow) => (storedOne(follow, 'follower')?.id === id ? [storedOne(follow, 'followed')?.id] : [])));
      followed.add(id);
      return { group, id, owner: id, contains: (activity) => activity.attributes['verb'] !== 'invited' && followed.has(storedOne(activity, 'actor')?.id) };
    }
    case 'notifications': {
      if (viewer.user?.id !== id) throw notAllowed();
      const ownPosts = new Set(state.all('posts').flatMap((post) => (storedOne(post, 'user')?.id === id ? [post.id] : [])));
      return {
        group,
        id,
        owner: id,
        contains: (activity) => {
          const target = storedOne(activity, 'target');
          if (storedOne(activity, 'actor')?.id === id) return false;
          if (sameRef(target, 'users', id)) return ['follow', 'invited'].includes(String(activity.attributes['verb']));
          return target?.type === 'posts' && ownPosts.has(target.id);
        },
      };
    }
    case 'media':
    case 'media_aggr': {
      const match = /^(anime|manga)-(\d+)$/i.exec(id);
      const type = match?.[1]?.toLowerCase() ?? '';
      const media = match?.[2] ? state.get(type, match[2]) : undefined;
      if (!media || !canRead(state, viewer, media)) throw notAllowed();
      return { group, id, owner: undefined, contains: (activity) => sameRef(storedOne(activity, 'media'), media.type, media.id) };
    }
    case 'group':
    case 'group_aggr': {
      if (!/^\d+$/.test(id) || !state.get('groups', id)) throw notAllowed();
      return { group, id, owner: undefined, contains: (activity) => sameRef(storedOne(activity, 'target'), 'groups', id) };
    }
  }
}

function activitiesOf(context: ApiContext, feed: Feed): MediaRecord[] {
  return context.state
    .all('activities')
    .filter((activity) => feed.contains(activity) && canRead(context.state, context.viewer, activity))
    .sort((a, b) => String(b.attributes['time']).localeCompare(String(a.attributes['time'])) || compareIds(b.id, a.id));
}

/** Activity groups, newest first: one per activity on flat feeds; by verb, target and day on aggregated ones. */
function groupsOf(context: ApiContext, feed: Feed): MediaRecord[] {
  const groups = new Map<string, MediaRecord[]>();
  for (const activity of activitiesOf(context, feed)) {
    const target = storedOne(activity, 'target') ?? storedOne(activity, 'subject');
    const key = AGGREGATED.has(feed.group)
      ? `${String(activity.attributes['verb'])}:${target?.type ?? ''}:${target?.id ?? ''}:${String(activity.attributes['time']).slice(0, 10)}`
      : activity.id;
    const members = groups.get(key);
    if (members) members.push(activity);
    else groups.set(key, [activity]);
  }
  const viewerId = context.viewer.user?.id;
  return [...groups].map(([key, activities]) => {
    const mark = viewerId ? context.state.feedMarks.get(`${viewerId}|${key}`) : undefined;
    const times = activities.map((activity) => String(activity.attributes['time']));
    return {
      type: ACTIVITY_GROUPS.type,
      id: key,
      attributes: {
        createdAt: times[times.length - 1] ?? null,
        updatedAt: times[0] ?? null,
        group: key,
        isRead: mark?.read ?? false,
        isSeen: mark?.seen ?? false,
        activityCount: activities.length,
      },
      links: { activities: activities.map(refOf) },
      secrets: {},
    };
  });
}

/** Include paths may start at the activity group (`activities.actor`) or at the activity (`actor`); activities are always included. */
function feedInclude(raw: string | undefined): IncludeNode {
  const paths = (raw ?? '')
    .split(',')
    .map((path) => path.trim())
    .filter((path) => path !== '')
    .map((path) => (path === 'activities' || path.startsWith('activities.') ? path : `activities.${path}`));
  return parseInclude(['activities', ...paths].join(','), ACTIVITY_GROUPS);
}

function feedDocument(
  context: ApiContext,
  feed: Feed,
  groups: readonly MediaRecord[],
  page: readonly MediaRecord[],
  include: IncludeNode,
  next?: string,
): TwinResponse {
  const query = parseJsonApiQuery(context.query);
  const render = { state: context.state, viewer: context.viewer, baseUrl: context.baseUrl, fields: parseFieldsets(query.fields) };
  const meta = {
    count: groups.length,
    unreadCount: groups.filter((group) => group.attributes['isRead'] !== true).length,
    unseenCount: groups.filter((group) => group.attributes['isSeen'] !== true).length,
  };
  const first = withQuery(`${context.baseUrl}/feeds/${feed.group}/${encodeURIComponent(feed.id)}`, query.echo);
  return jsonResponse(200, collectionDocument(render, page, include, meta, { first, ...(next ? { next } : {}) }));
}

/** `GET /feeds/{group}/{id}`: `page[cursor]` is the id of the last group of the previous page. */
export const readFeed: SpecialHandler = (context, params) => {
  const feed = openFeed(context, params['group'], params['id']);
  const query = parseJsonApiQuery(context.query);
  const include = feedInclude(query.include);
  const window = parsePage(query.page, { kind: 'offset', defaultLimit: MEDIA_CONTRACT.defaultLimit, maxLimit: MEDIA_CONTRACT.maxLimit }, ['cursor', 'limit']);
  const limit = window?.limit ?? MEDIA_CONTRACT.defaultLimit;
  const groups = groupsOf(context, feed);
  const cursor = query.page.get('cursor');
  let start = 0;
  if (cursor !== undefined) {
    const at = groups.findIndex((group) => group.id === cursor);
    if (at < 0) throw invalidPageValue(`${cursor} is not a valid value for cursor page parameter.`);
    start = at + 1;
  }
  const page = groups.slice(start, start + limit);
  const last = page[page.length - 1];
  const next =
    last && start + limit < groups.length
      ? withQuery(`${context.baseUrl}/feeds/${feed.group}/${encodeURIComponent(feed.id)}`, [
          ...query.echo,
          ['page[cursor]', last.id],
          ['page[limit]', String(limit)],
        ])
      : undefined;
  return feedDocument(context, feed, groups, page, include, next);
};

/** `_read` / `_seen`: the body is a list of activity-group ids (none: every group of the feed). */
function mark(kind: 'read' | 'seen'): SpecialHandler {
  return (context, params) => {
    const user = signedInUser(context);
    const feed = openFeed(context, params['group'], params['id']);
    const body = specialBody(context);
    if (body !== undefined && (!Array.isArray(body) || !body.every((id) => typeof id === 'string'))) {
      throw JsonApiError.of(400, 'Bad Request', 'The body must be a JSON list of activity group ids, e.g. ["post:1"], or empty for every group.');
    }
    const groups = groupsOf(context, feed);
    const wanted = body === undefined ? undefined : new Set(body as string[]);
    const marked = groups.filter((group) => wanted === undefined || wanted.has(group.id));
    for (const group of marked) {
      const key = `${user.id}|${group.id}`;
      const current = context.state.feedMarks.get(key) ?? { read: false, seen: false };
      // Reading implies seeing.
      context.state.feedMarks.set(key, kind === 'read' ? { read: true, seen: true } : { ...current, seen: true });
    }
    const fresh = groupsOf(context, feed);
    const ids = new Set(marked.map((group) => group.id));
    return feedDocument(
      context,
      feed,
      fresh,
      fresh.filter((group) => ids.has(group.id)),
      feedInclude(undefined),
    );
  };
}

export const markFeedRead = mark('read');
export const markFeedSeen = mark('seen');

/** Whether the viewer may delete an activity: its actor, the owner of its subject, or an admin. */
function mayDelete(context: ApiContext, activity: MediaRecord): boolean {
  const { viewer, state } = context;
  if (viewer.isAdmin || (viewer.user !== undefined && storedOne(activity, 'actor')?.id === viewer.user.id)) return true;
  const subject = storedOne(activity, 'subject');
  const record = subject ? state.get(subject.type, subject.id) : undefined;
  return record !== undefined && requireDefinition(record.type).policy.destroy(viewer, record, state);
}

/** `DELETE /feeds/{group}/{id}/activities/{uuid}`: the feed's owner, or whoever may delete the activity. */
export const deleteFeedActivity: SpecialHandler = (context, params) => {
  const feed = openFeed(context, params['group'], params['id']);
  const user = signedInUser(context);
  const uuid = decodeSegment(params['uuid'] ?? '');
  const activity = activitiesOf(context, feed).find((candidate) => candidate.id === uuid);
  if (!activity) throw recordNotFound(uuid);
  if (feed.owner !== user.id && !mayDelete(context, activity)) throw JsonApiError.custom(403, 'Not allowed to delete that activity');
  context.state.remove('activities', activity.id);
  return { status: 204 };
};

/** `DELETE /activities/{id}`: its actor (or an admin) deletes it. */
export const deleteActivity: SpecialHandler = (context, params) => {
  const id = decodeSegment(params['id'] ?? '');
  const activity = context.state.get('activities', id);
  if (!activity || !canRead(context.state, context.viewer, activity)) throw recordNotFound(id);
  if (!mayDelete(context, activity)) throw forbidden('destroy', 'activity');
  context.state.remove('activities', activity.id);
  return { status: 204 };
};
