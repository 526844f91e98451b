/**
 * Community groups: members and their permissions, invites, tickets, reports,
 * bans, notes, leader chat and the action log. Leaders are members ranked
 * `mod` or `admin`; a permission (`members`, `tickets`, ...) or `owner` lets
 * them do the matching work.
 */
import type { ValidationIssue } from '../jsonapi/errors.ts';
import type { MediaState } from '../mediaState.ts';
import { refOf, storedOne, type MediaRecord, type Ref, type Viewer } from '../model.ts';
import { SLUGGABLE, anyOf, attr, defineResource, filter, ownerIs, policies, rel, checks, type ResourceDefinition, type PolicyCheck } from './define.ts';
import { uniqueAttribute, uniqueLinks } from './users.ts';

export const GROUP_PERMISSIONS = ['owner', 'tickets', 'members', 'leaders', 'community', 'content'] as const;
export type GroupPermission = (typeof GROUP_PERMISSIONS)[number];
export const GROUP_RANKS = ['pleb', 'mod', 'admin'] as const;
export const INVITE_STATUSES = ['pending', 'accepted', 'declined', 'revoked'] as const;

/** The membership of a user in a group, if any. */
export function membershipOf(state: MediaState, userId: string | undefined, groupId: string | undefined): MediaRecord | undefined {
  if (userId === undefined || groupId === undefined) return undefined;
  return state.all('groupMembers').find((member) => storedOne(member, 'user')?.id === userId && storedOne(member, 'group')?.id === groupId);
}

/** Whether a user leads a group (rank mod or admin), with `permission` (or `owner`) when one is asked for. */
export function isLeader(state: MediaState, userId: string | undefined, groupId: string | undefined, permission?: GroupPermission): boolean {
  const member = membershipOf(state, userId, groupId);
  if (!member || member.attributes['rank'] === 'pleb') return false;
  if (permission === undefined) return true;
  return state
    .all('groupPermissions')
    .some(
      (grant) =>
        storedOne(grant, 'groupMember')?.id === member.id && (grant.attributes['permission'] === permission || grant.attributes['permission'] === 'owner'),
    );
}

export function isBanned(state: MediaState, userId: string | undefined, groupId: string | undefined): boolean {
  return state.all('groupBans').some((ban) => storedOne(ban, 'user')?.id === userId && storedOne(ban, 'group')?.id === groupId);
}

type GroupOf = (record: MediaRecord, state: MediaState) => string | undefined;

/** The group a record names directly. */
const direct =
  (relationship: string): GroupOf =>
  (record) =>
    storedOne(record, relationship)?.id;

/** The group of the record a record points at (a note's member, a message's ticket). */
const through =
  (relationship: string, type: string): GroupOf =>
  (record, state) => {
    const ref = storedOne(record, relationship);
    const parent = ref ? state.get(type, ref.id) : undefined;
    return parent ? storedOne(parent, 'group')?.id : undefined;
  };

/** The viewer leads the record's group (with the permission), or is an admin. */
export function leaderOf(groupOf: GroupOf, permission?: GroupPermission): PolicyCheck {
  return (viewer, record, state) => viewer.isAdmin || isLeader(state, viewer.user?.id, groupOf(record, state), permission);
}

const signedIn: PolicyCheck = (viewer: Viewer) => viewer.user !== undefined;
const both =
  (...all: PolicyCheck[]): PolicyCheck =>
  (viewer, record, state) =>
    all.every((rule) => rule(viewer, record, state));

function countLinked(state: MediaState, type: string, relationship: string, record: MediaRecord, accept: (other: MediaRecord) => boolean = () => true): number {
  return state.all(type).filter((other) => storedOne(other, relationship)?.id === record.id && accept(other)).length;
}

