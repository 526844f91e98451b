/**
 * The seed of the media twin: the catalogue (seedCatalogue.ts), then users
 * with libraries, follows, posts and comments, groups with members and
 * invites, and the activities feeds show. Every fact of seedFacts.ts holds;
 * everything else may change freely.
 */
import { addActivity } from './activities.ts';
import { storedOne, type Ref, type SeedTarget } from './model.ts';
import { at, ref, seedCatalogue } from './seedCatalogue.ts';
import { MEDIA_SEED } from './seedFacts.ts';

/** The virtual clock starts here; seeded dates are all earlier. */
export const SEED_CLOCK_START_MS = Date.UTC(2025, 0, 1, 0, 0, 0, 0);

export interface SeededUser {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly password: string;
  /** false: sees adult (R18) media. */
  readonly sfwFilter: boolean;
  readonly admin: boolean;
}

export const SEEDED_USERS: readonly SeededUser[] = [
  { ...MEDIA_SEED.users.adultAllowed, sfwFilter: false, admin: false },
  { ...MEDIA_SEED.users.adultFiltered, sfwFilter: true, admin: false },
  { ...MEDIA_SEED.users.other, sfwFilter: true, admin: false },
  { id: '4', name: 'admin', email: 'admin@twin.test', password: 'admin-password', sfwFilter: true, admin: true },
  { id: '5', name: 'erin', email: 'erin@twin.test', password: 'erin-password', sfwFilter: true, admin: false },
];

type Row = readonly [Record<string, unknown>, Record<string, Ref | Ref[] | null>?];

/** Rows of one type with ids from 1, timestamps spread from `base`. */
function rows(target: SeedTarget, type: string, base: string, list: readonly Row[]): void {
  list.forEach(([attributes, links], index) => {
    const id = index + 1;
    target.put(type, String(id), { createdAt: at(base, id * 2, id), updatedAt: at(base, id * 2 + 1, id), ...attributes }, links ?? {});
  });
}

const user = (id: number | string): Ref => ref('users', id);

/**
 * The seeded users, then what hangs on them (roles, profile links, follows, blocks, linked accounts,
 * favorites, stats). One piece because it reads as the data it builds: each table's rows point at ids put above.
 */
