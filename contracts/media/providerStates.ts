/**
 * The one state-handler table of the media pacts, per target. On the twin
 * every state starts from the seed (a reset), which already holds what the
 * states name (src/twins/media/seedFacts.ts): the handler checks that, through
 * the API as a consumer would see it, and signs in as the user a state needs.
 * On live, states read off the real catalogue are checked there; states that
 * name the twin's seed, or change a real user's data, are skipped with the reason.
 */
import { harnessConfig, type LiveMediaConfig, type TwinMediaConfig } from '../../src/config/harnessConfig.ts';
import type { MediaClient } from '../../src/clients/media/MediaClient.ts';
import { liveMediaProvider, twinMediaProvider } from '../../src/providers/media/mediaProvider.ts';
import { MEDIA_CONTRACT } from '../../src/rules/mediaContract.ts';
import { MEDIA_SEED } from '../../src/twins/media/seedFacts.ts';
import { isUnavailable, unavailable, type Arrange, type Arranged, type PactProvider, type Unavailable } from '../verification/pactProvider.ts';
import type { StateEntry } from '../verification/stateVocabulary.ts';

/**
 * The media's provider-state vocabulary: the harness's own pacts and any outside consumer's name these.
 * A state is declared in three places, held together by tests/unit/contracts/stateVocabulary.test.ts: its
 * template here, its entry in MEDIA_VOCABULARY (for docs/provider-states.md), and its handler in both tables.
 * Order matters where templates overlap: `anime with slug {slug} exists` before `anime {id} exists`.
 */
export const MEDIA_STATES = {
  tvAnime: 'the catalogue has {count} TV anime',
  animeSlug: 'anime with slug {slug} exists',
  mangaSlug: 'manga with slug {slug} exists',
  animeExists: 'anime {id} exists',
  mangaExists: 'manga {id} exists',
  adultAnime: 'anime {id} is adult-flagged',
  adultManga: 'manga {id} is adult-flagged',
  animeEpisodes: 'anime {id} has episodes',
  animeCategories: 'anime {id} has categories',
  mangaCategories: 'manga {id} has categories',
  adultLibraryEntry: 'library entry {id} is on an adult anime',
  userLibrary: 'user {userId} has library entries {ids}',
  userHasLibrary: 'user {userId} has library entries',
  groupMembers: 'group {groupId} has members',
  groupInvites: 'group {groupId} has pending invites',
  pendingInvite: 'invite {inviteId} is pending for user {userId}',
  signedIn: 'user {userId} is signed in',
  anonymous: 'the user is anonymous',
} as const;

const SIGNED_IN = 'the request is sent with that user signed in (a bearer token the harness adds; the pact needs no credentials)';
const SEED_NAMED = 'always: which real titles are adult-flagged is not known to the harness';

