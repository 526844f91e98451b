import { expect, test, verifies, type MediaUnderTest } from '../fixtures/mediaFixtures.ts';
import { errorsOf, expectEachResourceOnce, expectStatus, jsonApiOf, resourcesOf, type JsonApiDocument, type JsonApiResource } from '../fixtures/mediaChecks.ts';
import { precondition, says } from '../../src/testing/ruleTest.ts';
import { MEDIA_CONTRACT } from '../../src/rules/mediaContract.ts';

// Visibility: adult-flagged media are hidden from unauthenticated requests.

interface AdultFacts {
  animeId: string;
  /** An adult manga, when the signed-in user sees one. */
  mangaId: string | undefined;
  /** A library entry (of the signed-in user) on an adult anime. */
  libraryEntryId: string | undefined;
}

/** Adult ids: the seed's on the twin; on live, found through the signed-in user, who must allow adult content. */
async function adultFacts(media: MediaUnderTest): Promise<AdultFacts> {
  if (media.twin)
    return { animeId: media.twin.seed.adultAnimeIds[0], mangaId: media.twin.seed.adultMangaIds[0], libraryEntryId: media.twin.seed.adultLibraryEntry.id };
  const signedIn = media.signedIn!;
  const adult = await signedIn.list('anime', { filter: { ageRating: MEDIA_CONTRACT.adultAgeRating }, page: { limit: 1 } });
  const animeId = adult.data[0]?.id;
  test.skip(!animeId, 'the signed-in user sees no adult anime: allow adult content in that account to check visibility on live');
  const mangaId = (await signedIn.list('manga', { filter: { ageRating: MEDIA_CONTRACT.adultAgeRating }, page: { limit: 1 } })).data[0]?.id;
  const me = await signedIn.list('users', { filter: { self: 'true' } });
  const userId = me.data[0]?.id;
  let libraryEntryId: string | undefined;
  if (userId) {
    const entries = await signedIn.list('library-entries', { filter: { userId, kind: 'anime' }, include: ['anime'], page: { limit: 100 } });
    expectEachResourceOnce((entries.response.document ?? {}) as JsonApiDocument, 'GET /library-entries?include=anime');
    const adultIds = new Set(entries.included.filter((r) => r.attributes.ageRating === MEDIA_CONTRACT.adultAgeRating).map((r) => r.id));
    libraryEntryId = entries.data.find((e) => adultIds.has((e.relationships.anime?.data as { id: string } | null)?.id ?? ''))?.id;
  }
  return { animeId: animeId!, mangaId, libraryEntryId };
}

test(
  ...verifies('media.visibility.adult-direct-404', 'GET /anime/{adult id} without authentication', async ({ media, rule }) => {
    const { animeId, mangaId } = await adultFacts(media);
    const res = await media.anonymous.send({ method: 'GET', path: `/anime/${animeId}`, retry: false });
    expectStatus(res, 404, rule);
    errorsOf(res, rule);
    // "A media item flagged as adult content": manga as well as anime.
    precondition(rule, media.target, mangaId !== undefined, 'an adult manga the signed-in user sees');
    const manga = await media.anonymous.send({ method: 'GET', path: `/manga/${mangaId}`, retry: false });
    expectStatus(manga, 404, rule);
    errorsOf(manga, rule);
  }),
);

test(
  ...verifies('media.visibility.adult-include-null', 'a library entry including its adult anime, anonymously', async ({ media, rule }) => {
    const { libraryEntryId } = await adultFacts(media);
    test.skip(!libraryEntryId, "the signed-in user's library has no adult anime to reach through an include");
    const res = await media.anonymous.send({ method: 'GET', path: `/library-entries/${libraryEntryId}`, query: { include: 'anime' } });
    expectStatus(res, 200, rule);
    const doc = jsonApiOf(res, rule);
    const entry = doc.data as JsonApiResource;
    expect(entry.relationships?.anime && 'data' in entry.relationships.anime, says(rule, 'the included relationship carries data')).toBe(true);
    expect(entry.relationships!.anime!.data, says(rule, 'the adult anime comes back as null data')).toBeNull();
    expect(
      (doc.included ?? []).filter((r) => r.type === 'anime'),
      says(rule, 'the adult anime is not in included'),
    ).toEqual([]);
  }),
);

test(
  ...verifies('media.errors.known-defect-adult-include-500', 'include=anime,anime.categories anonymously', async ({ media, rule }, testInfo) => {
    const { libraryEntryId } = await adultFacts(media);
    test.skip(!libraryEntryId, "the signed-in user's library has no adult anime to reach through an include");
    const res = await media.anonymous.send({
      method: 'GET',
      path: `/library-entries/${libraryEntryId}`,
      query: { include: 'anime,anime.categories' },
      retry: false,
    });
    if (res.status === 500 && media.target !== 'twin') {
      // The spec records this as a defect of the real service, not a contract: report it, do not fail the gate.
      testInfo.annotations.push({ type: 'known-defect', description: `${rule.id}: the real service answered 500, as reported in the spec's Errors section` });
      return;
    }
    expectStatus(res, 200, rule);
    expect((jsonApiOf(res, rule).data as JsonApiResource).relationships?.anime?.data, says(rule, 'null data, as the contract says')).toBeNull();
  }),
);

test(
  ...verifies('media.visibility.adult-hidden-from-lists', 'anonymous lists and counts leave adult anime out', async ({ media, rule }) => {
    const { animeId } = await adultFacts(media);
    const anonymous = await media.anonymous.list('anime', { filter: { id: animeId } });
    expect(
      anonymous.data.map((r) => r.id),
      says(rule, 'filter[id] of an adult anime finds nothing anonymously'),
    ).toEqual([]);
    expect(anonymous.meta.count, says(rule, 'and counts nothing')).toBe(0);
    if (media.twin) {
      const all = await media.anonymous.list('anime', { page: { limit: 20 } });
      expect(all.meta.count, says(rule, 'meta.count leaves the adult anime out')).toBe(media.twin.seed.animeCount - media.twin.seed.adultAnimeIds.length);
    }
  }),
);

test(
  ...verifies('media.visibility.adult-visible-signed-in', 'directly, in lists and through includes', async ({ media, rule }) => {
    const { animeId, libraryEntryId } = await adultFacts(media);
    const signedIn = media.signedIn!;
    const direct = await signedIn.send({ method: 'GET', path: `/anime/${animeId}` });
    expectStatus(direct, 200, rule);
    const listed = await signedIn.list('anime', { filter: { id: animeId } });
    expect(
      listed.data.map((r) => r.id),
      says(rule, 'listed for a user who allows it'),
    ).toEqual([animeId]);
    if (libraryEntryId) {
      const entry = await signedIn.send({ method: 'GET', path: `/library-entries/${libraryEntryId}`, query: { include: 'anime' } });
      const doc = jsonApiOf(entry, rule);
      expect(
        resourcesOf({ data: doc.included ?? [] }).some((r) => r.type === 'anime'),
        says(rule, 'included for a user who allows it'),
      ).toBe(true);
    }
  }),
);

test(
  ...verifies(
    'media.visibility.adult-visible-signed-in',
    'a user who filters adult content does not see it',
    async ({ media, rule }) => {
      const bob = await media.twin!.signIn('adultFiltered');
      const res = await bob.send({ method: 'GET', path: `/anime/${media.twin!.seed.adultAnimeIds[0]}`, retry: false });
      expectStatus(res, 404, rule);
    },
    { needsTwin: 'needs a second, adult-filtering account, which only the twin seeds' },
  ),
);
