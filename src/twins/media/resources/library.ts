/**
 * Library entries (a user's progress on one anime or manga) and the logs of
 * their sync to linked accounts.
 */
import type { ValidationIssue } from '../jsonapi/errors.ts';
import type { MediaState } from '../mediaState.ts';
import { refOf, storedOne, type MediaRecord, type Ref } from '../model.ts';
import { attr, defineResource, filter, ownerIs, policies, rel, checks, type ResourceDefinition, type PolicyCheck } from './define.ts';

export const LIBRARY_STATUSES = ['current', 'planned', 'completed', 'on_hold', 'dropped'] as const;
const MEDIA_TYPES = ['anime', 'manga'] as const;

/** The episode or chapter numbered `number` of the entry's media. */
function unitAt(state: MediaState, media: Ref | null, number: number): Ref | null {
  if (!media || number < 1) return null;
  const type = media.type === 'anime' ? 'episodes' : 'chapters';
  const link = media.type === 'anime' ? 'media' : 'manga';
  const found = state.all(type).find((unit) => storedOne(unit, link)?.id === media.id && unit.attributes['number'] === number);
  return found ? refOf(found) : null;
}

function progressOf(record: MediaRecord): number {
  const progress = record.attributes['progress'];
  return typeof progress === 'number' ? progress : 0;
}

/** Private entries are seen by their owner only. */
const entryVisible: PolicyCheck = (viewer, record, state) => record.attributes['private'] !== true || ownerIs('user')(viewer, record, state);