function seedUsers(target: SeedTarget): void {
  for (const seeded of SEEDED_USERS) {
    const id = Number(seeded.id);
    target.put(
      'users',
      seeded.id,
      {
        createdAt: at('2024-01-01', id * 5, id),
        updatedAt: at('2024-09-01', id * 5, id),
        slug: seeded.name,
        name: seeded.name,
        pastNames: [],
        about: `${seeded.name[0]?.toUpperCase() ?? ''}${seeded.name.slice(1)} of the media twin.`,
        location: null,
        waifuOrHusbando: id === 1 ? 'Waifu' : null,
        lifeSpentOnAnime: 1200 * id,
        birthday: null,
        gender: null,
        title: seeded.admin ? 'Staff' : null,
        profileCompleted: true,
        feedCompleted: true,
        website: null,
        avatar: { original: `https://media.twin.test/users/avatars/${id}/original.jpg`, meta: { dimensions: {} } },
        coverImage: null,
        email: seeded.email,
        sfwFilter: seeded.sfwFilter,
        ratingSystem: id === 1 ? 'advanced' : 'simple',
        theme: 'light',
        timeZone: 'UTC',
        language: 'en',
        country: 'US',
        status: 'registered',
      },
      { waifu: id === 1 ? ref('characters', 2) : null, pinnedPost: null },
      { password: seeded.password },
    );
  }
  rows(target, 'roles', '2016-01-01', [[{ name: 'admin', resourceId: null, resourceType: null }], [{ name: 'mod', resourceId: null, resourceType: null }]]);
  rows(target, 'userRoles', '2024-01-10', [[{}, { user: user(4), role: ref('roles', 1) }]]);
  rows(
    target,
    'profileLinkSites',
    '2017-01-01',
    ['Twitter', 'Facebook', 'YouTube', 'Google', 'Instagram', 'Twitch', 'Steam', 'Discord'].map(
      (name) => [{ name, validateFind: '.*', validateReplace: '\\0' }] as const,
    ),
  );
  rows(target, 'profileLinks', '2024-02-01', [
    [{ url: 'https://twitter.com/alice_twin' }, { user: user(1), profileLinkSite: ref('profileLinkSites', 1) }],
    [{ url: 'https://twitch.tv/alice_twin' }, { user: user(1), profileLinkSite: ref('profileLinkSites', 6) }],
  ]);
  rows(target, 'follows', '2024-03-01', [
    [{}, { follower: user(1), followed: user(2) }],
    [{}, { follower: user(2), followed: user(1) }],
    [{}, { follower: user(3), followed: user(1) }],
    [{}, { follower: user(5), followed: user(1) }],
    [{}, { follower: user(1), followed: user(3) }],
  ]);
  rows(target, 'blocks', '2024-03-10', [[{}, { user: user(3), blocked: user(5) }]]);
  rows(target, 'mediaIgnores', '2024-03-15', [[{}, { user: user(2), media: ref('anime', 5) }]]);
  rows(target, 'linkedAccounts', '2024-03-20', [
    [{ kind: 'my-anime-list', externalUserId: 'alice_mal', shareTo: true, shareFrom: false, syncTo: true, disabledReason: null }, { user: user(1) }],
  ]);
  rows(target, 'listImports', '2024-03-25', [
    [
      { kind: 'anilist', inputText: 'alice_anilist', strategy: 'greater', status: 'completed', progress: 3, total: 3, errorMessage: null, errorTrace: null },
      { user: user(1) },
    ],
  ]);
  rows(target, 'notificationSettings', '2024-01-02', [
    [{ setting: 'mentions', emailEnabled: true, webEnabled: true, mobileEnabled: true, fbMessengerEnabled: false }, { user: user(1) }],
    [{ setting: 'replies', emailEnabled: false, webEnabled: true, mobileEnabled: true, fbMessengerEnabled: false }, { user: user(1) }],
    [{ setting: 'likes', emailEnabled: false, webEnabled: true, mobileEnabled: false, fbMessengerEnabled: false }, { user: user(1) }],
  ]);
  rows(target, 'pushPlayers', '2024-01-03', [[{ playerId: 'twin-player-alice-web', platform: 'web' }, { user: user(1) }]]);
  rows(target, 'favorites', '2024-04-01', [
    [{ favRank: 1 }, { user: user(1), item: ref('anime', 1) }],
    [{ favRank: 1 }, { user: user(1), item: ref('characters', 2) }],
    [{ favRank: 1 }, { user: user(2), item: ref('manga', 2) }],
  ]);
  rows(target, 'categoryFavorites', '2024-04-05', [
    [{}, { user: user(1), category: ref('categories', 5) }],
    [{}, { user: user(2), category: ref('categories', 9) }],
  ]);
  rows(target, 'stats', '2024-10-01', [
    [{ kind: 'anime-amount-consumed', statsData: { time: 72_000, media: 3, units: 57, completed: 1 } }, { user: user(1) }],
    [{ kind: 'anime-category-breakdown', statsData: { total: 3, categories: { '1': 2, '5': 2, '4': 2 } } }, { user: user(1) }],
    [{ kind: 'anime-amount-consumed', statsData: { time: 39_000, media: 2, units: 46, completed: 1 } }, { user: user(2) }],
  ]);
}

/**
 * Each seeded user's library entries and their logs. One piece: the rows are the data, one line per entry,
 * and the `entry` shorthand only makes sense beside them.
 */
