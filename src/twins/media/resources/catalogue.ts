/**
 * The catalogue around anime and manga: units, categories, characters, people,
 * companies, streaming and external mappings. Admins write; everyone reads,
 * except what belongs to adult media for viewers who hide it.
 */
import { refOf, storedMany } from '../model.ts';
import { SLUGGABLE, attr, defineResource, filter, policies, rel, type ResourceDefinition } from './define.ts';
import { linkedMediaVisible, tableRelationshipsOf } from './media.ts';

const MEDIA_TYPES = ['anime', 'manga'] as const;

export const EPISODES: ResourceDefinition = defineResource({
  collection: 'episodes',
  type: 'episodes',
  singular: 'episode',
  routes: 'standard',
  attributes: {
    synopsis: attr.string({ write: 'always' }),
    description: attr.string({ write: 'always' }),
    titles: attr.object({ write: 'always', default: {} }),
    canonicalTitle: attr.string({ write: 'always', maxLength: 500 }),
    seasonNumber: attr.integer({ write: 'always', min: 0, sortable: true }),
    number: attr.integer({ write: 'always', required: true, min: 0, sortable: true }),
    relativeNumber: attr.integer({ write: 'always', min: 0 }),
    airdate: attr.date({ write: 'always', sortable: true }),
    length: attr.integer({ write: 'always', min: 0 }),
    thumbnail: attr.object({ write: 'always' }),
  },
  relationships: tableRelationshipsOf('episodes'),
  filters: {
    mediaId: filter.ref('media'),
    media: filter.ref('media'),
    number: filter.range('number'),
    seasonNumber: filter.range('seasonNumber'),
  },
  policy: policies.catalogue(linkedMediaVisible('media')),
});

export const CHAPTERS: ResourceDefinition = defineResource({
  collection: 'chapters',
  type: 'chapters',
  singular: 'chapter',
  routes: 'standard',
  attributes: {
    synopsis: attr.string({ write: 'always' }),
    description: attr.string({ write: 'always' }),
    titles: attr.object({ write: 'always', default: {} }),
    canonicalTitle: attr.string({ write: 'always', maxLength: 500 }),
    volumeNumber: attr.integer({ write: 'always', min: 0, sortable: true }),
    number: attr.integer({ write: 'always', required: true, min: 0, sortable: true }),
    published: attr.date({ write: 'always', sortable: true }),
    length: attr.integer({ write: 'always', min: 0 }),
    thumbnail: attr.object({ write: 'always' }),
  },
  relationships: { manga: rel.one('manga', { write: 'create', required: true }) },
  filters: { mangaId: filter.ref('manga'), manga: filter.ref('manga'), number: filter.range('number'), volumeNumber: filter.range('volumeNumber') },
  policy: policies.catalogue(linkedMediaVisible('manga')),
});

/** Media that list a category among their `categories`. */
function mediaInCategory(type: 'anime' | 'manga') {
  return rel.many(type, {
    resolve: (record, state) =>
      state
        .all(type)
        .filter((media) => storedMany(media, 'categories').some((ref) => ref.type === record.type && ref.id === record.id))
        .map(refOf),
  });
}

export const CATEGORIES: ResourceDefinition = defineResource({
  collection: 'categories',
  type: 'categories',
  singular: 'category',
  routes: 'standard',
  bases: [SLUGGABLE],
  attributes: {
    title: attr.string({ write: 'always', required: true, maxLength: 200, sortable: true }),
    description: attr.string({ write: 'always' }),
    totalMediaCount: attr.integer({
      sortable: true,
      compute: (record, state) =>
        [...state.all('anime'), ...state.all('manga')].filter((media) => storedMany(media, 'categories').some((ref) => ref.id === record.id)).length,
    }),
    nsfw: attr.boolean({ write: 'always', default: false }),
    childCount: attr.integer({
      sortable: true,
      compute: (record, state) => state.all('categories').filter((other) => (other.links['parent'] as { id?: string } | null)?.id === record.id).length,
    }),
    image: attr.object({ write: 'always' }),
  },
  relationships: {
    parent: rel.one('categories', { write: 'always' }),
    anime: mediaInCategory('anime'),
    manga: mediaInCategory('manga'),
  },
  filters: { parentId: filter.ref('parent'), parent: filter.ref('parent'), nsfw: filter.boolean('nsfw'), title: filter.attribute('title') },
  policy: policies.catalogue(),
});

