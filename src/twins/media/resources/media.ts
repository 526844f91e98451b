/**
 * Anime and manga: the Media base they share, the episodic base, and their
 * relationships, taken from the spec's tables (src/rules/mediaRoutes.ts).
 */
import { DEPRECATED_RELATIONSHIPS, MEDIA_RELATIONSHIPS, deprecatedRelationshipsOn } from '../../../rules/mediaRoutes.ts';
import type { MediaRecord } from '../model.ts';
import { storedMany } from '../model.ts';
import { foldText } from '../../../text/foldText.ts';
import {
  SLUGGABLE,
  attr,
  defineResource,
  filter,
  isAdult,
  policies,
  rel,
  type FilterSpec,
  type RelationshipSpec,
  type ResourceBase,
  type ResourceDefinition,
  type PolicyCheck,
} from './define.ts';

export const AGE_RATINGS = ['G', 'PG', 'R', 'R18'] as const;
export const MEDIA_STATUSES = ['tba', 'unreleased', 'upcoming', 'current', 'finished'] as const;
export const ANIME_SUBTYPES = ['TV', 'special', 'OVA', 'ONA', 'movie', 'music'] as const;
export const MANGA_SUBTYPES = ['doujin', 'manga', 'manhua', 'manhwa', 'novel', 'oel', 'oneshot'] as const;
export const SEASONS = ['winter', 'spring', 'summer', 'fall'] as const;

/**
 * Where each relationship of the spec's table points, and how it is read:
 * the presence of each name comes from MEDIA_RELATIONSHIPS, only the target
 * and the inverse are stated here.
 */
// media.relationships.table
const MEDIA_RELATIONSHIP_SPECS: Readonly<Record<string, RelationshipSpec>> = {
  categories: rel.many('categories', { write: 'always' }),
  mappings: rel.inverse('mappings', 'item'),
  mediaRelationships: rel.inverse('mediaRelationships', 'source'),
  characters: rel.inverse('mediaCharacters', 'media'),
  staff: rel.inverse('mediaStaff', 'media'),
  productions: rel.inverse('mediaProductions', 'media'),
  quotes: rel.inverse('quotes', 'media'),
  chapters: rel.inverse('chapters', 'manga'),
  streamingLinks: rel.inverse('streamingLinks', 'media'),
  episodes: rel.inverse('episodes', 'media'),
  // media.relationships.episode-media: an episode's media is its anime.
  media: rel.one('anime', { write: 'create', required: true }),
  videos: rel.inverse('videos', 'episode'),
};

for (const name of Object.keys(MEDIA_RELATIONSHIPS)) {
  if (!MEDIA_RELATIONSHIP_SPECS[name]) throw new Error(`media twin: relationship ${name} of MEDIA_RELATIONSHIPS has no target in resources/media.ts`);
}

/** The relationships of the spec's table present on a collection, in the table's order. */
export function tableRelationshipsOf(collection: string): Record<string, RelationshipSpec> {
  const found: Record<string, RelationshipSpec> = {};
  for (const [name, presentOn] of Object.entries(MEDIA_RELATIONSHIPS)) {
    const spec = MEDIA_RELATIONSHIP_SPECS[name];
    if (spec && presentOn.includes(collection)) found[name] = spec;
  }
  return found;
}

/**
 * The deprecated relationships a media kind keeps (media.relationships.deprecated-marked): the rules' list for the
 * kind (deprecatedRelationshipsOn), each marked with what replaced it.
 */
export function deprecatedRelationshipsOf(kind: 'anime' | 'manga'): Record<string, RelationshipSpec> {
  return Object.fromEntries(deprecatedRelationshipsOn(kind).map((name) => [name, rel.deprecated(DEPRECATED_RELATIONSHIPS[name] ?? null)]));
}

/**
 * Adult media are hidden from anonymous viewers and from users whose sfwFilter is on (spec, "Visibility"):
 * a direct read is 404 (media.visibility.adult-direct-404) and lists leave them out
 * (media.visibility.adult-hidden-from-lists); a user who allows adult content sees them
 * (media.visibility.adult-visible-signed-in).
 */