export const GROUPS: ResourceDefinition = defineResource({
  collection: 'groups',
  type: 'groups',
  singular: 'group',
  routes: 'standard',
  bases: [SLUGGABLE],
  attributes: {
    name: attr.string({ write: 'always', required: true, maxLength: 50, sortable: true }),
    about: attr.string({ write: 'always', maxLength: 5000, default: '' }),
    locale: attr.string({ write: 'always', maxLength: 20 }),
    membersCount: attr.integer({ sortable: true, compute: (record, state) => countLinked(state, 'groupMembers', 'group', record) }),
    leadersCount: attr.integer({
      compute: (record, state) => countLinked(state, 'groupMembers', 'group', record, (member) => member.attributes['rank'] !== 'pleb'),
    }),
    neighborsCount: attr.integer({ compute: (record, state) => countLinked(state, 'groupNeighbors', 'source', record) }),
    featured: attr.boolean({ default: false }),
    nsfw: attr.boolean({ write: 'always', default: false }),
    privacy: attr.enum(['open', 'closed', 'restricted'] as const, { write: 'always', default: 'open', nullable: false }),
    rules: attr.string({ write: 'always', maxLength: 5000 }),
    tagline: attr.string({ write: 'always', maxLength: 60 }),
    lastActivityAt: attr.datetime({ sortable: true }),
    avatar: attr.object({ write: 'always' }),
    coverImage: attr.object({ write: 'always' }),
  },
  relationships: {
    members: rel.inverse('groupMembers', 'group'),
    neighbors: rel.inverse('groupNeighbors', 'source'),
    tickets: rel.inverse('groupTickets', 'group'),
    invites: rel.inverse('groupInvites', 'group'),
    reports: rel.inverse('groupReports', 'group'),
    leaderChatMessages: rel.inverse('leaderChatMessages', 'group'),
    actionLogs: rel.inverse('groupActionLogs', 'group'),
    category: rel.one('groupCategories', { write: 'always' }),
    pinnedPost: rel.one('posts', { write: 'always' }),
  },
  filters: {
    categoryId: filter.ref('category'),
    category: filter.ref('category'),
    privacy: filter.attribute('privacy', ['open', 'closed', 'restricted']),
    featured: filter.boolean('featured'),
    nsfw: filter.boolean('nsfw'),
    query: filter.text((record) => [record.attributes['name'], record.attributes['tagline']]),
  },
  policy: {
    read: checks.everyone,
    create: signedIn,
    update: leaderOf((record) => record.id, 'community'),
    destroy: leaderOf((record) => record.id, 'owner'),
  },
  validate: (draft, { state }) => uniqueAttribute(state, 'groups', draft, 'name'),
  beforeSave: (draft) => {
    if (draft.written.has('name') && !draft.written.has('slug')) {
      draft.attributes['slug'] = String(draft.attributes['name'])
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '');
    }
  },
  // The creator becomes the group's owner.
  afterCreate: (record, { state, viewer }) => {
    if (!viewer.user) return;
    const member = state.create('groupMembers', { rank: 'admin', unreadCount: 0, hidden: false }, { group: refOf(record), user: refOf(viewer.user) });
    state.create('groupPermissions', { permission: 'owner' }, { groupMember: refOf(member) });
  },
});

export const GROUP_MEMBERS: ResourceDefinition = defineResource({
  collection: 'group-members',
  type: 'groupMembers',
  singular: 'group member',
  routes: 'standard',
  attributes: {
    rank: attr.enum(GROUP_RANKS, { write: 'always', default: 'pleb', nullable: false, sortable: true }),
    unreadCount: attr.integer({ default: 0 }),
    hidden: attr.boolean({ write: 'always', default: false }),
  },
  relationships: {
    group: rel.one('groups', { write: 'create', required: true }),
    user: rel.one('users', { write: 'create', required: true }),
    permissions: rel.inverse('groupPermissions', 'groupMember'),
    notes: rel.inverse('groupMemberNotes', 'groupMember'),
  },
  filters: {
    groupId: filter.ref('group'),
    group: filter.ref('group'),
    userId: filter.ref('user'),
    user: filter.ref('user'),
    rank: filter.attribute('rank', GROUP_RANKS),
  },
  policy: {
    read: checks.everyone,
    // Joining: yourself, into a group that is not closed, unless banned.
    create: (viewer, record, state) => {
      if (viewer.isAdmin) return true;
      const group = storedOne(record, 'group');
      const target = group ? state.get('groups', group.id) : undefined;
      return ownerIs('user')(viewer, record, state) && target?.attributes['privacy'] !== 'closed' && !isBanned(state, viewer.user?.id, group?.id);
    },
    update: leaderOf(direct('group'), 'members'),
    destroy: anyOf(ownerIs('user'), leaderOf(direct('group'), 'members')),
  },
  owner: 'user',
  validate: (draft, { state, action }) => (action === 'create' ? uniqueLinks(state, 'groupMembers', draft, ['group', 'user'], 'user') : []),
});