export const CHARACTERS: ResourceDefinition = defineResource({
  collection: 'characters',
  type: 'characters',
  singular: 'character',
  routes: 'standard',
  bases: [SLUGGABLE],
  attributes: {
    names: attr.object({ write: 'always', default: {} }),
    canonicalName: attr.string({ write: 'always', required: true, maxLength: 300, sortable: true }),
    otherNames: attr.strings({ write: 'always', default: [] }),
    name: attr.string({ compute: (record) => record.attributes['canonicalName'] ?? null }),
    malId: attr.integer({ write: 'always' }),
    description: attr.string({ write: 'always' }),
    image: attr.object({ write: 'always' }),
  },
  relationships: {
    primaryMedia: rel.one(MEDIA_TYPES, { write: 'always' }),
    mediaCharacters: rel.inverse('mediaCharacters', 'character'),
  },
  filters: {
    name: filter.text((record) => [record.attributes['canonicalName'], ...Object.values((record.attributes['names'] as object | null) ?? {})]),
  },
  policy: policies.catalogue(),
});

export const PEOPLE: ResourceDefinition = defineResource({
  collection: 'people',
  type: 'people',
  singular: 'person',
  routes: 'standard',
  bases: [SLUGGABLE],
  attributes: {
    names: attr.object({ write: 'always', default: {} }),
    canonicalName: attr.string({ write: 'always', required: true, maxLength: 300, sortable: true }),
    otherNames: attr.strings({ write: 'always', default: [] }),
    name: attr.string({ compute: (record) => record.attributes['canonicalName'] ?? null }),
    malId: attr.integer({ write: 'always' }),
    description: attr.string({ write: 'always' }),
    birthday: attr.date({ write: 'always' }),
    image: attr.object({ write: 'always' }),
  },
  relationships: {
    staff: rel.inverse('mediaStaff', 'person'),
    voices: rel.inverse('characterVoices', 'person'),
    castings: rel.deprecated('staff'),
  },
  filters: { name: filter.text((record) => [record.attributes['canonicalName'], ...Object.values((record.attributes['names'] as object | null) ?? {})]) },
  policy: policies.catalogue(),
});

export const PRODUCERS: ResourceDefinition = defineResource({
  collection: 'producers',
  type: 'producers',
  singular: 'producer',
  routes: 'standard',
  bases: [SLUGGABLE],
  attributes: { name: attr.string({ write: 'always', required: true, maxLength: 300, sortable: true }) },
  relationships: { mediaProductions: rel.inverse('mediaProductions', 'company') },
  filters: { name: filter.text((record) => [record.attributes['name']]) },
  policy: policies.catalogue(),
});

export const STREAMERS: ResourceDefinition = defineResource({
  collection: 'streamers',
  type: 'streamers',
  singular: 'streamer',
  routes: 'standard',
  attributes: {
    siteName: attr.string({ write: 'always', required: true, maxLength: 200, sortable: true }),
    logo: attr.object({ write: 'always' }),
    streamingLinksCount: attr.integer({
      compute: (record, state) => state.all('streamingLinks').filter((link) => (link.links['streamer'] as { id?: string } | null)?.id === record.id).length,
    }),
  },
  relationships: { streamingLinks: rel.inverse('streamingLinks', 'streamer') },
  filters: { siteName: filter.attribute('siteName') },
  policy: policies.catalogue(),
});

export const STREAMING_LINKS: ResourceDefinition = defineResource({
  collection: 'streaming-links',
  type: 'streamingLinks',
  singular: 'streaming link',
  routes: 'standard',
  attributes: {
    url: attr.string({ write: 'always', required: true, maxLength: 2000 }),
    subs: attr.strings({ write: 'always', default: [] }),
    dubs: attr.strings({ write: 'always', default: [] }),
  },
  relationships: {
    streamer: rel.one('streamers', { write: 'always', required: true }),
    media: rel.one(MEDIA_TYPES, { write: 'always', required: true }),
  },
  filters: {
    mediaId: filter.ref('media'),
    mediaType: filter.refType('media', MEDIA_TYPES),
    streamerId: filter.ref('streamer'),
    streamer: filter.ref('streamer'),
  },
  policy: policies.catalogue(linkedMediaVisible('media')),
});

export const MAPPINGS: ResourceDefinition = defineResource({
  collection: 'mappings',
  type: 'mappings',
  singular: 'mapping',
  routes: 'standard',
  attributes: {
    externalSite: attr.string({ write: 'always', required: true, maxLength: 100 }),
    externalId: attr.string({ write: 'always', required: true, maxLength: 100 }),
  },
  relationships: { item: rel.one([...MEDIA_TYPES, 'characters', 'people', 'producers', 'episodes'], { write: 'always', required: true }) },
  filters: {
    externalSite: filter.attribute('externalSite'),
    externalId: filter.attribute('externalId'),
    itemId: filter.ref('item'),
    itemType: filter.refType('item', MEDIA_TYPES),
  },
  policy: policies.catalogue(linkedMediaVisible('item')),
});

// Types the spec names that media relationships point at; served read-only so their links resolve.

export const MEDIA_RELATIONSHIP_ROLES = [
  'sequel',
  'prequel',
  'alternative_setting',
  'alternative_version',
  'side_story',
  'parent_story',
  'summary',
  'full_story',
  'spinoff',
  'adaptation',
  'character',
  'other',
] as const;

