/**
 * The library reader's own consumer test, with pact-js and Node's test runner: it drives readShelf and
 * findBySlug (on the kitsu npm client) against Pact's mock server and writes the team's pact into ./pacts. Only what the reader
 * reads is promised, with matchers; the bearer token is the provider's business, matched by its form.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { MatchersV3, PactV4, SpecificationVersion } from '@pact-foundation/pact';
import { findBySlug, readShelf } from '../src/libraryReader.ts';

// Pact merges into an existing file: start from none, so an interaction dropped here leaves the pact too.
const PACTS = resolve('pacts');
rmSync(resolve(PACTS, 'media-library-reader-media-tracking-api.json'), { force: true });

const { eachLike, integer, like, regex } = MatchersV3;

const JSON_API = regex('^application/vnd\\.api\\+json', 'application/vnd.api+json');
const ID = regex('^\\d+$', '1');

function readerPact(): PactV4 {
  return new PactV4({
    consumer: 'media-library-reader',
    provider: 'media-tracking-api',
    dir: PACTS,
    spec: SpecificationVersion.SPECIFICATION_VERSION_V4,
    logLevel: 'warn',
  });
}

test("the reader lists a signed-in user's library with each anime's title", async () => {
  await readerPact()
    .addInteraction()
    .given('user {userId} has library entries', { userId: '1' })
    .given('user {userId} is signed in', { userId: '1' })
    .uponReceiving("a signed-in user's request for their library entries with their anime's titles")
    .withRequest('GET', '/api/edge/library-entries', (b) =>
      b
        .query({
          'filter[userId]': '1',
          'filter[kind]': 'anime',
          include: 'anime',
          'fields[libraryEntries]': 'status,progress,anime',
          'fields[anime]': 'canonicalTitle,episodeCount',
          'page[limit]': '20',
        })
        .headers({ Accept: 'application/vnd.api+json', Authorization: regex('^Bearer \\S+$', 'Bearer reader-token') }),
    )
    .willRespondWith(200, (b) =>
      b.headers({ 'Content-Type': JSON_API }).jsonBody({
        data: eachLike({
          id: ID,
          type: 'libraryEntries',
          attributes: { status: regex('^(current|planned|completed|on_hold|dropped)$', 'current'), progress: integer(3) },
          relationships: { anime: { data: { type: 'anime', id: ID } } },
        }),
        included: eachLike({ id: ID, type: 'anime', attributes: { canonicalTitle: like('Cowboy Bebop'), episodeCount: integer(26) } }),
      }),
    )
    .executeTest(async (server) => {
      const shelf = await readShelf({ baseURL: `${server.url}/api/edge`, token: 'reader-token', userId: '1' });
      assert.deepEqual(shelf, [{ title: 'Cowboy Bebop', status: 'current', progress: 3, episodes: 26 }]);
    });
});

test('the reader finds an anime by its slug, asking only for slug and title', async () => {
  await readerPact()
    .addInteraction()
    .given('anime with slug {slug} exists', { slug: 'cowboy-bebop' })
    .uponReceiving('a request for the anime with a slug, with only slug and title')
    .withRequest('GET', '/api/edge/anime', (b) =>
      b.query({ 'filter[slug]': 'cowboy-bebop', 'fields[anime]': 'slug,canonicalTitle' }).headers({ Accept: 'application/vnd.api+json' }),
    )
    .willRespondWith(200, (b) =>
      b.headers({ 'Content-Type': JSON_API }).jsonBody({
        data: eachLike({ id: ID, type: 'anime', attributes: { slug: like('cowboy-bebop'), canonicalTitle: like('Cowboy Bebop') } }),
      }),
    )
    .executeTest(async (server) => {
      assert.deepEqual(await findBySlug({ baseURL: `${server.url}/api/edge`, slug: 'cowboy-bebop' }), { id: '1', title: 'Cowboy Bebop' });
    });
});
