/**
 * Where a media property runs. On the twin target each worker starts its own
 * media twin in this process (free port, virtual clock), so the media suites'
 * resets and writes on the shared twin cannot change a collection in the
 * middle of a walk; a twin-break test builds the same arena on a twin started
 * with a break. On live the configured service is read as it is, anonymously
 * or with the configured token, within a request budget.
 */
import { MediaClient } from '../../src/clients/media/MediaClient.ts';
import { harnessConfig, type LiveMediaConfig } from '../../src/config/harnessConfig.ts';
import { liveMediaProvider, twinMediaProvider } from '../../src/providers/media/mediaProvider.ts';
import { MEDIA_CONTRACT } from '../../src/rules/mediaContract.ts';
import { startMediaTwin, type MediaTwinOptions } from '../../src/twins/media/server.ts';
import { MEDIA_SEED } from '../../src/twins/media/seedFacts.ts';

const USER_AGENT = 'api-contract-harness properties (https://example.invalid/api-contract-harness)';

/** One collection a pagination property walks: a path under /api/edge and the client's other parameters. */
export interface PagedCollection {
  /** Short name for reports: `anime?filter[subtype]=TV`. */
  readonly label: string;
  /** Under the base: `/anime`, `/anime/1/episodes`. */
  readonly path: string;
  /** filter, sort, include, fields as written (`filter[subtype]`: `TV`); never page parameters. */
  readonly params: Readonly<Record<string, string>>;
  /** The largest page[limit] served; undefined for an unpaginated collection (no maximum, everything by default). */
  readonly maxLimit: number | undefined;
}

export interface MediaArena {
  readonly kind: 'twin' | 'live';
  /** Ends with /api/edge. */
  readonly apiUrl: string;
  /** Collections to page through, with sizes from 0 up (the twin's seed; small ones on live). */
  readonly collections: readonly PagedCollection[];
  /** An unretried client, so what the provider says is seen: anonymous, or with the configured token on live. */
  client(): MediaClient;
  /** Twin only: a client signed in as a seeded user. */
  signIn?(user: keyof typeof MEDIA_SEED.users): Promise<MediaClient>;
  /** Twin only: back to the seed (every write undone, every token revoked). */
  reset?(): Promise<void>;
}

/** The paging limits of a collection by its dasherized name, from the contract's numbers. */
export function pagedCollection(label: string, path: string, collection: string, params: Record<string, string> = {}): PagedCollection {
  const maxLimit = MEDIA_CONTRACT.unpaginatedCollections.includes(collection)
    ? undefined
    : (MEDIA_CONTRACT.maxLimitByCollection[collection] ?? MEDIA_CONTRACT.maxLimit);
  return { label, path, params, maxLimit };
}

/** Seeded collections of many sizes (anonymous counts): 0, 1, 4, 6 (twice), 7, 10, 12 (twice), 20, 24, 42 (twice). */
export const TWIN_COLLECTIONS: readonly PagedCollection[] = [
  pagedCollection('anime', '/anime', 'anime'),
  pagedCollection('anime?sort=-averageRating,startDate', '/anime', 'anime', { sort: '-averageRating,startDate' }),
  pagedCollection('anime?filter[subtype]=TV', '/anime', 'anime', { 'filter[subtype]': 'TV' }),
  pagedCollection('anime?filter[subtype]=movie&include=categories', '/anime', 'anime', { 'filter[subtype]': 'movie', include: 'categories' }),
  pagedCollection('anime?filter[status]=current', '/anime', 'anime', { 'filter[status]': 'current' }),
  pagedCollection('anime?filter[text]=no such title', '/anime', 'anime', { 'filter[text]': 'no such title' }),
  pagedCollection('anime?filter[ageRating]=R&fields[anime]=slug,titles', '/anime', 'anime', { 'filter[ageRating]': 'R', 'fields[anime]': 'slug,titles' }),
  pagedCollection('manga', '/manga', 'manga'),
  pagedCollection(`anime/${MEDIA_SEED.animeWithEpisodes.id}/episodes`, `/anime/${MEDIA_SEED.animeWithEpisodes.id}/episodes`, 'episodes'),
  pagedCollection('anime/2/episodes', '/anime/2/episodes', 'episodes'),
  pagedCollection(`library-entries?filter[userId]=${MEDIA_SEED.users.adultAllowed.id}`, '/library-entries', 'library-entries', {
    'filter[userId]': MEDIA_SEED.users.adultAllowed.id,
  }),
  pagedCollection('library-entries?filter[status]=current', '/library-entries', 'library-entries', { 'filter[status]': 'current' }),
  pagedCollection('categories', '/categories', 'categories'),
  pagedCollection('streamers', '/streamers', 'streamers'),
];

