import { expect, test, verifies, type MediaUnderTest } from '../fixtures/mediaFixtures.ts';
import {
  errorsOf,
  expectStatus,
  followable,
  jsonApiOf,
  linkageKeys,
  linkOf,
  resourcesOf,
  type JsonApiDocument,
  type JsonApiResource,
} from '../fixtures/mediaChecks.ts';
import { precondition, says } from '../../src/testing/ruleTest.ts';
import type { Rule } from '../../src/rules/Rule.ts';
import type { MediaClient } from '../../src/clients/media/MediaClient.ts';

// Identity: a resource fetched by id is that resource, a link leads to what it says, and one answer agrees with itself.

/** Attributes that do not move between two reads of a resource (counts and ranks may, on a live service). */
const STABLE_ATTRIBUTES = ['slug', 'canonicalTitle', 'title', 'number', 'seasonNumber', 'subtype'];

/** The type the spec's relationship table names for a relationship whose name does not say it (episodes.media: anime). */
const NAMED_TYPES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  anime: { categories: 'categories', episodes: 'episodes', mediaRelationships: 'mediaRelationships', streamingLinks: 'streamingLinks' },
  manga: { categories: 'categories', chapters: 'chapters', mediaRelationships: 'mediaRelationships' },
  episodes: { media: 'anime' },
};

/** One document a test reads, and who reads it (library entries only their owner). */
interface Read {
  readonly client: MediaClient;
  readonly doc: JsonApiDocument;
  readonly url: string;
}

async function read(client: MediaClient, rule: Rule, path: string, query: Record<string, string | number> = {}): Promise<Read> {
  const res = await client.send({ method: 'GET', path, query });
  expectStatus(res, 200, rule);
  return { client, doc: jsonApiOf(res, rule), url: res.url };
}

/** The signed-in user's first library entry, with `include` (none when no user is signed in or the library is empty). */
async function libraryRead(media: MediaUnderTest, rule: Rule, include: string): Promise<Read | undefined> {
  const signedIn = media.signedIn;
  if (!signedIn) return undefined;
  const userId = resourcesOf((await read(signedIn, rule, '/users', { 'filter[self]': 'true' })).doc)[0]?.id;
  if (!userId) return undefined;
  const entries = await read(signedIn, rule, '/library-entries', { 'filter[userId]': userId, include, 'page[limit]': 1 });
  return resourcesOf(entries.doc).length > 0 ? entries : undefined;
}

/**
 * The documents whose relationships the link tests follow: one of each relationship kind the suites meet.
 * To-many (anime.categories, anime.episodes, longer than a page, anime.mediaRelationships, the categories and
 * chapters of the first two manga of a list) and to-one (episodes.media, a library entry's anime and user), each included, so the linkage is
 * in the document. Deprecated relationships are left out: media.relationships.deprecated-marked has them (the
 * real service's known defect is that they are ordinary relationships).
 */
async function relationshipSample(media: MediaUnderTest, rule: Rule): Promise<{ read: Read; parent: JsonApiResource; name: string }[]> {
  const reads: [Read, string[]][] = [
    [await read(media.anonymous, rule, '/anime/1', { include: 'categories,episodes,mediaRelationships' }), ['categories', 'episodes', 'mediaRelationships']],
    // Two manga of a list: a provider that gives every resource of a page the first one's links is seen too.
    [await read(media.anonymous, rule, '/manga', { include: 'categories,chapters', 'page[limit]': 2 }), ['categories', 'chapters']],
    [await read(media.anonymous, rule, '/episodes', { include: 'media', 'page[limit]': 1 }), ['media']],
  ];
  const library = await libraryRead(media, rule, 'anime,user');
  if (library) reads.push([library, ['anime', 'user']]);
  return reads.flatMap(([r, names]) => resourcesOf(r.doc).flatMap((parent) => names.map((name) => ({ read: r, parent, name }))));
}

/** Whether a relationship's answer is one page of more (JSON:API lets a to-many relationship be paginated). */
function isPartial(doc: JsonApiDocument): boolean {
  const count = doc.meta?.['count'];
  return linkOf(doc.links, 'next') !== undefined || (typeof count === 'number' && Array.isArray(doc.data) && count > doc.data.length);
}

/** The linkage an answer gives must be `expected`: the same identifier (to-one), the same set (to-many), or a subset with the same count when paged. */
function expectSameLinkage(doc: JsonApiDocument, expected: unknown, rule: Rule, what: string): void {
  if (!Array.isArray(expected)) {
    expect(linkageKeys(doc.data), says(rule, `${what} answers the to-one linkage's resource`)).toEqual(linkageKeys(expected));
    return;
  }
  expect(Array.isArray(doc.data), says(rule, `${what} answers a to-many relationship with an array`)).toBe(true);
  const got = linkageKeys(doc.data);
  const want = linkageKeys(expected);
  if (!isPartial(doc)) {
    expect([...got].sort(), says(rule, `${what} answers the resources the relationship's linkage names`)).toEqual([...want].sort());
    return;
  }
  expect(
    got.filter((key) => !want.includes(key)),
    says(rule, `${what} (one page of ${String(doc.meta?.['count'])}) answers resources the linkage does not name`),
  ).toEqual([]);
  const count = doc.meta?.['count'];
  if (typeof count === 'number') expect(count, says(rule, `${what} counts as many resources as the linkage names`)).toBe(want.length);
}

