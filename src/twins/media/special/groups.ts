/**
 * Group routes beside the standard ones: invite accept / decline / revoke
 * (media.special.invites: only the invitee accepts or declines, only the group's leaders revoke; a
 * settled invite is 409), group statistics for leaders, and marking a group read.
 */
import { jsonResponse } from '../http/responses.ts';
import { JsonApiError, recordNotFound } from '../jsonapi/errors.ts';
import { storedOne, type MediaRecord } from '../model.ts';
import type { ApiContext } from '../operations.ts';
import { readId } from '../operations.ts';
import { inviteStatus, isLeader, membershipOf, type GroupPermission } from '../resources/groups.ts';
import { signedInUser, today, type SpecialHandler } from './common.ts';

/** The invite an id names, whoever may see it: refusals below are 403s, not 404s. */
function inviteOr404(context: ApiContext, rawId: string | undefined): MediaRecord {
  const id = readId(rawId ?? '');
  const invite = context.state.get('groupInvites', id);
  if (!invite) throw recordNotFound(id);
  return invite;
}

function assertPending(invite: MediaRecord): void {
  const status = inviteStatus(invite);
  if (status !== 'pending') {
    throw JsonApiError.of(
      409,
      'Invite not pending',
      `Group invite ${invite.id} was already ${status}; only a pending invite can be accepted, declined or revoked.`,
      '409',
    );
  }
}

function settle(context: ApiContext, invite: MediaRecord, field: 'acceptedAt' | 'declinedAt' | 'revokedAt'): void {
  const now = context.state.nowIso();
  invite.attributes = { ...invite.attributes, [field]: now, updatedAt: now };
}

function assertInvitee(context: ApiContext, invite: MediaRecord, verb: string): void {
  const user = signedInUser(context);
  if (storedOne(invite, 'user')?.id !== user.id) throw JsonApiError.custom(403, `Only the invited user can ${verb} this invite`);
}

/** `POST /group-invites/{id}/_accept` → 201 `{}`; the invitee joins the group. */
export const acceptInvite: SpecialHandler = (context, params) => {
  const invite = inviteOr404(context, params['id']);
  assertInvitee(context, invite, 'accept');
  assertPending(invite);
  settle(context, invite, 'acceptedAt');
  const user = storedOne(invite, 'user');
  const group = storedOne(invite, 'group');
  if (user && group && !membershipOf(context.state, user.id, group.id)) {
    context.state.create('groupMembers', { rank: 'pleb', unreadCount: 0, hidden: false }, { group, user });
  }
  return jsonResponse(201, {});
};

/** `POST /group-invites/{id}/_decline` → 200 `{}`. */
export const declineInvite: SpecialHandler = (context, params) => {
  const invite = inviteOr404(context, params['id']);
  assertInvitee(context, invite, 'decline');
  assertPending(invite);
  settle(context, invite, 'declinedAt');
  return jsonResponse(200, {});
};

/** `POST /group-invites/{id}/_revoke` → 200 `{}`; leaders with the members permission only. */
export const revokeInvite: SpecialHandler = (context, params) => {
  const invite = inviteOr404(context, params['id']);
  const user = signedInUser(context);
  if (!context.viewer.isAdmin && !isLeader(context.state, user.id, storedOne(invite, 'group')?.id, 'members')) {
    throw JsonApiError.custom(403, "Only the group's leaders can revoke this invite");
  }
  assertPending(invite);
  settle(context, invite, 'revokedAt');
  return jsonResponse(200, {});
};

function groupOr404(context: ApiContext, rawId: string | undefined): MediaRecord {
  const id = readId(rawId ?? '');
  const group = context.state.get('groups', id);
  if (!group) throw recordNotFound(id);
  return group;
}

/**
 * `GET /groups/{id}/_stats`: counts the viewer's permissions allow, as the
 * real GroupsController computes them, under `meta` so the answer is a JSON:API document.
 */
export const groupStats: SpecialHandler = (context, params) => {
  const group = groupOr404(context, params['id']);
  const { state, viewer } = context;
  const allowed = (permission: GroupPermission): boolean => viewer.isAdmin || isLeader(state, viewer.user?.id, group.id, permission);
  const inGroup = (type: string, relationship: string): MediaRecord[] => state.all(type).filter((record) => storedOne(record, relationship)?.id === group.id);
  const createdToday = (record: MediaRecord): boolean => String(record.attributes['createdAt']).startsWith(today(context));
  const todayStats: Record<string, number> = {};
  const totalStats: Record<string, number> = {};
  if (allowed('members')) {
    todayStats['members'] = inGroup('groupMembers', 'group').filter(createdToday).length;
    totalStats['members'] = inGroup('groupMembers', 'group').length;
  }
  if (allowed('content')) {
    const posts = inGroup('posts', 'targetGroup');
    const postIds = new Set(posts.map((post) => post.id));
    todayStats['posts'] = posts.filter(createdToday).length;
    todayStats['comments'] = state.all('comments').filter((comment) => postIds.has(storedOne(comment, 'post')?.id ?? '') && createdToday(comment)).length;
    totalStats['openReports'] = inGroup('groupReports', 'group').filter((report) => report.attributes['status'] === 'reported').length;
  }
  if (allowed('tickets')) totalStats['openTickets'] = inGroup('groupTickets', 'group').filter((ticket) => ticket.attributes['status'] !== 'resolved').length;
  return jsonResponse(200, { meta: { today: todayStats, total: totalStats } });
};

/** `POST /groups/{id}/_read` → 200 `{}`: a member's unread count goes to 0 (anyone else: nothing to mark). */
export const markGroupRead: SpecialHandler = (context, params) => {
  const group = groupOr404(context, params['id']);
  const member = membershipOf(context.state, context.viewer.user?.id, group.id);
  if (member) member.attributes = { ...member.attributes, unreadCount: 0 };
  return jsonResponse(200, {});
};
