import { existsSync, readFileSync } from 'node:fs';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { deprecatedRelationshipsOn } from '../../../src/rules/mediaRoutes.ts';

const ANIME_CAPTURE = '../shared/fixtures/media/anime-973.2023-capture.json';

test('the deprecated relationships of each kind: all of the table but those named after the other kind', () => {
  expect(deprecatedRelationshipsOn('anime').sort()).toEqual([
    'animeCharacters',
    'animeProductions',
    'animeStaff',
    'castings',
    'genres',
    'installments',
    'reviews',
  ]);
  expect(deprecatedRelationshipsOn('manga').sort()).toEqual(['castings', 'genres', 'installments', 'mangaCharacters', 'mangaStaff', 'reviews']);
});

test('a real anime carries every deprecated relationship the harness expects of an anime', () => {
  test.skip(!existsSync(ANIME_CAPTURE), 'the shared fixtures are not beside the repository (../shared/fixtures) on this machine');
  const capture = JSON.parse(readFileSync(ANIME_CAPTURE, 'utf8')) as { data: { relationships: Record<string, unknown> } };
  expect(deprecatedRelationshipsOn('anime').filter((name) => !(name in capture.data.relationships))).toEqual([]);
});