function seedLibraries(target: SeedTarget): void {
  const entry = (status: string, progress: number, ratingTwenty: number | null, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    status,
    progress,
    volumesOwned: 0,
    reconsuming: false,
    reconsumeCount: 0,
    notes: null,
    private: false,
    reactionSkipped: 'unskipped',
    progressedAt: progress > 0 ? '2024-08-01T12:00:00.000Z' : null,
    startedAt: status === 'planned' ? null : '2024-05-01T12:00:00.000Z',
    finishedAt: status === 'completed' ? '2024-07-01T12:00:00.000Z' : null,
    ratingTwenty,
    ...extra,
  });
  const adult = MEDIA_SEED.adultLibraryEntry;
  const list: Row[] = [
    [entry('current', 5, 18, { notes: 'See you, space cowboy.' }), { user: user(1), media: ref('anime', 1) }],
    [entry('completed', 26, 16), { user: user(1), media: ref('anime', 3) }],
    [entry('planned', 0, null), { user: user(1), media: ref('anime', 11) }],
    [entry('current', 1, null), { user: user(adult.userId), media: ref('anime', adult.animeId) }],
    [entry('current', 3, 20), { user: user(1), media: ref('manga', 1) }],
    [entry('on_hold', 1, null), { user: user(1), media: ref('manga', MEDIA_SEED.adultMangaIds[0] ?? '5') }],
    [entry('completed', 26, 14), { user: user(2), media: ref('anime', 1) }],
    [entry('dropped', 1, null), { user: user(2), media: ref('anime', MEDIA_SEED.adultAnimeIds[1] ?? '13') }],
    [entry('on_hold', 10, 12), { user: user(2), media: ref('manga', 2) }],
    [entry('current', 20, null, { private: true }), { user: user(2), media: ref('anime', 6) }],
    [entry('planned', 0, null, { private: true }), { user: user(3), media: ref('anime', 12) }],
    [entry('completed', 100, 19), { user: user(3), media: ref('manga', 3) }],
    [entry('current', 2, null), { user: user(5), media: ref('anime', MEDIA_SEED.adultAnimeIds[2] ?? '29') }],
  ];
  rows(target, 'libraryEntries', '2024-05-01', list);
  const alice = MEDIA_SEED.aliceLibraryEntryIds;
  list.forEach(([, links], index) => {
    const owner = links?.['user'] as Ref | undefined;
    if (index < alice.length && (owner?.id !== MEDIA_SEED.users.adultAllowed.id || String(index + 1) !== alice[index])) {
      throw new Error(`media seed: library entry ${index + 1} must be alice's (seedFacts.ts aliceLibraryEntryIds)`);
    }
  });
  rows(target, 'libraryEntryLogs', '2024-08-02', [
    [
      {
        progress: 5,
        rating: 18,
        reconsumeCount: 0,
        reconsuming: false,
        status: 'current',
        volumesOwned: 0,
        actionPerformed: 'update',
        syncStatus: 'success',
        errorMessage: null,
      },
      { linkedAccount: ref('linkedAccounts', 1), media: ref('anime', 1) },
    ],
    [
      {
        progress: 26,
        rating: 16,
        reconsumeCount: 0,
        reconsuming: false,
        status: 'completed',
        volumesOwned: 0,
        actionPerformed: 'update',
        syncStatus: 'success',
        errorMessage: null,
      },
      { linkedAccount: ref('linkedAccounts', 1), media: ref('anime', 3) },
    ],
    [
      {
        progress: 3,
        rating: 20,
        reconsumeCount: 0,
        reconsuming: false,
        status: 'current',
        volumesOwned: 0,
        actionPerformed: 'create',
        syncStatus: 'error',
        errorMessage: 'The linked site did not answer',
      },
      { linkedAccount: ref('linkedAccounts', 1), media: ref('manga', 1) },
    ],
  ]);
}

/**
 * Posts, comments, likes, follows, reactions, reports, announcements and uploads. One piece: it reads as the
 * feed it builds, and later rows (likes, replies) point at the ids of the rows above them.
 */
