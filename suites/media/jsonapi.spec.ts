import { expect, test, verifies } from '../fixtures/mediaFixtures.ts';
import {
  expectEachResourceOnce,
  expectMediaType,
  expectSchema,
  collectionOf,
  expectStatus,
  jsonApiOf,
  nonCamelMembers,
  resourcesOf,
  sharedReferences,
} from '../fixtures/mediaChecks.ts';
import { precondition, says } from '../../src/testing/ruleTest.ts';
import { MEDIA_CONTRACT } from '../../src/rules/mediaContract.ts';

// What the service does: JSON:API resource structures, string ids.

test(
  ...verifies('media.jsonapi.media-type', 'collections, single resources and errors', async ({ media, rule }) => {
    for (const path of ['/anime', '/anime/1', '/anime/0']) {
      const res = await media.anonymous.send({ method: 'GET', path, retry: false });
      expectMediaType(res, rule);
    }
  }),
);

test(
  ...verifies('media.jsonapi.accept-parameters-406', 'Accept naming the JSON:API media type only with a parameter', async ({ media, rule }) => {
    const res = await media.anonymous.send({ method: 'GET', path: '/anime/1', accept: `${MEDIA_CONTRACT.mediaType}; version=1`, retry: false });
    expectStatus(res, 406, rule);
    // The control: the same request with the media type as JSON:API names it is served.
    expectStatus(await media.anonymous.send({ method: 'GET', path: '/anime/1' }), 200, rule);
  }),
);

test(
  ...verifies('media.jsonapi.document-structure', 'a collection, a single resource and an error', async ({ media, rule }) => {
    const list = await media.anonymous.send({ method: 'GET', path: '/anime', query: { 'page[limit]': 3 } });
    expectStatus(list, 200, rule);
    const collection = jsonApiOf(list, rule);
    expect(Array.isArray(collection.data), says(rule, 'a collection document holds an array in data')).toBe(true);
    expectSchema(collection, 'media/collection', rule);
    // An array even when it holds one resource: a collection is never its one member.
    const ofOne = jsonApiOf(await media.anonymous.send({ method: 'GET', path: '/anime', query: { 'page[limit]': 1 } }), rule);
    expect(Array.isArray(ofOne.data), says(rule, 'a collection of one resource holds an array in data')).toBe(true);
    const one = await media.anonymous.send({ method: 'GET', path: `/anime/${resourcesOf(collection)[0]!.id}` });
    const single = jsonApiOf(one, rule);
    expect(
      single.data !== null && typeof single.data === 'object' && !Array.isArray(single.data),
      says(rule, 'a single resource document holds an object in data'),
    ).toBe(true);
    expectSchema(single, 'media/document', rule);
    // An error document holds errors and no data, not even a null one (jsonApiOf: never data and errors together).
    const missing = await media.anonymous.send({ method: 'GET', path: '/anime/0', retry: false });
    const error = jsonApiOf(missing, rule);
    expect(Array.isArray(error.errors), says(rule, `${missing.method} ${missing.url} answered ${missing.status}: an error document holds errors`)).toBe(true);
  }),
);

test(
  ...verifies('media.jsonapi.string-ids', 'resource ids and relationship data ids', async ({ media, rule }) => {
    const doc = (await media.anonymous.list('episodes', { include: ['media'], page: { limit: 5 } })).response;
    const body = jsonApiOf(doc, rule);
    expectStatus(doc, 200, rule);
    const checked = [...resourcesOf(body), ...(body.included ?? [])];
    precondition(rule, media.target, checked.length > 0, 'at least one episode visible anonymously');
    for (const r of checked) {
      expect(typeof r.id, says(rule, `${r.type} id ${JSON.stringify(r.id)} must be a string`)).toBe('string');
      for (const [name, rel] of Object.entries(r.relationships ?? {})) {
        const data = rel.data;
        for (const ref of Array.isArray(data) ? data : data ? [data] : []) {
          expect(typeof (ref as { id: unknown }).id, says(rule, `${r.type}.${name} data id must be a string`)).toBe('string');
        }
      }
    }
  }),
);

test(
  ...verifies('media.jsonapi.resource-object', 'id, type, attributes, relationships; type matches the collection', async ({ media, rule }) => {
    for (const [collection, type] of [
      ['anime', 'anime'],
      ['manga', 'manga'],
      ['categories', 'categories'],
      ['episodes', 'episodes'],
    ] as const) {
      const res = await media.anonymous.send({ method: 'GET', path: `/${collection}`, query: { 'page[limit]': 2 } });
      expectStatus(res, 200, rule);
      const resources = resourcesOf(jsonApiOf(res, rule));
      precondition(rule, media.target, resources.length > 0, `at least one resource in /${collection} visible anonymously`);
      for (const r of resources) {
        expect(r.type, says(rule, `resources of /${collection} have type ${type}`)).toBe(type);
        expect(r.attributes && typeof r.attributes, says(rule, `${type}/${r.id} has attributes`)).toBe('object');
        expect(r.relationships && typeof r.relationships, says(rule, `${type}/${r.id} has relationships`)).toBe('object');
      }
    }
  }),
);