export const MEDIA_RELATIONSHIP_RESOURCES: ResourceDefinition = defineResource({
  collection: 'media-relationships',
  type: 'mediaRelationships',
  singular: 'media relationship',
  routes: 'read-only',
  attributes: { role: attr.enum(MEDIA_RELATIONSHIP_ROLES) },
  relationships: { source: rel.one(MEDIA_TYPES), destination: rel.one(MEDIA_TYPES) },
  filters: {
    sourceId: filter.ref('source'),
    sourceType: filter.refType('source', MEDIA_TYPES),
    destinationId: filter.ref('destination'),
    role: filter.attribute('role', MEDIA_RELATIONSHIP_ROLES),
  },
  policy: policies.readOnly(linkedMediaVisible('source')),
});

export const MEDIA_CHARACTERS: ResourceDefinition = defineResource({
  collection: 'media-characters',
  type: 'mediaCharacters',
  singular: 'media character',
  routes: 'read-only',
  attributes: { role: attr.enum(['main', 'supporting'] as const) },
  relationships: {
    media: rel.one(MEDIA_TYPES),
    character: rel.one('characters'),
    voices: rel.inverse('characterVoices', 'mediaCharacter'),
  },
  filters: {
    mediaId: filter.ref('media'),
    mediaType: filter.refType('media', MEDIA_TYPES),
    characterId: filter.ref('character'),
    role: filter.attribute('role'),
  },
  policy: policies.readOnly(linkedMediaVisible('media')),
});

export const CHARACTER_VOICES: ResourceDefinition = defineResource({
  collection: 'character-voices',
  type: 'characterVoices',
  singular: 'character voice',
  routes: 'read-only',
  attributes: { locale: attr.string() },
  relationships: { mediaCharacter: rel.one('mediaCharacters'), person: rel.one('people'), licensor: rel.one('producers') },
  filters: { locale: filter.attribute('locale'), personId: filter.ref('person'), mediaCharacterId: filter.ref('mediaCharacter') },
  policy: policies.readOnly(),
});

export const MEDIA_STAFF: ResourceDefinition = defineResource({
  collection: 'media-staff',
  type: 'mediaStaff',
  singular: 'media staff',
  routes: 'read-only',
  attributes: { role: attr.string() },
  relationships: { media: rel.one(MEDIA_TYPES), person: rel.one('people') },
  filters: { mediaId: filter.ref('media'), mediaType: filter.refType('media', MEDIA_TYPES), personId: filter.ref('person') },
  policy: policies.readOnly(linkedMediaVisible('media')),
});

export const MEDIA_PRODUCTIONS: ResourceDefinition = defineResource({
  collection: 'media-productions',
  type: 'mediaProductions',
  singular: 'media production',
  routes: 'read-only',
  attributes: { role: attr.enum(['producer', 'licensor', 'studio', 'serialization'] as const) },
  relationships: { media: rel.one(MEDIA_TYPES), company: rel.one('producers') },
  filters: { mediaId: filter.ref('media'), mediaType: filter.refType('media', MEDIA_TYPES), companyId: filter.ref('company'), role: filter.attribute('role') },
  policy: policies.readOnly(linkedMediaVisible('media')),
});

export const QUOTES: ResourceDefinition = defineResource({
  collection: 'quotes',
  type: 'quotes',
  singular: 'quote',
  routes: 'read-only',
  attributes: { content: attr.string(), likesCount: attr.integer({ sortable: true }) },
  relationships: { media: rel.one(MEDIA_TYPES), character: rel.one('characters') },
  filters: { mediaId: filter.ref('media'), characterId: filter.ref('character') },
  policy: policies.readOnly(linkedMediaVisible('media')),
});

export const VIDEOS: ResourceDefinition = defineResource({
  collection: 'videos',
  type: 'videos',
  singular: 'video',
  routes: 'read-only',
  attributes: { url: attr.string(), availableRegions: attr.strings(), subLang: attr.string(), dubLang: attr.string(), embedData: attr.object() },
  relationships: { episode: rel.one('episodes'), streamer: rel.one('streamers') },
  filters: { episodeId: filter.ref('episode'), streamerId: filter.ref('streamer') },
  policy: policies.readOnly(),
});

export const CATALOGUE_RESOURCES: readonly ResourceDefinition[] = [
  EPISODES,
  CHAPTERS,
  CATEGORIES,
  CHARACTERS,
  PEOPLE,
  PRODUCERS,
  STREAMERS,
  STREAMING_LINKS,
  MAPPINGS,
  MEDIA_RELATIONSHIP_RESOURCES,
  MEDIA_CHARACTERS,
  CHARACTER_VOICES,
  MEDIA_STAFF,
  MEDIA_PRODUCTIONS,
  QUOTES,
  VIDEOS,
];