function seedSocial(target: SeedTarget): void {
  const post = (content: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    content,
    spoiler: false,
    nsfw: false,
    blocked: false,
    deletedAt: null,
    editedAt: null,
    targetInterest: null,
    embed: null,
    ...extra,
  });
  const none = { targetUser: null, targetGroup: null, media: null, spoiledUnit: null };
  rows(target, 'posts', '2024-09-01', [
    [post('Rewatching Cowboy Bebop with the club this week.'), { ...none, user: user(1), media: ref('anime', 1) }],
    [post('Welcome to the Twin Watch Club!'), { ...none, user: user(2), targetGroup: ref('groups', 1) }],
    [post('Monster holds up on every rewatch.'), { ...none, user: user(3), media: ref('anime', 11) }],
    [post('Thoughts on Crimson Lantern (adult).', { nsfw: true }), { ...none, user: user(1), media: ref('anime', MEDIA_SEED.adultLibraryEntry.animeId) }],
    [post('Hi alice! Loved your list.'), { ...none, user: user(5), targetUser: user(1) }],
  ]);
  const comment = (content: string): Record<string, unknown> => ({ content, blocked: false, deletedAt: null, editedAt: null, embed: null });
  rows(target, 'comments', '2024-09-02', [
    [comment('See you, space cowboy.'), { user: user(2), post: ref('posts', 1), parent: null }],
    [comment('Session 5 next!'), { user: user(1), post: ref('posts', 1), parent: ref('comments', 1) }],
    [comment('Happy to be here.'), { user: user(3), post: ref('posts', 2), parent: null }],
  ]);
  rows(target, 'postLikes', '2024-09-03', [
    [{}, { user: user(2), post: ref('posts', 1) }],
    [{}, { user: user(3), post: ref('posts', 1) }],
    [{}, { user: user(1), post: ref('posts', 3) }],
  ]);
  rows(target, 'postFollows', '2024-09-03', [[{}, { user: user(1), post: ref('posts', 1) }]]);
  rows(target, 'commentLikes', '2024-09-04', [[{}, { user: user(1), comment: ref('comments', 1) }]]);
  rows(target, 'mediaReactions', '2024-09-05', [
    [
      { reaction: 'Jazz in space, and it works.', progress: 5, deletedAt: null },
      { user: user(1), media: ref('anime', 1), libraryEntry: ref('libraryEntries', 1) },
    ],
    [
      { reaction: 'Bang.', progress: 26, deletedAt: null },
      { user: user(2), media: ref('anime', 1), libraryEntry: ref('libraryEntries', 7) },
    ],
  ]);
  rows(target, 'mediaReactionVotes', '2024-09-06', [[{}, { user: user(1), mediaReaction: ref('mediaReactions', 2) }]]);
  rows(target, 'reports', '2024-09-07', [
    [
      { reason: 'spam', status: 'reported', explanation: 'Looks like spam.' },
      { user: user(3), naughty: ref('posts', 5), moderator: null },
    ],
  ]);
  rows(target, 'siteAnnouncements', '2024-09-08', [
    [{ title: 'Welcome to the Media Tracking twin', description: 'A local stand-in for the real service.', imageUrl: null, link: null }, { user: user(4) }],
    [{ title: 'Seasonal chart updated', description: 'The winter season is in.', imageUrl: null, link: 'https://twin.test/anime/season' }, { user: user(4) }],
  ]);
  rows(target, 'uploads', '2024-09-01', [
    [
      { content: { original: 'https://media.twin.test/uploads/1/original.png', meta: { dimensions: {} } }, uploadOrder: 0 },
      { user: user(1), owner: ref('posts', 1) },
    ],
  ]);
}

/**
 * The groups and everything hung on them: members, permissions, neighbours, invites, tickets, reports, bans,
 * notes, leader chat, action logs. One piece: each table's rows link by id to rows put above it, so it reads
 * as the data top to bottom.
 */