export const adultGate: PolicyCheck = (viewer, record) => !(viewer.hidesAdult && isAdult(record));

function startYear(record: MediaRecord): number | undefined {
  const date = record.attributes['startDate'];
  return typeof date === 'string' && /^\d{4}/.test(date) ? Number(date.slice(0, 4)) : undefined;
}

/** Kitsu's seasons: December counts as winter of the next year. */
export function seasonOf(record: MediaRecord): { season: (typeof SEASONS)[number]; year: number } | undefined {
  const date = record.attributes['startDate'];
  if (typeof date !== 'string' || !/^\d{4}-\d{2}/.test(date)) return undefined;
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  if (month === 12) return { season: 'winter', year: year + 1 };
  const season = month <= 2 ? 'winter' : month <= 5 ? 'spring' : month <= 8 ? 'summer' : 'fall';
  return { season, year };
}

function titleTexts(record: MediaRecord): unknown[] {
  const titles = record.attributes['titles'];
  const abbreviated = record.attributes['abbreviatedTitles'];
  return [
    ...(titles && typeof titles === 'object' ? Object.values(titles) : []),
    record.attributes['canonicalTitle'],
    ...(Array.isArray(abbreviated) ? abbreviated : []),
    record.attributes['synopsis'],
  ];
}

/** `filter[categories]=action,comedy`: media in every named category (slug or title). */
const categoriesFilter: FilterSpec = {
  values: 'other',
  match: (record, tokens, { state }) => {
    const slugs = storedMany(record, 'categories').flatMap((ref) => {
      const category = state.get(ref.type, ref.id);
      return category ? [foldText(String(category.attributes['slug'])), foldText(String(category.attributes['title']))] : [];
    });
    return tokens.every((token) => token !== null && slugs.includes(foldText(token)));
  },
};

/** `filter[streamers]=Crunchyroll`: anime with a streaming link on a named streamer. */
const streamersFilter: FilterSpec = {
  values: 'other',
  match: (record, tokens, { state }) => {
    const names = state
      .all('streamingLinks')
      .filter((link) => {
        const media = link.links['media'];
        return media && !Array.isArray(media) && media.type === record.type && media.id === record.id;
      })
      .flatMap((link) => {
        const streamer = link.links['streamer'];
        const found = streamer && !Array.isArray(streamer) ? state.get(streamer.type, streamer.id) : undefined;
        return found ? [foldText(String(found.attributes['siteName']))] : [];
      });
    return tokens.some((token) => token !== null && names.includes(foldText(token)));
  },
};

/** Attributes and filters anime and manga share (field notes, "Resources"). */
export const MEDIA_BASE: ResourceBase = {
  attributes: {
    synopsis: attr.string({ write: 'always' }),
    description: attr.string({ write: 'always' }),
    coverImageTopOffset: attr.integer({ write: 'always', min: 0, default: 0 }),
    titles: attr.object({ write: 'always', default: {} }),
    canonicalTitle: attr.string({ write: 'always', required: true, maxLength: 500, sortable: true }),
    abbreviatedTitles: attr.strings({ write: 'always', default: [] }),
    averageRating: attr.decimal({ sortable: true }),
    ratingFrequencies: attr.object({ default: {} }),
    userCount: attr.integer({ sortable: true, default: 0 }),
    favoritesCount: attr.integer({ sortable: true, default: 0 }),
    startDate: attr.date({ write: 'always', sortable: true }),
    endDate: attr.date({ write: 'always', sortable: true }),
    nextRelease: attr.datetime({ write: 'always' }),
    popularityRank: attr.integer({ sortable: true }),
    ratingRank: attr.integer({ sortable: true }),
    ageRating: attr.enum(AGE_RATINGS, { write: 'always' }),
    ageRatingGuide: attr.string({ write: 'always' }),
    subtype: attr.string({ write: 'always' }),
    status: attr.enum(MEDIA_STATUSES, { default: 'tba' }),
    tba: attr.string({ write: 'always' }),
    posterImage: attr.object({ write: 'always' }),
    coverImage: attr.object({ write: 'always' }),
  },
  filters: {
    text: filter.text(titleTexts),
    status: filter.attribute('status', MEDIA_STATUSES),
    ageRating: filter.attribute('ageRating', AGE_RATINGS),
    categories: categoriesFilter,
    season: {
      values: 'other',
      accepts: (token) => (SEASONS as readonly string[]).includes(token),
      match: (record, tokens) => tokens.some((token) => seasonOf(record)?.season === token),
    },
    seasonYear: filter.range((record) => seasonOf(record)?.year),
    year: filter.range(startYear),
    averageRating: filter.range('averageRating'),
    userCount: filter.range('userCount'),
  },
};