test(
  ...verifies('media.jsonapi.camel-case-members', 'attribute and relationship names, types', async ({ media, rule }) => {
    const res = await media.anonymous.send({ method: 'GET', path: '/anime', query: { 'page[limit]': 3, include: 'mediaRelationships,streamingLinks' } });
    const doc = jsonApiOf(res, rule);
    const all = [...resourcesOf(doc), ...(doc.included ?? [])];
    precondition(rule, media.target, all.length > 0, 'at least one anime (the list of 3 was empty)');
    expect(nonCamelMembers(all), says(rule, 'member names are camelCase')).toEqual([]);
    for (const r of all) expect(r.type, says(rule, `type ${r.type} is camelCase`)).toMatch(/^[a-z][a-zA-Z]*$/);
  }),
);

test(
  ...verifies('media.jsonapi.included', 'include=episodes,categories on an anime', async ({ media, rule }) => {
    const res = await media.anonymous.send({ method: 'GET', path: '/anime/1', query: { include: 'categories,episodes' } });
    expectStatus(res, 200, rule);
    const doc = jsonApiOf(res, rule);
    const anime = doc.data as { relationships: Record<string, { data?: { id: string; type: string }[] }> };
    const included = new Set((doc.included ?? []).map((r) => `${r.type}/${r.id}`));
    for (const name of ['categories', 'episodes']) {
      const data = anime.relationships[name]?.data;
      expect(Array.isArray(data), says(rule, `an included to-many relationship ${name} carries data`)).toBe(true);
      for (const ref of data!) expect(included.has(`${ref.type}/${ref.id}`), says(rule, `${ref.type}/${ref.id} named in ${name} is in included`)).toBe(true);
    }
    expect(included.size, says(rule, 'included holds the related resources')).toBeGreaterThan(0);
    // A collection's include too: every category its anime name is in included.
    const list = jsonApiOf(await media.anonymous.send({ method: 'GET', path: '/anime', query: { include: 'categories', 'page[limit]': 3 } }), rule);
    const listed = new Set((list.included ?? []).map((r) => `${r.type}/${r.id}`));
    const refs = resourcesOf(list).flatMap((r) => (r.relationships?.['categories'] as { data?: { id: string; type: string }[] } | undefined)?.data ?? []);
    precondition(rule, media.target, refs.length > 0, 'anime with categories among the first three');
    for (const ref of refs)
      expect(listed.has(`${ref.type}/${ref.id}`), says(rule, `${ref.type}/${ref.id}, named by an anime of the list, is in included`)).toBe(true);
    // A dotted path includes every step: the relationships and what each one points at.
    const nested = jsonApiOf(await media.anonymous.send({ method: 'GET', path: '/anime/1', query: { include: 'mediaRelationships.destination' } }), rule);
    const inNested = new Set((nested.included ?? []).map((r) => `${r.type}/${r.id}`));
    const relationships = (nested.included ?? []).filter((r) => r.type === 'mediaRelationships');
    precondition(rule, media.target, relationships.length > 0, 'anime 1 with media relationships');
    for (const r of relationships) {
      const destination = (r.relationships?.['destination'] as { data?: { id: string; type: string } | null } | undefined)?.data;
      // Asked for, the destination's linkage is there and its resource is included.
      expect(destination, says(rule, `include=mediaRelationships.destination gives mediaRelationships/${r.id} its destination`)).toBeTruthy();
      expect(
        inNested.has(`${destination!.type}/${destination!.id}`),
        says(rule, `include=mediaRelationships.destination includes ${destination!.type}/${destination!.id}`),
      ).toBe(true);
    }
  }),
);

