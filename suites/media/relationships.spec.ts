import { expect, verifies } from '../fixtures/mediaFixtures.ts';
import { expectStatus, jsonApiOf, linkOf, type JsonApiResource } from '../fixtures/mediaChecks.ts';
import { knownDefectSeen, precondition, says } from '../../src/testing/ruleTest.ts';
import { DEPRECATED_RELATIONSHIPS, MEDIA_RELATIONSHIPS, deprecatedRelationshipsOn } from '../../src/rules/mediaRoutes.ts';
import { test } from '../fixtures/mediaFixtures.ts';
import type { MediaUnderTest } from '../fixtures/mediaFixtures.ts';
import type { Rule } from '../../src/rules/Rule.ts';

// Relationships between resources: the table, and the deprecated ones.

async function first(media: MediaUnderTest, collection: string, rule: Rule): Promise<JsonApiResource> {
  const res = await media.anonymous.send({ method: 'GET', path: `/${collection}`, query: { 'page[limit]': 1 } });
  expectStatus(res, 200, rule);
  const [resource] = jsonApiOf(res, rule).data as JsonApiResource[];
  expect(resource, says(rule, `/${collection} has a resource to inspect`)).toBeDefined();
  return resource!;
}

test(
  ...verifies('media.relationships.table', 'anime, manga and episodes carry the listed relationships', async ({ media, rule }) => {
    for (const collection of ['anime', 'manga', 'episodes']) {
      const resource = await first(media, collection, rule);
      const expected = Object.entries(MEDIA_RELATIONSHIPS)
        .filter(([, on]) => on.includes(collection))
        .map(([name]) => name);
      const missing = expected.filter((name) => !resource.relationships?.[name]);
      expect(missing, says(rule, `${collection}/${resource.id} lacks relationships the spec lists`)).toEqual([]);
      for (const name of expected) {
        // A related link as a string or a link object (JSON:API), or the linkage itself.
        expect(
          linkOf(resource.relationships![name]!.links, 'related') !== undefined || 'data' in resource.relationships![name]!,
          says(rule, `${collection}.${name} is a relationship object`),
        ).toBe(true);
      }
    }
  }),
);

test(
  ...verifies('media.relationships.episode-media', "an episode's media is its anime", async ({ media, rule }) => {
    const res = await media.anonymous.send({ method: 'GET', path: '/episodes', query: { 'page[limit]': 3, include: 'media' } });
    expectStatus(res, 200, rule);
    const episodes = jsonApiOf(res, rule).data as JsonApiResource[];
    precondition(rule, media.target, episodes.length > 0, 'at least one episode visible anonymously');
    for (const episode of episodes) {
      const ref = episode.relationships?.media?.data as { type: string; id: string } | null | undefined;
      expect(ref, says(rule, `episode ${episode.id} includes its media`)).toBeTruthy();
      expect(ref!.type, says(rule, 'the media of an episode is an anime')).toBe('anime');
    }
  }),
);

test(
  ...verifies('media.relationships.deprecated-marked', 'empty, marked deprecated, naming the replacement', async ({ media, rule }, testInfo) => {
    for (const collection of ['anime', 'manga'] as const) {
      const resource = await first(media, collection, rule);
      // "Kept only as empty relationships": each of them, not some. Dropping one is not the known defect either:
      // the real service keeps every one (without the marker).
      const kept = deprecatedRelationshipsOn(collection);
      const dropped = kept.filter((name) => !resource.relationships?.[name]);
      expect(dropped, says(rule, `${collection}/${resource.id} drops deprecated relationships the contract keeps`)).toEqual([]);
      for (const name of kept) {
        const rel = resource.relationships![name]!;
        if (knownDefectSeen(rule, media.target, rel, testInfo, `${collection}.${name} is kept with links but no deprecated marker`)) continue;
        expect(rel.meta?.deprecated, says(rule, `${collection}.${name} is marked deprecated`)).toBe(true);
        expect(rel.meta?.replacedBy ?? null, says(rule, `${collection}.${name} names its replacement`)).toBe(DEPRECATED_RELATIONSHIPS[name]);
        const related = await media.anonymous.send({ method: 'GET', path: `/${collection}/${resource.id}`, query: { include: name } });
        const data = (jsonApiOf(related, rule).data as JsonApiResource).relationships?.[name]?.data;
        expect(Array.isArray(data) ? data.length : data, says(rule, `${collection}.${name} is kept empty`)).toBeFalsy();
      }
    }
  }),
);
