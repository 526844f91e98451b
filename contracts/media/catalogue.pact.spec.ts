/**
 * Media consumer contracts (PactV4), written by driving the typed MediaClient
 * against Pact's mock server: a filtered, included, paged anime list, a single
 * anime, the 404 of a hidden title as a JSON:API error document, and a library
 * entry whose adult anime include is null when anonymous.
 */
import { expect, test } from '../../src/testing/harnessTest.ts';
import { MatchersV3 } from '@pact-foundation/pact';
import { NotFoundError } from '../../src/clients/media/errors.ts';
import { JSON_API, mediaClient as client, mediaPact as pact } from './mediaPact.ts';
import { MEDIA_STATES } from './providerStates.ts';

const { eachLike, integer, like, regex } = MatchersV3;

test('a filtered, included, paged anime list', async () => {
  await pact()
    .addInteraction()
    .given(MEDIA_STATES.tvAnime, { count: 5 })
    .uponReceiving('a request for TV anime with their categories, 2 per page')
    .withRequest('GET', '/api/edge/anime', (b) => b.query({ 'filter[subtype]': 'TV', include: 'categories', 'page[limit]': '2', 'page[offset]': '0' }))
    .willRespondWith(200, (b) =>
      b.headers(JSON_API).jsonBody({
        data: eachLike({
          id: regex('^\\d+$', '1'),
          type: 'anime',
          attributes: like({ canonicalTitle: 'Cowboy Bebop', subtype: 'TV' }),
          relationships: like({}),
        }),
        included: eachLike({ id: regex('^\\d+$', '1'), type: 'categories', attributes: like({ title: 'Action' }) }),
        // What MediaClient.iterate walks by (reliance): meta.count, and a links.next while more remain.
        meta: { count: integer(5) },
        links: like({
          first: 'https://kitsu.io/api/edge/anime?page%5Blimit%5D=2&page%5Boffset%5D=0',
          next: 'https://kitsu.io/api/edge/anime?page%5Blimit%5D=2&page%5Boffset%5D=2',
        }),
      }),
    )
    .executeTest(async (server) => {
      const page = await client(server.url).list('anime', { filter: { subtype: 'TV' }, include: ['categories'], page: { limit: 2, offset: 0 } });
      expect(page.data[0]?.type).toBe('anime');
      expect(typeof page.meta.count).toBe('number');
      expect(page.links.next).toContain('page%5Boffset%5D=2');
    });
});

test('a single anime', async () => {
  await pact()
    .addInteraction()
    .given(MEDIA_STATES.animeExists, { id: '1' })
    .uponReceiving('a request for one anime')
    .withRequest('GET', '/api/edge/anime/1')
    .willRespondWith(200, (b) =>
      b
        .headers(JSON_API)
        .jsonBody({ data: { id: '1', type: 'anime', attributes: like({ canonicalTitle: 'Cowboy Bebop', ageRating: 'R' }), relationships: like({}) } }),
    )
    .executeTest(async (server) => {
      const doc = await client(server.url).get('anime', '1');
      expect(doc.data?.id).toBe('1');
    });
});

test('a hidden (adult) title is a 404 JSON:API error document when anonymous', async () => {
  await pact()
    .addInteraction()
    .given(MEDIA_STATES.adultAnime, { id: '7' })
    .uponReceiving('an anonymous request for an adult anime')
    .withRequest('GET', '/api/edge/anime/7')
    .willRespondWith(404, (b) =>
      b.headers(JSON_API).jsonBody({
        errors: eachLike({ title: like('Record not found'), detail: like('The record identified by 7 could not be found.'), status: like('404') }),
      }),
    )
    .executeTest(async (server) => {
      const error = await client(server.url)
        .get('anime', '7')
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
    });
});

test("a library entry's adult anime include is null when anonymous", async () => {
  await pact()
    .addInteraction()
    .given(MEDIA_STATES.adultLibraryEntry, { id: '4' })
    .uponReceiving('an anonymous request for that library entry including its anime')
    .withRequest('GET', '/api/edge/library-entries/4', (b) => b.query({ include: 'anime' }))
    .willRespondWith(200, (b) =>
      b.headers(JSON_API).jsonBody({
        data: { id: '4', type: 'libraryEntries', attributes: like({ status: 'current' }), relationships: like({ anime: { data: null } }) },
      }),
    )
    .executeTest(async (server) => {
      const doc = await client(server.url).get('library-entries', '4', { include: ['anime'] });
      expect(doc.data?.relationships.anime?.data).toBeNull();
    });
});