/** The episodic base: unit counts and their relationship (episodes for anime, chapters for manga). */
function episodic(kind: 'anime' | 'manga'): ResourceBase {
  if (kind === 'anime') {
    return {
      attributes: {
        episodeCount: attr.integer({ write: 'always', min: 0, sortable: true }),
        episodeLength: attr.integer({ write: 'always', min: 0, sortable: true }),
        totalLength: attr.integer({
          compute: (record) => {
            const count = record.attributes['episodeCount'];
            const length = record.attributes['episodeLength'];
            return typeof count === 'number' && typeof length === 'number' ? count * length : null;
          },
        }),
      },
      filters: { episodeCount: filter.range('episodeCount'), episodeLength: filter.range('episodeLength') },
    };
  }
  return {
    attributes: {
      chapterCount: attr.integer({ write: 'always', min: 0, sortable: true }),
      volumeCount: attr.integer({ write: 'always', min: 0, sortable: true }),
    },
    filters: { chapterCount: filter.range('chapterCount'), volumeCount: filter.range('volumeCount') },
  };
}

export const ANIME: ResourceDefinition = defineResource({
  collection: 'anime',
  type: 'anime',
  singular: 'anime',
  routes: 'standard',
  bases: [SLUGGABLE, MEDIA_BASE, episodic('anime')],
  attributes: {
    subtype: attr.enum(ANIME_SUBTYPES, { write: 'always', default: 'TV' }),
    youtubeVideoId: attr.string({ write: 'always', default: '' }),
    showType: attr.string({ compute: (record) => record.attributes['subtype'] ?? null }),
    nsfw: attr.boolean({ compute: isAdult }),
  },
  relationships: { ...tableRelationshipsOf('anime'), ...deprecatedRelationshipsOf('anime') },
  filters: { subtype: filter.attribute('subtype', ANIME_SUBTYPES), streamers: streamersFilter },
  policy: policies.catalogue(adultGate),
});

export const MANGA: ResourceDefinition = defineResource({
  collection: 'manga',
  type: 'manga',
  singular: 'manga',
  routes: 'standard',
  bases: [SLUGGABLE, MEDIA_BASE, episodic('manga')],
  attributes: {
    subtype: attr.enum(MANGA_SUBTYPES, { write: 'always', default: 'manga' }),
    serialization: attr.string({ write: 'always' }),
    mangaType: attr.string({ compute: (record) => record.attributes['subtype'] ?? null }),
  },
  relationships: { ...tableRelationshipsOf('manga'), ...deprecatedRelationshipsOf('manga') },
  filters: { subtype: filter.attribute('subtype', MANGA_SUBTYPES) },
  policy: policies.catalogue(adultGate),
});

/** A record about a media item (an episode, a streaming link) is hidden with that media. */
export function linkedMediaVisible(relationship: string): PolicyCheck {
  return (viewer, record, state) => {
    if (!viewer.hidesAdult) return true;
    const target = record.links[relationship];
    if (!target || Array.isArray(target)) return true;
    const media = state.get(target.type, target.id);
    return media === undefined || !isAdult(media);
  };
}