export const MEDIA_VOCABULARY: readonly StateEntry[] = [
  {
    name: MEDIA_STATES.tvAnime,
    params: { count: 'how many TV anime at least' },
    twin: 'the seed (reset); it holds more',
    live: 'reads the count of anime filtered by subtype TV',
    skippedOnLive: 'when there are fewer',
  },
  {
    name: MEDIA_STATES.animeSlug,
    params: { slug: 'the slug', id: 'given: its id' },
    twin: 'the seed (reset); fails when no anime has that slug',
    live: 'looks the slug up anonymously',
    skippedOnLive: 'when no anime has it',
  },
  {
    name: MEDIA_STATES.mangaSlug,
    params: { slug: 'the slug', id: 'given: its id' },
    twin: 'the seed (reset); fails when no manga has that slug',
    live: 'looks the slug up anonymously',
    skippedOnLive: 'when no manga has it',
  },
  {
    name: MEDIA_STATES.animeExists,
    params: { id: 'an anime id, not adult-flagged' },
    twin: 'the seed (reset): anime 1–45, adult ones excluded',
    live: 'reads it anonymously',
    skippedOnLive: 'when it is not served anonymously',
  },
  {
    name: MEDIA_STATES.mangaExists,
    params: { id: 'a manga id, not adult-flagged' },
    twin: 'the seed (reset): manga 1–25, adult ones excluded',
    live: 'reads it anonymously',
    skippedOnLive: 'when it is not served anonymously',
  },
  {
    name: MEDIA_STATES.adultAnime,
    params: { id: `an adult-flagged anime (${MEDIA_SEED.adultAnimeIds.join(', ')} on the twin)` },
    twin: 'the seed (reset); fails when the id is not adult-flagged there',
    live: 'nothing',
    skippedOnLive: SEED_NAMED,
  },
  {
    name: MEDIA_STATES.adultManga,
    params: { id: `an adult-flagged manga (${MEDIA_SEED.adultMangaIds.join(', ')} on the twin)` },
    twin: 'the seed (reset); fails when the id is not adult-flagged there',
    live: 'nothing',
    skippedOnLive: SEED_NAMED,
  },
  {
    name: MEDIA_STATES.animeEpisodes,
    params: { id: `an anime with episodes (${MEDIA_SEED.animeWithEpisodes.id} on the twin: ${MEDIA_SEED.animeWithEpisodes.episodes})` },
    twin: 'the seed (reset); fails when the anime has no episodes',
    live: "reads the anime's episodes anonymously",
    skippedOnLive: 'when it has none',
  },
  {
    name: MEDIA_STATES.animeCategories,
    params: { id: 'an anime with categories' },
    twin: 'the seed (reset); fails when the anime has no categories',
    live: "reads the anime's categories anonymously",
    skippedOnLive: 'when it has none',
  },
  {
    name: MEDIA_STATES.mangaCategories,
    params: { id: 'a manga with categories' },
    twin: 'the seed (reset); fails when the manga has no categories',
    live: "reads the manga's categories anonymously",
    skippedOnLive: 'when it has none',
  },
  {
    name: MEDIA_STATES.adultLibraryEntry,
    params: { id: `the library entry (${MEDIA_SEED.adultLibraryEntry.id} on the twin)` },
    twin: 'the seed (reset)',
    live: 'nothing',
    skippedOnLive: SEED_NAMED,
  },
  {
    name: MEDIA_STATES.userLibrary,
    params: { userId: `the user (${MEDIA_SEED.adultLibraryEntry.userId} on the twin)`, ids: 'their entries, comma-separated' },
    twin: `the seed (reset), that user signed in; ${SIGNED_IN}`,
    live: 'nothing',
    skippedOnLive: "always: it names a real user's library entries by id",
  },
  {
    name: MEDIA_STATES.userHasLibrary,
    params: { userId: 'the user' },
    twin: 'the seed (reset); fails when the user has no library entries',
    live: "reads the user's library entries anonymously",
    skippedOnLive: 'when the user has none',
  },
  {
    name: MEDIA_STATES.groupMembers,
    params: { groupId: `the group (${MEDIA_SEED.groupId} on the twin)` },
    twin: 'the seed (reset); fails when the group has no members',
    live: "reads the group's membersCount",
    skippedOnLive: 'when the group has no members',
  },
  {
    name: MEDIA_STATES.groupInvites,
    params: { groupId: `the group (${MEDIA_SEED.groupId} on the twin)` },
    twin: `the seed (reset), the group's leader signed in; ${SIGNED_IN}`,
    live: 'nothing',
    skippedOnLive: 'always: pending invites cannot be arranged on a real group',
  },
  {
    name: MEDIA_STATES.pendingInvite,
    params: { inviteId: 'the invite', userId: 'the invitee' },
    twin: `the seed (reset), the invitee signed in; ${SIGNED_IN}`,
    live: 'nothing',
    skippedOnLive: 'always: a pending group invite to the signed-in user cannot be arranged on a real service',
  },
  {
    name: MEDIA_STATES.signedIn,
    params: {
      userId: `a seeded user on the twin (${Object.values(MEDIA_SEED.users)
        .map((u) => `${u.id} ${u.name}`)
        .join(', ')}); on live, any value: the configured account`,
    },
    twin: `the seed (reset), that user signed in; ${SIGNED_IN}`,
    live: 'the account of KITSU_ACCESS_TOKEN',
    skippedOnLive: 'when KITSU_ACCESS_TOKEN is not set',
  },
  { name: MEDIA_STATES.anonymous, twin: 'the seed (reset); no credentials', live: 'no credentials' },
];

const SEED_USERS = Object.values(MEDIA_SEED.users);
const includes = (list: readonly string[], value: unknown) => list.includes(String(value));
type Params = Record<string, unknown>;
type Found = Arranged | Unavailable;

/** The JSON:API document of an anonymous GET, or undefined when it does not answer 200. */
async function read(
  api: MediaClient,
  path: string,
  query: Record<string, string | number> = {},
): Promise<{ data: unknown; meta?: Record<string, unknown> } | undefined> {
  // No query when there is none: the request (and so a recording of it) stays exactly what it was before the vocabulary.
  const response = await api.send({ method: 'GET', path, ...(Object.keys(query).length > 0 ? { query } : {}) });
  return response.status === 200 ? response.json() : undefined;
}
const count = (document: { data: unknown; meta?: Record<string, unknown> } | undefined) =>
  document === undefined ? 0 : Number(document.meta?.['count'] ?? (Array.isArray(document.data) ? document.data.length : 1));