export const GROUP_PERMISSION_RESOURCES: ResourceDefinition = defineResource({
  collection: 'group-permissions',
  type: 'groupPermissions',
  singular: 'group permission',
  routes: 'standard',
  attributes: { permission: attr.enum(GROUP_PERMISSIONS, { write: 'create', required: true, nullable: false }) },
  relationships: { groupMember: rel.one('groupMembers', { write: 'create', required: true }) },
  filters: { groupMemberId: filter.ref('groupMember'), permission: filter.attribute('permission', GROUP_PERMISSIONS) },
  policy: {
    read: checks.everyone,
    create: leaderOf(through('groupMember', 'groupMembers'), 'leaders'),
    update: leaderOf(through('groupMember', 'groupMembers'), 'leaders'),
    destroy: leaderOf(through('groupMember', 'groupMembers'), 'leaders'),
  },
});

export const GROUP_NEIGHBORS: ResourceDefinition = defineResource({
  collection: 'group-neighbors',
  type: 'groupNeighbors',
  singular: 'group neighbor',
  routes: 'standard',
  relationships: { source: rel.one('groups', { write: 'create', required: true }), destination: rel.one('groups', { write: 'create', required: true }) },
  filters: { sourceId: filter.ref('source'), source: filter.ref('source'), destinationId: filter.ref('destination') },
  policy: {
    read: checks.everyone,
    create: leaderOf(direct('source'), 'community'),
    update: leaderOf(direct('source'), 'community'),
    destroy: leaderOf(direct('source'), 'community'),
  },
  validate: (draft, { state }) => uniqueLinks(state, 'groupNeighbors', draft, ['source', 'destination'], 'destination'),
});

export const GROUP_CATEGORIES: ResourceDefinition = defineResource({
  collection: 'group-categories',
  type: 'groupCategories',
  singular: 'group category',
  routes: 'standard',
  bases: [SLUGGABLE],
  attributes: { name: attr.string({ write: 'always', required: true, maxLength: 100, sortable: true }), description: attr.string({ write: 'always' }) },
  relationships: { groups: rel.inverse('groups', 'category') },
  policy: policies.catalogue(),
});

const ticketGroup = through('ticket', 'groupTickets');

export const GROUP_TICKETS: ResourceDefinition = defineResource({
  collection: 'group-tickets',
  type: 'groupTickets',
  singular: 'group ticket',
  routes: 'standard',
  attributes: { status: attr.enum(['created', 'assigned', 'resolved'] as const, { write: 'always', default: 'created', nullable: false, sortable: true }) },
  relationships: {
    user: rel.one('users', { write: 'create', required: true }),
    group: rel.one('groups', { write: 'create', required: true }),
    assignee: rel.one('users', { write: 'always' }),
    messages: rel.inverse('groupTicketMessages', 'ticket'),
    firstMessage: rel.one('groupTicketMessages', {
      resolve: (record, state) => {
        const first = state.all('groupTicketMessages').find((message) => storedOne(message, 'ticket')?.id === record.id);
        return first ? refOf(first) : null;
      },
    }),
  },
  filters: {
    groupId: filter.ref('group'),
    group: filter.ref('group'),
    userId: filter.ref('user'),
    user: filter.ref('user'),
    assigneeId: filter.ref('assignee'),
    status: filter.attribute('status', ['created', 'assigned', 'resolved']),
  },
  policy: {
    read: anyOf(ownerIs('user'), leaderOf(direct('group'), 'tickets')),
    create: ownerIs('user'),
    update: anyOf(ownerIs('user'), leaderOf(direct('group'), 'tickets')),
    destroy: checks.admin,
  },
  owner: 'user',
});

/** The viewer opened the ticket a message belongs to. */
const ownsTicket: PolicyCheck = (viewer, record, state) => {
  const ticket = storedOne(record, 'ticket');
  const found = ticket ? state.get('groupTickets', ticket.id) : undefined;
  return found !== undefined && viewer.user !== undefined && storedOne(found, 'user')?.id === viewer.user.id;
};

