/**
 * What the media twin's seed guarantees, by id: the one place the suites and
 * the twin's seed agree on. Everything else in the seed may change freely.
 */
export const MEDIA_SEED = {
  /** 45 anime, ids "1".."45"; these are adult-flagged (ageRating R18, nsfw true). */
  animeCount: 45,
  adultAnimeIds: ['7', '13', '29'],
  /** 25 manga, ids "1".."25"; this one is adult-flagged. */
  mangaCount: 25,
  adultMangaIds: ['5'],
  /** Anime "1" has 12 episodes and 2 streaming links; manga "1" has 10 chapters. */
  animeWithEpisodes: { id: '1', episodes: 12, streamingLinks: 2 },
  mangaWithChapters: { id: '1', chapters: 10 },
  /** 12 categories (unpaginated collection). */
  categoryCount: 12,
  users: {
    /** Signed in, allows adult content (sfwFilter false). */
    adultAllowed: { id: '1', name: 'alice', email: 'alice@twin.test', password: 'alice-password' },
    /** Signed in, adult content filtered (sfwFilter true). */
    adultFiltered: { id: '2', name: 'bob', email: 'bob@twin.test', password: 'bob-password' },
    other: { id: '3', name: 'carol', email: 'carol@twin.test', password: 'carol-password' },
  },
  /** alice's library: 6 entries, ids "1".."6"; entry "4" is on adult anime "7". */
  aliceLibraryEntryIds: ['1', '2', '3', '4', '5', '6'],
  adultLibraryEntry: { id: '4', animeId: '7', userId: '1' },
  /** Group "1" (alice leads, bob member); invites to carol: "1" and "2" pending, "3" pending for bob-led revoke tests. */
  groupId: '1',
  pendingInviteIds: ['1', '2', '3'],
  /** OAuth client of the twin (password grant needs no client secret, as on the real service). */
  oauthClientId: 'twin-client',
} as const;