function seedGroups(target: SeedTarget): void {
  rows(target, 'groupCategories', '2017-06-01', [
    [{ slug: 'anime-manga', name: 'Anime & Manga', description: 'Talk about what you watch and read.' }],
    [{ slug: 'books', name: 'Books', description: 'Novels and light novels.' }],
    [{ slug: 'gaming', name: 'Gaming', description: 'Games of every kind.' }],
    [{ slug: 'other', name: 'Other', description: 'Everything else.' }],
  ]);
  const group = (name: string, slug: string, privacy: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    slug,
    name,
    about: `${name}, a group of the media twin.`,
    locale: 'en',
    featured: false,
    nsfw: false,
    privacy,
    rules: 'Be kind.',
    tagline: null,
    lastActivityAt: '2024-09-10T12:00:00.000Z',
    avatar: null,
    coverImage: null,
    ...extra,
  });
  rows(target, 'groups', '2024-06-01', [
    [
      group('Twin Watch Club', 'twin-watch-club', 'open', { featured: true, tagline: 'Watch along' }),
      { category: ref('groupCategories', 1), pinnedPost: null },
    ],
    [group("Bob's Reading Room", 'bobs-reading-room', 'restricted'), { category: ref('groupCategories', 2), pinnedPost: null }],
    [group('Closed Circle', 'closed-circle', 'closed'), { category: ref('groupCategories', 4), pinnedPost: null }],
  ]);
  const groupId = MEDIA_SEED.groupId;
  rows(target, 'groupMembers', '2024-06-02', [
    [
      { rank: 'admin', unreadCount: 0, hidden: false },
      { group: ref('groups', groupId), user: user(1) },
    ],
    [
      { rank: 'pleb', unreadCount: 3, hidden: false },
      { group: ref('groups', groupId), user: user(2) },
    ],
    [
      { rank: 'admin', unreadCount: 0, hidden: false },
      { group: ref('groups', 2), user: user(2) },
    ],
    [
      { rank: 'pleb', unreadCount: 1, hidden: false },
      { group: ref('groups', 2), user: user(5) },
    ],
    [
      { rank: 'admin', unreadCount: 0, hidden: false },
      { group: ref('groups', 3), user: user(1) },
    ],
  ]);
  rows(target, 'groupPermissions', '2024-06-02', [
    [{ permission: 'owner' }, { groupMember: ref('groupMembers', 1) }],
    [{ permission: 'owner' }, { groupMember: ref('groupMembers', 3) }],
    [{ permission: 'owner' }, { groupMember: ref('groupMembers', 5) }],
  ]);
  rows(target, 'groupNeighbors', '2024-06-03', [[{}, { source: ref('groups', 1), destination: ref('groups', 2) }]]);
  const carol = user(MEDIA_SEED.users.other.id);
  const pending = { acceptedAt: null, declinedAt: null, revokedAt: null };
  const [first, second, third] = MEDIA_SEED.pendingInviteIds;
  if (first !== '1' || second !== '2' || third !== '3') throw new Error('media seed: seedFacts.ts pendingInviteIds must be "1", "2", "3"');
  rows(target, 'groupInvites', '2024-06-04', [
    [pending, { group: ref('groups', groupId), user: carol, sender: user(1) }],
    [pending, { group: ref('groups', groupId), user: carol, sender: user(1) }],
    // Invite 3 is for revoke tests: alice leads group 1 and may revoke it; bob, a plain member, may not.
    [pending, { group: ref('groups', groupId), user: carol, sender: user(1) }],
    [
      { ...pending, declinedAt: '2024-06-20T12:00:00.000Z' },
      { group: ref('groups', groupId), user: user(5), sender: user(1) },
    ],
  ]);
  rows(target, 'groupTickets', '2024-06-05', [[{ status: 'created' }, { user: user(2), group: ref('groups', groupId), assignee: null }]]);
  rows(target, 'groupTicketMessages', '2024-06-05', [
    [
      { kind: 'message', content: 'Can we watch Trigun next?' },
      { ticket: ref('groupTickets', 1), user: user(2) },
    ],
    [
      { kind: 'mod_note', content: 'Consider it for next season.' },
      { ticket: ref('groupTickets', 1), user: user(1) },
    ],
  ]);
  rows(target, 'groupReports', '2024-06-06', [
    [
      { reason: 'offensive', status: 'reported', explanation: 'Off-topic.' },
      { group: ref('groups', groupId), user: user(2), naughty: ref('comments', 3), moderator: null },
    ],
  ]);
  rows(target, 'groupBans', '2024-06-07', [[{ notes: 'Spam.' }, { group: ref('groups', groupId), user: user(5), moderator: user(1) }]]);
  rows(target, 'groupMemberNotes', '2024-06-08', [[{ content: 'Helpful member.' }, { groupMember: ref('groupMembers', 2), user: user(1) }]]);
  rows(target, 'leaderChatMessages', '2024-06-09', [
    [
      { content: 'Planning the spring watch list.', editedAt: null },
      { group: ref('groups', groupId), user: user(1) },
    ],
  ]);
  rows(target, 'groupActionLogs', '2024-06-10', [[{ verb: 'invited' }, { user: user(1), group: ref('groups', groupId), target: ref('groupInvites', 1) }]]);
}