export const GROUP_TICKET_MESSAGES: ResourceDefinition = defineResource({
  collection: 'group-ticket-messages',
  type: 'groupTicketMessages',
  singular: 'group ticket message',
  routes: 'standard',
  attributes: {
    kind: attr.enum(['message', 'mod_note'] as const, { write: 'create', default: 'message', nullable: false }),
    content: attr.string({ write: 'always', required: true, maxLength: 10_000 }),
  },
  relationships: { ticket: rel.one('groupTickets', { write: 'create', required: true }), user: rel.one('users', { write: 'create', required: true }) },
  filters: { ticketId: filter.ref('ticket'), ticket: filter.ref('ticket'), kind: filter.attribute('kind', ['message', 'mod_note']) },
  policy: {
    // Moderator notes are for leaders only.
    read: anyOf(leaderOf(ticketGroup, 'tickets'), (viewer, record, state) => record.attributes['kind'] !== 'mod_note' && ownsTicket(viewer, record, state)),
    create: both(ownerIs('user'), anyOf(ownsTicket, leaderOf(ticketGroup, 'tickets'))),
    update: ownerIs('user'),
    destroy: ownerIs('user'),
  },
  owner: 'user',
});

export const REPORT_REASONS = ['nsfw', 'offensive', 'spoiler', 'bullying', 'other', 'spam'] as const;
export const REPORT_STATUSES = ['reported', 'resolved', 'declined'] as const;

export const GROUP_REPORTS: ResourceDefinition = defineResource({
  collection: 'group-reports',
  type: 'groupReports',
  singular: 'group report',
  routes: 'standard',
  attributes: {
    reason: attr.enum(REPORT_REASONS, { write: 'create', required: true, nullable: false }),
    status: attr.enum(REPORT_STATUSES, { write: 'always', default: 'reported', nullable: false }),
    explanation: attr.string({ write: 'create', maxLength: 5000 }),
  },
  relationships: {
    group: rel.one('groups', { write: 'create', required: true }),
    user: rel.one('users', { write: 'create', required: true }),
    naughty: rel.one(['posts', 'comments'], { write: 'create', required: true }),
    moderator: rel.one('users', { write: 'always' }),
  },
  filters: { groupId: filter.ref('group'), group: filter.ref('group'), status: filter.attribute('status', REPORT_STATUSES) },
  policy: {
    read: anyOf(ownerIs('user'), leaderOf(direct('group'), 'content')),
    create: ownerIs('user'),
    update: leaderOf(direct('group'), 'content'),
    destroy: checks.admin,
  },
  owner: 'user',
});

export const GROUP_BANS: ResourceDefinition = defineResource({
  collection: 'group-bans',
  type: 'groupBans',
  singular: 'group ban',
  routes: 'standard',
  attributes: { notes: attr.string({ write: 'always', maxLength: 5000 }) },
  relationships: {
    group: rel.one('groups', { write: 'create', required: true }),
    user: rel.one('users', { write: 'create', required: true }),
    moderator: rel.one('users', { write: 'create', required: true }),
  },
  filters: { groupId: filter.ref('group'), group: filter.ref('group'), userId: filter.ref('user') },
  policy: {
    read: leaderOf(direct('group'), 'members'),
    create: both(ownerIs('moderator'), leaderOf(direct('group'), 'members')),
    update: leaderOf(direct('group'), 'members'),
    destroy: leaderOf(direct('group'), 'members'),
  },
  owner: 'moderator',
  validate: (draft, { state, action }) => (action === 'create' ? uniqueLinks(state, 'groupBans', draft, ['group', 'user'], 'user') : []),
});

export const GROUP_MEMBER_NOTES: ResourceDefinition = defineResource({
  collection: 'group-member-notes',
  type: 'groupMemberNotes',
  singular: 'group member note',
  routes: 'standard',
  attributes: { content: attr.string({ write: 'always', required: true, maxLength: 10_000 }) },
  relationships: { groupMember: rel.one('groupMembers', { write: 'create', required: true }), user: rel.one('users', { write: 'create', required: true }) },
  filters: { groupMemberId: filter.ref('groupMember'), groupMember: filter.ref('groupMember') },
  policy: {
    read: leaderOf(through('groupMember', 'groupMembers'), 'members'),
    create: both(ownerIs('user'), leaderOf(through('groupMember', 'groupMembers'), 'members')),
    update: ownerIs('user'),
    destroy: ownerIs('user'),
  },
  owner: 'user',
});