test(
  ...verifies('media.jsonapi.show-identity', 'an anime, a manga, an episode and a category read by id', async ({ media, rule }) => {
    for (const [collection, type] of [
      ['anime', 'anime'],
      ['manga', 'manga'],
      ['episodes', 'episodes'],
      ['categories', 'categories'],
    ] as const) {
      // The second of the list, not the first: a provider that answers its first resource for any id is seen too.
      const listed = resourcesOf((await read(media.anonymous, rule, `/${collection}`, { 'page[limit]': 2 })).doc);
      precondition(rule, media.target, listed.length > 1, `two resources in /${collection} visible anonymously`);
      const wanted = listed[1]!;
      const got = (await read(media.anonymous, rule, `/${collection}/${wanted.id}`)).doc.data as JsonApiResource | null;
      expect({ type: got?.type, id: got?.id }, says(rule, `GET /${collection}/${wanted.id} answers ${type}/${wanted.id}`)).toEqual({ type, id: wanted.id });
      const stable = (r: JsonApiResource) =>
        Object.fromEntries(STABLE_ATTRIBUTES.filter((name) => name in (wanted.attributes ?? {})).map((name) => [name, r.attributes?.[name]]));
      expect(stable(got!), says(rule, `GET /${collection}/${wanted.id} answers the resource the collection lists under that id`)).toEqual(stable(wanted));
    }
  }),
);

test(
  ...verifies('media.jsonapi.show-identity', 'an included category and episode is the resource its own path answers', async ({ media, rule }) => {
    // A type and id pair identifies one resource (JSON:API, Identification): included under another resource, it is
    // the same one GET /{type}/{id} answers. Two of each type, so attributes swapped between neighbours are seen.
    const { doc } = await read(media.anonymous, rule, '/anime', { include: 'categories,episodes', 'page[limit]': 3 });
    const included = (doc.included ?? []).filter((r) => r.type === 'categories' || r.type === 'episodes');
    const picked = ['categories', 'episodes'].flatMap((type) => included.filter((r) => r.type === type).slice(0, 2));
    precondition(rule, media.target, picked.length >= 3, `included categories and episodes of three anime (found ${picked.length})`);
    for (const resource of picked) {
      const own = (await read(media.anonymous, rule, `/${resource.type}/${resource.id}`)).doc.data as JsonApiResource | null;
      const stable = (r: JsonApiResource | null) =>
        Object.fromEntries(STABLE_ATTRIBUTES.filter((name) => name in (resource.attributes ?? {})).map((name) => [name, r?.attributes?.[name]]));
      expect(
        stable(resource),
        says(rule, `${resource.type}/${resource.id} included under /anime is the one GET /${resource.type}/${resource.id} answers`),
      ).toEqual(stable(own));
    }
  }),
);

test(
  ...verifies('media.jsonapi.self-links', 'links.self of each resource type the suites read, and a document links.self', async ({ media, rule }) => {
    const reads = [
      await read(media.anonymous, rule, '/anime', { include: 'categories,episodes', 'page[limit]': 1 }),
      await read(media.anonymous, rule, '/manga', { 'page[limit]': 1 }),
      await read(media.anonymous, rule, '/anime/1', { include: 'mediaRelationships' }),
    ];
    const library = await libraryRead(media, rule, 'user');
    if (library) reads.push(library);
    // One resource of each type: what links.self of that type does, one of them shows.
    const byType = new Map<string, { r: Read; resource: JsonApiResource; self: string }>();
    for (const r of reads) {
      for (const resource of [...resourcesOf(r.doc), ...(r.doc.included ?? [])]) {
        const self = linkOf(resource.links, 'self');
        if (self !== undefined && !byType.has(resource.type)) byType.set(resource.type, { r, resource, self });
      }
    }
    precondition(rule, media.target, byType.size >= 3, `resources of several types with links.self (found: ${[...byType.keys()].join(', ') || 'none'})`);
    for (const { r, resource, self } of byType.values()) {
      const url = followable(self, r.url, media.apiUrl, rule, `links.self of ${resource.type}/${resource.id}`);
      const res = await r.client.send({ method: 'GET', url });
      expectStatus(res, 200, rule);
      const data = jsonApiOf(res, rule).data as JsonApiResource | null;
      expect(linkageKeys(data), says(rule, `links.self of ${resource.type}/${resource.id} (${self}) answers that resource`)).toEqual([
        `${resource.type}/${resource.id}`,
      ]);
    }
    // A document's links.self, when a provider gives one, is the request that generated it: the same primary data.
    for (const r of reads) {
      const self = linkOf(r.doc.links, 'self');
      if (self === undefined) continue;
      const res = await r.client.send({ method: 'GET', url: followable(self, r.url, media.apiUrl, rule, `the document links.self of ${r.url}`) });
      expectStatus(res, 200, rule);
      expect(linkageKeys(jsonApiOf(res, rule).data), says(rule, `the document links.self of ${r.url} answers the same primary data`)).toEqual(
        linkageKeys(r.doc.data),
      );
    }
  }),
);

