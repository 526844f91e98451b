import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { DEPRECATED_RELATIONSHIPS, MEDIA_RELATIONSHIPS, READ_ONLY_COLLECTIONS, STANDARD_COLLECTIONS } from '../../../../src/rules/mediaRoutes.ts';
import { MEDIA_CONTRACT } from '../../../../src/rules/mediaContract.ts';
import { MediaState } from '../../../../src/twins/media/mediaState.ts';
import { storedOne } from '../../../../src/twins/media/model.ts';
import { RESOURCES, definitionForCollection } from '../../../../src/twins/media/registry.ts';
import { inviteStatus, isLeader } from '../../../../src/twins/media/resources/groups.ts';
import { MEDIA_SEED } from '../../../../src/twins/media/seedFacts.ts';

test('registry: every collection of the route table, standard or read-only as the spec says', () => {
  for (const collection of STANDARD_COLLECTIONS) expect(definitionForCollection(collection)?.routes, collection).toBe('standard');
  for (const collection of READ_ONLY_COLLECTIONS) expect(definitionForCollection(collection)?.routes, collection).toBe('read-only');
  expect(definitionForCollection('push-players')?.type).toBe('pushPlayers');
  expect(definitionForCollection('library-entries')?.type).toBe('libraryEntries');
  expect(definitionForCollection('streaming-links')?.type).toBe('streamingLinks');
  for (const definition of RESOURCES) {
    expect(definition.type, `${definition.collection}: camelCase plural`).toMatch(/^[a-z][A-Za-z]*$/);
    expect(definition.filters['id'], `${definition.type} has the root filter`).toBeDefined();
    expect(Object.keys(definition.attributes).slice(0, 2), `${definition.type} inherits the base timestamps`).toEqual(['createdAt', 'updatedAt']);
  }
});

test('registry: the spec relationship table and the deprecated relationships, per media kind', () => {
  for (const [name, presentOn] of Object.entries(MEDIA_RELATIONSHIPS)) {
    for (const collection of presentOn) expect(definitionForCollection(collection)?.relationships[name], `${collection}.${name}`).toBeDefined();
  }
  const deprecatedOf = (collection: string): string[] =>
    Object.entries(definitionForCollection(collection)?.relationships ?? {})
      .filter(([, spec]) => spec.kind === 'deprecated')
      .map(([name]) => name)
      .sort();
  expect(deprecatedOf('anime')).toEqual(['animeCharacters', 'animeProductions', 'animeStaff', 'castings', 'genres', 'installments', 'reviews']);
  expect(deprecatedOf('manga')).toEqual(['castings', 'genres', 'installments', 'mangaCharacters', 'mangaStaff', 'reviews']);
  const genres = definitionForCollection('anime')?.relationships['genres'];
  expect(genres).toEqual({ kind: 'deprecated', replacedBy: DEPRECATED_RELATIONSHIPS['genres'] });
});

test('registry: page limits come from the contract', () => {
  expect(definitionForCollection('anime')?.page).toEqual({ kind: 'offset', defaultLimit: MEDIA_CONTRACT.defaultLimit, maxLimit: MEDIA_CONTRACT.maxLimit });
  expect(definitionForCollection('library-entries')?.page).toEqual({ kind: 'offset', defaultLimit: 10, maxLimit: 500 });
  for (const collection of MEDIA_CONTRACT.unpaginatedCollections)
    expect(definitionForCollection(collection)?.page, collection).toEqual({ kind: 'unpaginated' });
});