export const LEADER_CHAT_MESSAGES: ResourceDefinition = defineResource({
  collection: 'leader-chat-messages',
  type: 'leaderChatMessages',
  singular: 'leader chat message',
  routes: 'standard',
  attributes: { content: attr.string({ write: 'always', required: true, maxLength: 10_000 }), editedAt: attr.datetime() },
  relationships: { group: rel.one('groups', { write: 'create', required: true }), user: rel.one('users', { write: 'create', required: true }) },
  filters: { groupId: filter.ref('group'), group: filter.ref('group') },
  policy: {
    read: leaderOf(direct('group')),
    create: both(ownerIs('user'), leaderOf(direct('group'))),
    update: ownerIs('user'),
    destroy: ownerIs('user'),
  },
  owner: 'user',
  beforeSave: (draft, { action, state }) => {
    if (action === 'update' && draft.written.has('content')) draft.attributes['editedAt'] = state.nowIso();
  },
});

export const GROUP_ACTION_LOGS: ResourceDefinition = defineResource({
  collection: 'group-action-logs',
  type: 'groupActionLogs',
  singular: 'group action log',
  routes: 'standard',
  attributes: { verb: attr.string({ write: 'create', required: true, maxLength: 100 }) },
  relationships: {
    user: rel.one('users', { write: 'create' }),
    group: rel.one('groups', { write: 'create', required: true }),
    target: rel.one(['groupMembers', 'groupInvites', 'groupBans', 'posts', 'comments', 'groupReports', 'groupTickets'], { write: 'create' }),
  },
  filters: { groupId: filter.ref('group'), group: filter.ref('group'), userId: filter.ref('user') },
  policy: { read: leaderOf(direct('group')), create: checks.admin, update: checks.admin, destroy: checks.admin },
});

/** Where an invite stands: its timestamps say (the real model has no status column). */
export function inviteStatus(invite: MediaRecord): (typeof INVITE_STATUSES)[number] {
  if (invite.attributes['acceptedAt'] != null) return 'accepted';
  if (invite.attributes['declinedAt'] != null) return 'declined';
  if (invite.attributes['revokedAt'] != null) return 'revoked';
  return 'pending';
}

export const GROUP_INVITES: ResourceDefinition = defineResource({
  collection: 'group-invites',
  type: 'groupInvites',
  singular: 'group invite',
  routes: 'standard',
  attributes: { acceptedAt: attr.datetime(), declinedAt: attr.datetime(), revokedAt: attr.datetime() },
  relationships: {
    user: rel.one('users', { write: 'create', required: true }),
    group: rel.one('groups', { write: 'create', required: true }),
    sender: rel.one('users', { write: 'create', required: true }),
  },
  filters: {
    group: filter.ref('group'),
    groupId: filter.ref('group'),
    sender: filter.ref('sender'),
    user: filter.ref('user'),
    userId: filter.ref('user'),
    status: {
      values: 'other',
      accepts: (token) => (INVITE_STATUSES as readonly string[]).includes(token),
      match: (record, tokens) => tokens.includes(inviteStatus(record)),
    },
  },
  policy: {
    read: anyOf(ownerIs('user'), ownerIs('sender'), leaderOf(direct('group'), 'members')),
    create: both(ownerIs('sender'), leaderOf(direct('group'), 'members')),
    update: checks.admin,
    destroy: leaderOf(direct('group'), 'members'),
  },
  owner: 'sender',
  validate: (draft, { state, action }) => {
    if (action !== 'create') return [];
    const issues: ValidationIssue[] = [];
    const user = draft.links['user'] as Ref | null | undefined;
    const group = draft.links['group'] as Ref | null | undefined;
    const sender = draft.links['sender'] as Ref | null | undefined;
    if (user && sender && user.id === sender.id) issues.push({ field: 'user', message: 'cannot be same as sender', relationship: true });
    const pending = state
      .all('groupInvites')
      .some((invite) => storedOne(invite, 'user')?.id === user?.id && storedOne(invite, 'group')?.id === group?.id && inviteStatus(invite) === 'pending');
    if (pending) issues.push({ field: 'user', message: 'has already been taken', relationship: true });
    if (membershipOf(state, user?.id, group?.id)) issues.push({ field: 'user', message: 'is already a member', relationship: true });
    return issues;
  },
});

export const GROUP_RESOURCES: readonly ResourceDefinition[] = [
  GROUPS,
  GROUP_MEMBERS,
  GROUP_PERMISSION_RESOURCES,
  GROUP_NEIGHBORS,
  GROUP_CATEGORIES,
  GROUP_TICKETS,
  GROUP_TICKET_MESSAGES,
  GROUP_REPORTS,
  GROUP_BANS,
  GROUP_MEMBER_NOTES,
  LEADER_CHAT_MESSAGES,
  GROUP_ACTION_LOGS,
  GROUP_INVITES,
];