/**
 * The checks a state makes through the API, the same on both targets: the twin fails when its seed lacks
 * what the state names, live skips. `api` is anonymous.
 * A table, one entry per state that looks something up: kept whole so both targets share it line for line.
 */
function lookups(api: MediaClient): Record<string, (params: Params) => Promise<Found>> {
  const bySlug =
    (type: 'anime' | 'manga') =>
    async ({ slug }: Params) => {
      const found = await read(api, `/${type}`, { 'filter[slug]': String(slug), 'page[limit]': 1 });
      const [first] = (found?.data as { id: string }[] | undefined) ?? [];
      return first ? { values: { id: first.id } } : unavailable(`no ${type} has the slug "${String(slug)}"`);
    };
  const byId =
    (type: 'anime' | 'manga') =>
    async ({ id }: Params) =>
      (await read(api, `/${type}/${encodeURIComponent(String(id))}`)) ? {} : unavailable(`${type} ${String(id)} is not served anonymously`);
  const related =
    (type: 'anime' | 'manga', relation: string) =>
    async ({ id }: Params) =>
      count(await read(api, `/${type}/${encodeURIComponent(String(id))}/${relation}`, { 'page[limit]': 1 })) > 0
        ? {}
        : unavailable(`${type} ${String(id)} has no ${relation}`);
  return {
    [MEDIA_STATES.tvAnime]: async ({ count: wanted }) => {
      const found = Number((await api.list('anime', { filter: { subtype: 'TV' }, page: { limit: 1 } })).meta['count'] ?? 0);
      return found >= Number(wanted) ? {} : unavailable(`the catalogue has ${found} TV anime and the pact needs ${String(wanted)}`);
    },
    [MEDIA_STATES.animeSlug]: bySlug('anime'),
    [MEDIA_STATES.mangaSlug]: bySlug('manga'),
    [MEDIA_STATES.animeExists]: byId('anime'),
    [MEDIA_STATES.mangaExists]: byId('manga'),
    [MEDIA_STATES.animeEpisodes]: related('anime', 'episodes'),
    [MEDIA_STATES.animeCategories]: related('anime', 'categories'),
    [MEDIA_STATES.mangaCategories]: related('manga', 'categories'),
    [MEDIA_STATES.userHasLibrary]: async ({ userId }) =>
      count(await read(api, '/library-entries', { 'filter[userId]': String(userId), 'page[limit]': 1 })) > 0
        ? {}
        : unavailable(`user ${String(userId)} has no library entries that are visible anonymously`),
    [MEDIA_STATES.groupMembers]: async ({ groupId }) => {
      const group = await read(api, `/groups/${encodeURIComponent(String(groupId))}`);
      const members = Number((group?.data as { attributes?: { membersCount?: unknown } } | undefined)?.attributes?.membersCount ?? 0);
      return members > 0 ? {} : unavailable(`group ${String(groupId)} has no members (or is not served anonymously)`);
    },
    [MEDIA_STATES.anonymous]: async () => ({}),
  };
}

/**
 * The media provider states on the twin: the shared lookups plus the states only the control API can arrange.
 * One function because it is the state table; its helpers (signing in, a fresh user) serve only its entries.
 */