test(
  ...verifies('media.relationships.self-link', 'to-many and to-one relationships of anime, manga, episodes and library entries', async ({ media, rule }) => {
    const kinds = new Set<string>();
    for (const { read: r, parent, name } of await relationshipSample(media, rule)) {
      const relationship = parent.relationships?.[name];
      const self = linkOf(relationship?.links, 'self');
      if (!relationship || !('data' in relationship) || self === undefined) continue;
      const what = `links.self of ${parent.type}/${parent.id}.${name}`;
      const res = await r.client.send({ method: 'GET', url: followable(self, r.url, media.apiUrl, rule, what) });
      expectStatus(res, 200, rule);
      expectSameLinkage(jsonApiOf(res, rule), relationship.data, rule, what);
      kinds.add(Array.isArray(relationship.data) ? 'to-many' : 'to-one');
    }
    precondition(
      rule,
      media.target,
      kinds.size === 2,
      `included to-many and to-one relationships with links.self (followed: ${[...kinds].join(', ') || 'none'})`,
    );
  }),
);

test(
  ...verifies('media.relationships.related-link', 'to-many and to-one relationships of anime, manga, episodes and library entries', async ({ media, rule }) => {
    const kinds = new Set<string>();
    for (const { read: r, parent, name } of await relationshipSample(media, rule)) {
      const relationship = parent.relationships?.[name];
      const related = linkOf(relationship?.links, 'related');
      if (!relationship || !('data' in relationship) || related === undefined) continue;
      const what = `links.related of ${parent.type}/${parent.id}.${name}`;
      const res = await r.client.send({ method: 'GET', url: followable(related, r.url, media.apiUrl, rule, what) });
      expectStatus(res, 200, rule);
      const doc = jsonApiOf(res, rule);
      expectSameLinkage(doc, relationship.data, rule, what);
      const type = NAMED_TYPES[parent.type]?.[name];
      if (type !== undefined) {
        for (const resource of resourcesOf(doc)) expect(resource.type, says(rule, `${what} answers ${type}, as the relationship table names`)).toBe(type);
      }
      kinds.add(Array.isArray(relationship.data) ? 'to-many' : 'to-one');
    }
    precondition(
      rule,
      media.target,
      kinds.size === 2,
      `included to-many and to-one relationships with links.related (followed: ${[...kinds].join(', ') || 'none'})`,
    );
  }),
);

test(
  ...verifies('media.jsonapi.full-linkage', 'included holds what the linkage names: a list, a single anime and a nested path', async ({ media, rule }) => {
    let included = 0;
    for (const [path, query] of [
      ['/anime', { include: 'categories', 'page[limit]': 3 }],
      ['/anime/1', { include: 'categories,episodes,mediaRelationships.destination' }],
      ['/episodes', { include: 'media', 'page[limit]': 5 }],
    ] as const) {
      const { doc } = await read(media.anonymous, rule, path, query);
      const all = [...resourcesOf(doc), ...(doc.included ?? [])];
      const named = new Set(all.flatMap((r) => Object.values(r.relationships ?? {}).flatMap((rel) => linkageKeys(rel.data))));
      const unnamed = (doc.included ?? []).map((r) => `${r.type}/${r.id}`).filter((key) => !named.has(key));
      expect(unnamed, says(rule, `GET ${path}?include=${query.include}: included resources no relationship of the document names`)).toEqual([]);
      included += doc.included?.length ?? 0;
    }
    precondition(rule, media.target, included > 0, 'included resources in the documents read');
  }),
);

test(
  ...verifies('media.errors.status-agrees', 'a 404, three 400s and an unknown route', async ({ media, rule }) => {
    let stated = 0;
    for (const [path, query] of [
      ['/anime/0', {}],
      ['/anime', { 'page[limit]': 'x' }],
      ['/anime', { 'filter[foo_bar]': '1' }],
      ['/library-entries', {}],
      ['/no-such-collection', {}],
    ] as const) {
      const res = await media.anonymous.send({ method: 'GET', path, query, retry: false });
      expect(res.status, says(rule, `${path} ${JSON.stringify(query)} must be refused`)).toBeGreaterThanOrEqual(400);
      const errors = errorsOf(res, rule);
      const statuses = errors.map((e) => e.status).filter((s) => s !== undefined);
      const expected = statuses.map(() => (errors.length === 1 ? String(res.status) : `${String(res.status)[0]}xx`));
      const got = errors.length === 1 ? statuses.map(String) : statuses.map((s) => `${String(s)[0]}xx`);
      expect(got, says(rule, `${res.method} ${res.url} answered ${res.status}: its error objects' status`)).toEqual(expected);
      stated += statuses.length;
    }
    // Error objects without status say nothing to disagree with: the members of the error object are "not shown".
    precondition(rule, media.target, stated > 0, 'error objects that carry a status');
  }),
);
