/** Media writes of the clean-up sample: library entries of the signed-in user, then a failure on purpose (marked, as the store's). */
import { expect, test } from '../../../../suites/fixtures/mediaFixtures.ts';
import { MEDIA_SEED } from '../../../../src/twins/media/seedFacts.ts';

const user = { type: 'users', id: MEDIA_SEED.users.adultAllowed.id };

test('a library entry, then an expect that fails on purpose', async ({ media }) => {
  test.fail();
  const created = await media.signedIn!.create(
    'library-entries',
    'libraryEntries',
    { status: 'planned', progress: 0 },
    { anime: { type: 'anime', id: '23' }, user },
  );
  expect(created.data?.id, 'fails on purpose: the fixture must still delete the entry').toBe('no such entry');
});

test('a library entry, then a throw', async ({ media }) => {
  test.fail();
  await media.signedIn!.create('library-entries', 'libraryEntries', { status: 'current', progress: 1 }, { anime: { type: 'anime', id: '24' }, user });
  throw new Error('thrown on purpose, after a write the test never deletes');
});