test(
  ...verifies('media.jsonapi.included-unique', 'a resource named by several others is included once', async ({ media, rule }) => {
    // Documents in which several resources name the same one: the anime of a list share categories, the episodes
    // of a page share their anime, a user's library entries share the user. (jsonApiOf checks every document the
    // suites read; here the documents are chosen so that a second copy has somewhere to come from.)
    const reads: { client: typeof media.anonymous; path: string; query: Record<string, string | number> }[] = [
      { client: media.anonymous, path: '/anime', query: { include: 'categories', 'page[limit]': 10 } },
      { client: media.anonymous, path: '/episodes', query: { include: 'media', 'page[limit]': 10 } },
      { client: media.anonymous, path: '/anime/1', query: { include: 'categories,episodes,mediaRelationships.destination' } },
    ];
    const signedIn = media.signedIn;
    if (signedIn) {
      const userId = resourcesOf(jsonApiOf(await signedIn.send({ method: 'GET', path: '/users', query: { 'filter[self]': 'true' } }), rule))[0]?.id;
      if (userId) reads.push({ client: signedIn, path: '/library-entries', query: { 'filter[userId]': userId, include: 'user', 'page[limit]': 10 } });
    }
    let shared = 0;
    for (const { client, path, query } of reads) {
      const res = await client.send({ method: 'GET', path, query });
      expectStatus(res, 200, rule);
      const doc = jsonApiOf(res, rule);
      expectEachResourceOnce(doc, `GET ${path}`);
      shared += sharedReferences(doc);
    }
    precondition(rule, media.target, shared > 0, 'a compound document in which two resources name the same related resource');
  }),
);

test(
  ...verifies('media.jsonapi.sparse-fields', 'fields[anime]=slug,canonicalTitle', async ({ media, rule }) => {
    const res = await media.anonymous.send({ method: 'GET', path: '/anime', query: { 'fields[anime]': 'slug,canonicalTitle', 'page[limit]': 3 } });
    expectStatus(res, 200, rule);
    const resources = resourcesOf(jsonApiOf(res, rule));
    precondition(rule, media.target, resources.length > 0, 'at least one anime visible anonymously');
    for (const r of resources) {
      expect(Object.keys(r.attributes ?? {}).sort(), says(rule, 'only the named attributes')).toEqual(['canonicalTitle', 'slug']);
    }
    // fields[type] is per type: it narrows included resources of that type as well.
    const withIncluded = jsonApiOf(
      await media.anonymous.send({ method: 'GET', path: '/anime', query: { include: 'categories', 'fields[categories]': 'title', 'page[limit]': 3 } }),
      rule,
    );
    const categories = (withIncluded.included ?? []).filter((r) => r.type === 'categories');
    precondition(rule, media.target, categories.length > 0, 'included categories for the first three anime');
    for (const c of categories) expect(Object.keys(c.attributes ?? {}), says(rule, `included categories/${c.id} holds only title`)).toEqual(['title']);
  }),
);

test(
  ...verifies('media.jsonapi.filters', 'filter[id] and filter[slug]', async ({ media, rule }) => {
    const first = collectionOf(await media.anonymous.send({ method: 'GET', path: '/anime', query: { 'page[limit]': 3 } }), rule);
    precondition(rule, media.target, first.length >= 2, 'at least two anime');
    const ids = first.slice(0, 2).map((r) => r.id);
    const byId = collectionOf(await media.anonymous.send({ method: 'GET', path: '/anime', query: { 'filter[id]': ids.join(',') } }), rule);
    expect(byId.map((r) => r.id).sort(), says(rule, 'filter[id]=a,b returns exactly those')).toEqual([...ids].sort());
    const slug = first[0]!.attributes!.slug as string;
    const bySlugDoc = jsonApiOf(await media.anonymous.send({ method: 'GET', path: '/anime', query: { 'filter[slug]': slug } }), rule);
    // A filter narrows a collection and leaves it one: its one match is in an array.
    expect(Array.isArray(bySlugDoc.data), says(rule, 'filter[slug] answers a collection (data an array)')).toBe(true);
    const bySlug = resourcesOf(bySlugDoc);
    expect(
      bySlug.map((r) => r.id),
      says(rule, 'filter[slug] finds the anime'),
    ).toEqual([first[0]!.id]);
  }),
);

test(
  ...verifies('media.jsonapi.sort', 'sort=-userCount', async ({ media, rule }) => {
    const countsFor = async (sort: string) => {
      const res = await media.anonymous.send({ method: 'GET', path: '/anime', query: { sort, 'page[limit]': 10 } });
      expectStatus(res, 200, rule);
      return resourcesOf(jsonApiOf(res, rule)).map((r) => Number(r.attributes?.userCount));
    };
    const descending = await countsFor('-userCount');
    const ascending = await countsFor('userCount');
    // Both orders of distinct numbers: a provider that ignored sort could pass one by chance, not both.
    precondition(
      rule,
      media.target,
      descending.length > 1 && descending.every(Number.isFinite) && new Set(descending).size > 1,
      'anime with different, numeric userCount attributes',
    );
    expect(descending, says(rule, 'sort=-userCount: descending by userCount')).toEqual([...descending].sort((a, b) => b - a));
    expect(ascending, says(rule, 'sort=userCount: ascending by userCount')).toEqual([...ascending].sort((a, b) => a - b));
  }),
);
