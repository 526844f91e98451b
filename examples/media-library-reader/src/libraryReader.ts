/**
 * A media library reader, written as an integration team would: on the `kitsu`
 * npm client, not the harness's. It lists a user's anime library entries with the
 * title of each entry's anime, asking only for the fields it shows (sparse
 * fieldsets), and looks a title up by its slug.
 */
import Kitsu from 'kitsu';

export interface ReaderOptions {
  /** e.g. https://kitsu.io/api/edge */
  readonly baseURL: string;
  /** An OAuth access token; without one, what an anonymous visitor sees. */
  readonly token?: string;
}

export interface ShelfItem {
  readonly title: string;
  readonly status: string;
  readonly progress: number;
  readonly episodes: number | null;
}

interface Entry {
  status: string;
  progress: number;
  anime?: { data?: { canonicalTitle?: string; episodeCount?: number | null } | null };
}

function client(options: ReaderOptions): Kitsu {
  return new Kitsu({ baseURL: options.baseURL, headers: options.token ? { Authorization: `Bearer ${options.token}` } : {} });
}

/** The first page of a user's library, each entry with its anime's title (the entries whose anime is hidden keep "(hidden)"). */
export async function readShelf(options: ReaderOptions & { userId: string; limit?: number }): Promise<ShelfItem[]> {
  const answer = (await client(options).get('libraryEntries', {
    params: {
      // Anime entries only: a manga entry's anime is null (the first verification against the twin showed it).
      filter: { userId: options.userId, kind: 'anime' },
      include: 'anime',
      fields: { libraryEntries: 'status,progress,anime', anime: 'canonicalTitle,episodeCount' },
      page: { limit: options.limit ?? 20 },
    },
  })) as unknown as { data: Entry[] };
  return answer.data.map((entry) => ({
    title: entry.anime?.data?.canonicalTitle ?? '(hidden)',
    status: entry.status,
    progress: entry.progress,
    episodes: entry.anime?.data?.episodeCount ?? null,
  }));
}

/** The anime with this slug, by its title and id; undefined when there is none. */
export async function findBySlug(options: ReaderOptions & { slug: string }): Promise<{ id: string; title: string } | undefined> {
  const answer = (await client(options).get('anime', {
    params: { filter: { slug: options.slug }, fields: { anime: 'slug,canonicalTitle' } },
  })) as unknown as { data: { id: string; canonicalTitle: string }[] };
  const [first] = answer.data;
  return first ? { id: first.id, title: first.canonicalTitle } : undefined;
}