/** `meta.statusCounts` of a library-entry collection, camelCase keys (fixtures/media/library-entries.2016-capture.json). */
export function statusCounts(records: readonly MediaRecord[]): Record<string, number> {
  const counts: Record<string, number> = { current: 0, planned: 0, completed: 0, onHold: 0, dropped: 0 };
  for (const record of records) {
    const key = record.attributes['status'] === 'on_hold' ? 'onHold' : String(record.attributes['status']);
    if (key in counts) counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

export const LIBRARY_ENTRIES: ResourceDefinition = defineResource({
  collection: 'library-entries',
  type: 'libraryEntries',
  singular: 'library entry',
  routes: 'standard',
  attributes: {
    status: attr.enum(LIBRARY_STATUSES, { write: 'always', required: true, nullable: false, sortable: true }),
    progress: attr.integer({ write: 'always', min: 0, default: 0, nullable: false, sortable: true }),
    volumesOwned: attr.integer({ write: 'always', min: 0, default: 0, nullable: false }),
    reconsuming: attr.boolean({ write: 'always', default: false, nullable: false }),
    reconsumeCount: attr.integer({ write: 'always', min: 0, default: 0, nullable: false }),
    notes: attr.string({ write: 'always', maxLength: 5000 }),
    private: attr.boolean({ write: 'always', default: false, nullable: false }),
    reactionSkipped: attr.enum(['unskipped', 'skipped', 'ignored'] as const, { write: 'always', default: 'unskipped' }),
    progressedAt: attr.datetime({ write: 'always', sortable: true }),
    startedAt: attr.datetime({ write: 'always', sortable: true }),
    finishedAt: attr.datetime({ write: 'always', sortable: true }),
    rating: attr.decimal({
      compute: (record) => {
        const twenty = record.attributes['ratingTwenty'];
        return typeof twenty === 'number' ? (twenty / 4).toFixed(1) : null;
      },
    }),
    ratingTwenty: attr.integer({ write: 'always', min: 2, max: 20, sortable: true }),
  },
  relationships: {
    user: rel.one('users', { write: 'create', required: true }),
    anime: rel.one('anime', {
      write: 'create',
      resolve: (record) => {
        const media = storedOne(record, 'media');
        return media?.type === 'anime' ? media : null;
      },
    }),
    manga: rel.one('manga', {
      write: 'create',
      resolve: (record) => {
        const media = storedOne(record, 'media');
        return media?.type === 'manga' ? media : null;
      },
    }),
    media: rel.one(MEDIA_TYPES, { write: 'create' }),
    unit: rel.one(['episodes', 'chapters'], { resolve: (record, state) => unitAt(state, storedOne(record, 'media'), progressOf(record)) }),
    nextUnit: rel.one(['episodes', 'chapters'], { resolve: (record, state) => unitAt(state, storedOne(record, 'media'), progressOf(record) + 1) }),
    mediaReaction: rel.one('mediaReactions', {
      resolve: (record, state) => {
        const found = state.all('mediaReactions').find((reaction) => storedOne(reaction, 'libraryEntry')?.id === record.id);
        return found ? refOf(found) : null;
      },
    }),
    review: rel.deprecated('mediaReaction'),
  },
  filters: {
    userId: filter.ref('user'),
    user: filter.ref('user'),
    mediaId: filter.ref('media'),
    media: filter.ref('media'),
    mediaType: filter.refType('media', MEDIA_TYPES),
    kind: filter.refType('media', MEDIA_TYPES),
    animeId: {
      values: 'id',
      match: (record, tokens) => {
        const media = storedOne(record, 'media');
        return media?.type === 'anime' && tokens.includes(media.id);
      },
    },
    mangaId: {
      values: 'id',
      match: (record, tokens) => {
        const media = storedOne(record, 'media');
        return media?.type === 'manga' && tokens.includes(media.id);
      },
    },
    status: filter.attribute('status', LIBRARY_STATUSES),
    reconsuming: filter.boolean('reconsuming'),
    private: filter.boolean('private'),
    ratingTwenty: filter.range('ratingTwenty'),
    progress: filter.range('progress'),
  },
  policy: { read: entryVisible, create: ownerIs('user'), update: ownerIs('user'), destroy: ownerIs('user') },
  owner: 'user',
  requiresFilter: true,
  collectionMeta: (records) => ({ statusCounts: statusCounts(records) }),
  validate: (draft, { state }) => {
    const issues: ValidationIssue[] = [];
    const media = draft.links['media'] as Ref | null | undefined;
    if (!media) {
      issues.push({ field: 'media', message: "can't be blank", relationship: true });
      return issues;
    }
    const user = draft.links['user'] as Ref | null | undefined;
    const duplicate = state
      .all('libraryEntries')
      .some(
        (entry) =>
          entry.id !== draft.id &&
          storedOne(entry, 'user')?.id === user?.id &&
          storedOne(entry, 'media')?.type === media.type &&
          storedOne(entry, 'media')?.id === media.id,
      );
    if (duplicate) issues.push({ field: `${media.type}Id`, message: 'has already been taken' });
    const target = state.get(media.type, media.id);
    const length = target?.attributes[media.type === 'anime' ? 'episodeCount' : 'chapterCount'];
    const progress = draft.attributes['progress'];
    if (typeof length === 'number' && length > 0 && typeof progress === 'number' && progress > length) {
      issues.push({ field: 'progress', message: 'cannot exceed length of media' });
    }
    return issues;
  },
  // `anime` or `manga` written on create name the media; only `media` is stored.
  prepare: (draft) => {
    for (const kind of MEDIA_TYPES) {
      const given = draft.links[kind];
      if (given && !Array.isArray(given)) {
        draft.links['media'] = given;
        draft.written.add('media');
      }
      delete draft.links[kind];
    }
  },
  beforeSave: (draft, { state, previous }) => {
    const now = state.nowIso();
    const progress = draft.attributes['progress'];
    const progressed = previous ? progress !== previous.attributes['progress'] : typeof progress === 'number' && progress > 0;
    if (progressed && !draft.written.has('progressedAt')) draft.attributes['progressedAt'] = now;
    const status = draft.attributes['status'];
    if (status === 'current' && draft.attributes['startedAt'] == null) draft.attributes['startedAt'] = now;
    if (status === 'completed' && draft.attributes['finishedAt'] == null) draft.attributes['finishedAt'] = now;
  },
});

/** A log is seen by the owner of its linked account. */
const logVisible: PolicyCheck = (viewer, record, state) => {
  if (viewer.isAdmin) return true;
  const account = storedOne(record, 'linkedAccount');
  const owner = account ? state.get(account.type, account.id) : undefined;
  return owner !== undefined && viewer.user !== undefined && storedOne(owner, 'user')?.id === viewer.user.id;
};

export const LIBRARY_ENTRY_LOGS: ResourceDefinition = defineResource({
  collection: 'library-entry-logs',
  type: 'libraryEntryLogs',
  singular: 'library entry log',
  routes: 'read-only',
  attributes: {
    progress: attr.integer(),
    rating: attr.integer(),
    reconsumeCount: attr.integer(),
    reconsuming: attr.boolean(),
    status: attr.enum(LIBRARY_STATUSES),
    volumesOwned: attr.integer(),
    actionPerformed: attr.enum(['create', 'update', 'destroy'] as const),
    syncStatus: attr.enum(['pending', 'success', 'error'] as const),
    errorMessage: attr.string(),
  },
  relationships: { linkedAccount: rel.one('linkedAccounts'), media: rel.one(MEDIA_TYPES) },
  filters: { linkedAccountId: filter.ref('linkedAccount'), syncStatus: filter.attribute('syncStatus') },
  policy: { ...policies.readOnly(logVisible), update: checks.nobody },
});

export const LIBRARY_RESOURCES: readonly ResourceDefinition[] = [LIBRARY_ENTRIES, LIBRARY_ENTRY_LOGS];
