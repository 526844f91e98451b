/**
 * The one state-handler table of the media pacts, per target. On the twin
 * every state starts from the seed (a reset), which already holds what the
 * states name (src/twins/media/seedFacts.ts): the handler checks that, and
 * signs in as the user a state needs. On live, states read off the real
 * catalogue are checked there; states that name the twin's seed, or change a
 * real user's data, are skipped with the reason.
 */
import { harnessConfig, type LiveMediaConfig, type TwinMediaConfig } from '../../src/config/harnessConfig.ts';
import { liveMediaProvider, twinMediaProvider } from '../../src/providers/media/mediaProvider.ts';
import { MEDIA_CONTRACT } from '../../src/rules/mediaContract.ts';
import { MEDIA_SEED } from '../../src/twins/media/seedFacts.ts';
import { unavailable, type Arrange, type Arranged, type ProviderTarget } from '../verification/providerTarget.ts';

/** The states the media pacts name: one source for the consumer tests and this table. */
export const MEDIA_STATES = {
  tvAnime: 'the catalogue has {count} TV anime',
  animeExists: 'anime {id} exists',
  adultAnime: 'anime {id} is adult-flagged',
  adultLibraryEntry: 'library entry {id} is on an adult anime',
  userLibrary: 'user {userId} has library entries {ids}',
  pendingInvite: 'invite {inviteId} is pending for user {userId}',
} as const;

const SEED_USERS = Object.values(MEDIA_SEED.users);
const includes = (list: readonly string[], value: unknown) => list.includes(String(value));

export function mediaTwinTarget(config: TwinMediaConfig): ProviderTarget {
  const provider = twinMediaProvider(config, 'mock');
  const control = provider.control!;
  /** Resets to the seed and checks it holds what the state names; `as` signs in as that seeded user. */
  const fromSeed =
    (holds: (params: Record<string, unknown>) => boolean, as?: (params: Record<string, unknown>) => unknown): Arrange =>
    async (params) => {
      await control.reset();
      if (!holds(params))
        throw new Error(`the media twin's seed does not hold ${JSON.stringify(params)}: fix the pact's state parameters or src/twins/media/seedFacts.ts`);
      if (!as) return {};
      const user = SEED_USERS.find((u) => u.id === String(as(params)));
      if (!user) throw new Error(`no seeded user ${String(as(params))} to sign in as (src/twins/media/seedFacts.ts)`);
      const { access_token } = await provider.client().token({ username: user.email, password: user.password });
      return { headers: { authorization: `Bearer ${access_token}` } } satisfies Arranged;
    };
  return {
    name: 'media twin',
    baseUrl: config.twinUrl,
    states: {
      [MEDIA_STATES.tvAnime]: fromSeed(() => true),
      [MEDIA_STATES.animeExists]: fromSeed(({ id }) => Number(id) <= MEDIA_SEED.animeCount && !includes(MEDIA_SEED.adultAnimeIds, id)),
      [MEDIA_STATES.adultAnime]: fromSeed(({ id }) => includes(MEDIA_SEED.adultAnimeIds, id)),
      [MEDIA_STATES.adultLibraryEntry]: fromSeed(({ id }) => MEDIA_SEED.adultLibraryEntry.id === String(id)),
      [MEDIA_STATES.userLibrary]: fromSeed(
        ({ userId, ids }) =>
          userId === MEDIA_SEED.adultLibraryEntry.userId &&
          String(ids)
            .split(',')
            .every((id) => includes(MEDIA_SEED.aliceLibraryEntryIds, id)),
        ({ userId }) => userId,
      ),
      [MEDIA_STATES.pendingInvite]: fromSeed(
        ({ inviteId, userId }) => includes(MEDIA_SEED.pendingInviteIds, inviteId) && userId === MEDIA_SEED.users.other.id,
        ({ userId }) => userId,
      ),
    },
  };
}

export function mediaLiveTarget(config: LiveMediaConfig): ProviderTarget {
  // Anonymous on purpose: the pacts' reads are what an anonymous integration sees (adult titles hidden).
  // Arranging a state spends live requests too: counted and refused like the fixtures' (LIVE_REQUEST_BUDGET).
  const api = liveMediaProvider(config, harnessConfig().target).client();
  const seedOnly = (what: string) => async () =>
    unavailable(`${what} is named by the twin's seed; which real titles are adult-flagged is not known to the harness, so the twin verifies this interaction`);
  return {
    name: 'live media service',
    baseUrl: config.apiUrl.slice(0, -MEDIA_CONTRACT.edgePrefix.length),
    states: {
      [MEDIA_STATES.tvAnime]: async ({ count }) => {
        const found = Number((await api.list('anime', { filter: { subtype: 'TV' }, page: { limit: 1 } })).meta['count'] ?? 0);
        return found >= Number(count) ? {} : unavailable(`the catalogue has ${found} TV anime and the pact needs ${count}`);
      },
      [MEDIA_STATES.animeExists]: async ({ id }) =>
        (await api.send({ method: 'GET', path: `/anime/${encodeURIComponent(String(id))}` })).status === 200
          ? {}
          : unavailable(`anime ${String(id)} is not served anonymously`),
      [MEDIA_STATES.adultAnime]: seedOnly('the adult title'),
      [MEDIA_STATES.adultLibraryEntry]: seedOnly("the library entry's adult title"),
      [MEDIA_STATES.userLibrary]: async () =>
        unavailable("it changes a real user's library entries, which the pact names by id; the twin verifies this interaction"),
      [MEDIA_STATES.pendingInvite]: async () =>
        unavailable('a pending group invite to the signed-in user cannot be arranged on a real service; the twin verifies this interaction'),
    },
  };
}