/**
 * Small collections of the real service (ids and slugs of its long-standing
 * catalogue): each is read whole for the reference in a few requests, so the
 * budget goes to the walks. A size that turns out larger only costs budget.
 */
export const LIVE_COLLECTIONS: readonly PagedCollection[] = [
  pagedCollection('anime?filter[slug]=cowboy-bebop', '/anime', 'anime', { 'filter[slug]': 'cowboy-bebop' }),
  pagedCollection('anime?filter[slug]=(none)', '/anime', 'anime', { 'filter[slug]': 'no-such-title-api-contract-harness' }),
  pagedCollection('anime/1/episodes', '/anime/1/episodes', 'episodes'),
  pagedCollection('anime/1/streaming-links', '/anime/1/streaming-links', 'streaming-links'),
  pagedCollection('anime?filter[seasonYear]=1998&filter[subtype]=movie', '/anime', 'anime', { 'filter[seasonYear]': '1998', 'filter[subtype]': 'movie' }),
];

/** Clients never retry, so every answer is seen. */
const UNRETRIED = { retry: { maxRetries: 0 } } as const;

/** A media twin at `twinUrl` (its origin), which this arena may reset and write to. */
export function twinMediaArena(twinUrl: string, collections: readonly PagedCollection[] = TWIN_COLLECTIONS): MediaArena {
  const apiUrl = `${twinUrl}${MEDIA_CONTRACT.edgePrefix}`;
  const provider = twinMediaProvider({ twinUrl, apiUrl }, 'twin', { userAgent: USER_AGENT });
  return {
    kind: 'twin',
    apiUrl,
    collections,
    client: () => provider.client(UNRETRIED),
    signIn: async (user) => {
      const { email, password } = MEDIA_SEED.users[user];
      const client = provider.client(UNRETRIED);
      await client.token({ username: email, password });
      return client;
    },
    reset: async () => void (await provider.control!.reset()),
  };
}

/** The configured live service: read as it is, through the worker's guard like the suites' clients. */
export function liveMediaArena(config: LiveMediaConfig, collections: readonly PagedCollection[] = LIVE_COLLECTIONS): MediaArena {
  const provider = liveMediaProvider(config, harnessConfig().target);
  return {
    kind: 'live',
    apiUrl: config.apiUrl,
    collections,
    client: () => provider.client({ ...UNRETRIED, ...(config.token ? { token: config.token } : {}) }),
  };
}

export interface OpenMediaArena {
  readonly arena: MediaArena;
  close(): Promise<void>;
}

/** The arena of the configured target: on the twin target a media twin of its own, started here. */
export async function openMediaArena(twinOptions: Omit<MediaTwinOptions, 'port' | 'clock'> = {}): Promise<OpenMediaArena> {
  const { media } = harnessConfig();
  if (media.mode === 'live') return { arena: liveMediaArena(media), close: async () => undefined };
  if (media.mode === 'off') throw new Error(`openMediaArena: ${media.reason}`);
  const twin = await startMediaTwin({ ...twinOptions, port: 0, clock: 'virtual' });
  return { arena: twinMediaArena(twin.url), close: () => twin.close() };
}