/**
 * Activities of the seeded posts, comments, likes, follows, library entries and invites, with fixed ids. One
 * list: the activity ids count up in the order written, so the order of the lines is the data.
 */
function seedActivities(target: SeedTarget): void {
  let n = 0;
  const id = (): string => {
    n += 1;
    return `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  };
  const of = (type: string, recordId: string) => {
    const record = target.get(type, recordId);
    if (!record) throw new Error(`media seed: ${type} ${recordId} is missing`);
    return { time: String(record.attributes['createdAt']), record };
  };
  for (const postId of ['1', '2', '3', '4', '5']) {
    const { time, record } = of('posts', postId);
    const actor = storedOne(record, 'user');
    if (actor) {
      addActivity(
        target,
        {
          verb: 'post',
          actor,
          subject: ref('posts', postId),
          target: storedOne(record, 'targetGroup') ?? storedOne(record, 'targetUser'),
          media: storedOne(record, 'media'),
          time,
        },
        id(),
      );
    }
  }
  for (const commentId of ['1', '2', '3']) {
    const { time, record } = of('comments', commentId);
    const actor = storedOne(record, 'user');
    if (actor) addActivity(target, { verb: 'comment', actor, subject: ref('comments', commentId), target: storedOne(record, 'post'), time }, id());
  }
  for (const likeId of ['1', '2', '3']) {
    const { time, record } = of('postLikes', likeId);
    const actor = storedOne(record, 'user');
    if (actor) addActivity(target, { verb: 'like', actor, subject: ref('postLikes', likeId), target: storedOne(record, 'post'), time }, id());
  }
  for (const followId of ['1', '2', '3', '4', '5']) {
    const { time, record } = of('follows', followId);
    const actor = storedOne(record, 'follower');
    if (actor) addActivity(target, { verb: 'follow', actor, subject: ref('follows', followId), target: storedOne(record, 'followed'), time }, id());
  }
  for (const entryId of ['1', '2', '4', '5', '7']) {
    const { record } = of('libraryEntries', entryId);
    const actor = storedOne(record, 'user');
    const media = storedOne(record, 'media');
    const time = String(record.attributes['progressedAt'] ?? record.attributes['createdAt']);
    if (actor && media) {
      addActivity(
        target,
        { verb: 'updated', actor, subject: ref('libraryEntries', entryId), target: media, media, progress: Number(record.attributes['progress']), time },
        id(),
      );
    }
  }
  for (const inviteId of ['1', '2', '3']) {
    const { time, record } = of('groupInvites', inviteId);
    const actor = storedOne(record, 'sender');
    if (actor) addActivity(target, { verb: 'invited', actor, subject: ref('groupInvites', inviteId), target: storedOne(record, 'user'), time }, id());
  }
}

export function seedMediaData(target: SeedTarget): void {
  seedCatalogue(target);
  seedUsers(target);
  seedLibraries(target);
  seedSocial(target);
  seedGroups(target);
  seedActivities(target);
}