export function mediaTwinTarget(config: TwinMediaConfig): PactProvider {
  const provider = twinMediaProvider(config, 'twin');
  const control = provider.control!;
  const signIn = async (userId: unknown): Promise<Arranged> => {
    const user = SEED_USERS.find((u) => u.id === String(userId));
    if (!user)
      throw new Error(
        `no seeded user ${String(userId)} to sign in as: the twin's users are ${SEED_USERS.map((u) => `${u.id} (${u.name})`).join(', ')} (src/twins/media/seedFacts.ts)`,
      );
    const { access_token } = await provider.client().token({ username: user.email, password: user.password });
    return { headers: { authorization: `Bearer ${access_token}` } };
  };
  /** Resets to the seed and checks it holds what the state names; `as` signs in as that seeded user. */
  const fromSeed =
    (holds: (params: Params) => boolean, as?: (params: Params) => unknown): Arrange =>
    async (params) => {
      await control.reset();
      if (!holds(params))
        throw new Error(`the media twin's seed does not hold ${JSON.stringify(params)}: fix the pact's state parameters or src/twins/media/seedFacts.ts`);
      return as ? signIn(as(params)) : {};
    };
  /** Resets to the seed and asks the API, as the consumer would: what the seed lacks fails (the twin always arranges). */
  const looked = lookups(provider.client());
  const throughApi =
    (state: string): Arrange =>
    async (params) => {
      await control.reset();
      const found = await looked[state]!(params);
      if (isUnavailable(found))
        throw new Error(`the media twin's seed cannot arrange "${state}": ${found.skip}. Fix the pact's state parameters (see docs/provider-states.md)`);
      return found;
    };
  return {
    name: 'media twin',
    kind: 'twin',
    baseUrl: config.twinUrl,
    vocabulary: MEDIA_VOCABULARY,
    // An interaction without a state reads the seed as an anonymous client does: no other interaction's writes.
    withoutState: async () => {
      await control.reset();
      return {};
    },
    states: {
      ...Object.fromEntries(Object.keys(looked).map((state) => [state, throughApi(state)])),
      [MEDIA_STATES.animeExists]: fromSeed(({ id }) => Number(id) <= MEDIA_SEED.animeCount && !includes(MEDIA_SEED.adultAnimeIds, id)),
      [MEDIA_STATES.mangaExists]: fromSeed(({ id }) => Number(id) <= MEDIA_SEED.mangaCount && !includes(MEDIA_SEED.adultMangaIds, id)),
      [MEDIA_STATES.adultAnime]: fromSeed(({ id }) => includes(MEDIA_SEED.adultAnimeIds, id)),
      [MEDIA_STATES.adultManga]: fromSeed(({ id }) => includes(MEDIA_SEED.adultMangaIds, id)),
      [MEDIA_STATES.adultLibraryEntry]: fromSeed(({ id }) => MEDIA_SEED.adultLibraryEntry.id === String(id)),
      [MEDIA_STATES.userLibrary]: fromSeed(
        ({ userId, ids }) =>
          userId === MEDIA_SEED.adultLibraryEntry.userId &&
          String(ids)
            .split(',')
            .every((id) => includes(MEDIA_SEED.aliceLibraryEntryIds, id)),
        ({ userId }) => userId,
      ),
      [MEDIA_STATES.groupInvites]: fromSeed(
        ({ groupId }) => String(groupId) === MEDIA_SEED.groupId,
        () => MEDIA_SEED.users.adultAllowed.id,
      ),
      [MEDIA_STATES.pendingInvite]: fromSeed(
        ({ inviteId, userId }) => includes(MEDIA_SEED.pendingInviteIds, inviteId) && userId === MEDIA_SEED.users.other.id,
        ({ userId }) => userId,
      ),
      [MEDIA_STATES.signedIn]: fromSeed(
        () => true,
        ({ userId }) => userId ?? MEDIA_SEED.users.adultAllowed.id,
      ),
    },
  };
}

export function mediaLiveTarget(config: LiveMediaConfig): PactProvider {
  // Anonymous on purpose: the pacts' reads are what an anonymous integration sees (adult titles hidden).
  // Arranging a state spends live requests too: counted and refused like the fixtures' (LIVE_REQUEST_BUDGET).
  const api = liveMediaProvider(config, harnessConfig().target).client();
  const skip = (reason: string) => async () => unavailable(reason);
  const seedOnly = (what: string) =>
    skip(`${what} is named by the twin's seed; which real titles are adult-flagged is not known to the harness, so the twin verifies this interaction`);
  return {
    name: 'live media service',
    kind: 'live',
    baseUrl: config.apiUrl.slice(0, -MEDIA_CONTRACT.edgePrefix.length),
    vocabulary: MEDIA_VOCABULARY,
    states: {
      ...lookups(api),
      [MEDIA_STATES.adultAnime]: seedOnly('the adult title'),
      [MEDIA_STATES.adultManga]: seedOnly('the adult title'),
      [MEDIA_STATES.adultLibraryEntry]: seedOnly("the library entry's adult title"),
      [MEDIA_STATES.userLibrary]: skip("it changes a real user's library entries, which the pact names by id; the twin verifies this interaction"),
      [MEDIA_STATES.groupInvites]: skip('pending invites cannot be arranged on a real group; the twin verifies this interaction'),
      [MEDIA_STATES.pendingInvite]: skip(
        'a pending group invite to the signed-in user cannot be arranged on a real service; the twin verifies this interaction',
      ),
      [MEDIA_STATES.signedIn]: async () =>
        config.token
          ? { headers: { authorization: `Bearer ${config.token}` } }
          : unavailable('no account: set KITSU_ACCESS_TOKEN to verify signed-in interactions on live'),
    },
  };
}