test('seed: every fact of seedFacts.ts holds', () => {
  const state = new MediaState('virtual');
  const anime = state.all('anime');
  expect(anime.map((record) => record.id)).toEqual(Array.from({ length: MEDIA_SEED.animeCount }, (_, i) => String(i + 1)));
  expect(anime.filter((record) => record.attributes['ageRating'] === 'R18').map((record) => record.id)).toEqual([...MEDIA_SEED.adultAnimeIds]);
  const manga = state.all('manga');
  expect(manga).toHaveLength(MEDIA_SEED.mangaCount);
  expect(manga.filter((record) => record.attributes['ageRating'] === 'R18').map((record) => record.id)).toEqual([...MEDIA_SEED.adultMangaIds]);
  const { animeWithEpisodes, mangaWithChapters } = MEDIA_SEED;
  expect(state.all('episodes').filter((episode) => storedOne(episode, 'media')?.id === animeWithEpisodes.id)).toHaveLength(animeWithEpisodes.episodes);
  expect(
    state.all('streamingLinks').filter((link) => storedOne(link, 'media')?.id === animeWithEpisodes.id && storedOne(link, 'media')?.type === 'anime'),
  ).toHaveLength(animeWithEpisodes.streamingLinks);
  expect(state.all('chapters').filter((chapter) => storedOne(chapter, 'manga')?.id === mangaWithChapters.id)).toHaveLength(mangaWithChapters.chapters);
  expect(state.all('categories')).toHaveLength(MEDIA_SEED.categoryCount);
  for (const user of Object.values(MEDIA_SEED.users)) {
    const record = state.get('users', user.id);
    expect(record?.attributes['name']).toBe(user.name);
    expect(record?.attributes['email']).toBe(user.email);
    expect(record?.secrets['password']).toBe(user.password);
  }
  expect(state.get('users', MEDIA_SEED.users.adultAllowed.id)?.attributes['sfwFilter']).toBe(false);
  expect(state.get('users', MEDIA_SEED.users.adultFiltered.id)?.attributes['sfwFilter']).toBe(true);
  const aliceEntries = state.all('libraryEntries').filter((entry) => storedOne(entry, 'user')?.id === MEDIA_SEED.users.adultAllowed.id);
  expect(aliceEntries.map((entry) => entry.id)).toEqual([...MEDIA_SEED.aliceLibraryEntryIds]);
  const adult = state.get('libraryEntries', MEDIA_SEED.adultLibraryEntry.id);
  expect(storedOne(adult!, 'media')).toEqual({ type: 'anime', id: MEDIA_SEED.adultLibraryEntry.animeId });
  expect(storedOne(adult!, 'user')?.id).toBe(MEDIA_SEED.adultLibraryEntry.userId);
  expect(isLeader(state, MEDIA_SEED.users.adultAllowed.id, MEDIA_SEED.groupId, 'members'), 'alice leads group 1').toBe(true);
  expect(isLeader(state, MEDIA_SEED.users.adultFiltered.id, MEDIA_SEED.groupId), 'bob is a plain member').toBe(false);
  for (const id of MEDIA_SEED.pendingInviteIds) {
    const invite = state.get('groupInvites', id);
    expect(invite && inviteStatus(invite), `invite ${id}`).toBe('pending');
    expect(storedOne(invite!, 'user')?.id).toBe(MEDIA_SEED.users.other.id);
  }
  const revokable = storedOne(state.get('groupInvites', MEDIA_SEED.pendingInviteIds[2])!, 'group')?.id;
  expect(isLeader(state, MEDIA_SEED.users.adultAllowed.id, revokable, 'members'), 'alice leads the group of invite 3').toBe(true);
  expect(isLeader(state, MEDIA_SEED.users.adultFiltered.id, revokable), 'bob does not').toBe(false);
});

test('seed: deterministic, and reset brings it back', () => {
  const first = new MediaState('virtual');
  const second = new MediaState('virtual');
  expect(JSON.stringify(second.all('anime'))).toBe(JSON.stringify(first.all('anime')));
  expect(JSON.stringify(second.all('activities'))).toBe(JSON.stringify(first.all('activities')));
  first.remove('anime', '1');
  first.create('anime', { canonicalTitle: 'New' }, {});
  first.reset();
  expect(JSON.stringify(first.all('anime'))).toBe(JSON.stringify(second.all('anime')));
});
