import { expect, test, verifies, type MediaUnderTest } from '../fixtures/mediaFixtures.ts';
import { errorsOf, expectStatus, followable, jsonApiOf, linkageKeys, linkOf, resourcesOf, type JsonApiResource } from '../fixtures/mediaChecks.ts';
import { precondition, says } from '../../src/testing/ruleTest.ts';
import type { Rule } from '../../src/rules/Rule.ts';
import type { MediaResponse } from '../../src/clients/media/types.ts';
import { MEDIA_CONTRACT } from '../../src/rules/mediaContract.ts';

const MEDIA_TYPE = MEDIA_CONTRACT.mediaType;

// Writes, special routes and policies (twin: each test starts from the seed).

/** The signed-in user's id, as the npm client's self() finds it. */
async function selfId(media: MediaUnderTest, rule: Rule): Promise<string> {
  const res = await media.signedIn!.send({ method: 'GET', path: '/users', query: { 'filter[self]': 'true' } });
  expectStatus(res, 200, rule);
  const id = resourcesOf(jsonApiOf(res, rule))[0]?.id;
  expect(id, says(rule, 'GET /users?filter[self]=true names the signed-in user')).toBeDefined();
  return id!;
}

/** An anime the user's library lacks, with room for a few episodes of progress: a test adds it, then removes it. */
async function animeToAdd(media: MediaUnderTest, rule: Rule, userId: string): Promise<string> {
  const client = media.signedIn!;
  const anime = resourcesOf(jsonApiOf(await client.send({ method: 'GET', path: '/anime', query: { 'page[limit]': 10 } }), rule));
  for (const { id, attributes } of anime) {
    const episodes = attributes?.['episodeCount'];
    if (typeof episodes === 'number' && episodes < 3) continue;
    const entries = await client.send({
      method: 'GET',
      path: '/library-entries',
      query: { 'filter[userId]': userId, 'filter[animeId]': id, 'page[limit]': 1 },
    });
    expectStatus(entries, 200, rule);
    if (resourcesOf(jsonApiOf(entries, rule)).length === 0) return id;
  }
  precondition(rule, media.target, false, "an anime of at least 3 episodes among the first 10 that the signed-in user's library lacks");
  throw new Error('unreachable: precondition skips or fails');
}

/** A write the provider says it carried out: any 2xx (the codes themselves are the field notes'). */
function expectDone(res: MediaResponse, rule: Rule, what: string): void {
  expect(res.status >= 200 && res.status < 300, says(rule, `${what}: ${res.method} ${res.url} answered ${res.status}. Body: ${res.text.slice(0, 300)}`)).toBe(
    true,
  );
}

/** POST /library-entries as the signed-in user: the anime in their library with `attributes`; the answer as it came. */
function postEntry(media: MediaUnderTest, userId: string, animeId: string, attributes: Record<string, unknown>): Promise<MediaResponse> {
  return media.signedIn!.send({
    method: 'POST',
    path: '/library-entries',
    body: {
      data: {
        type: 'libraryEntries',
        attributes,
        relationships: { anime: { data: { type: 'anime', id: animeId } }, user: { data: { type: 'users', id: userId } } },
      },
    },
  });
}

/** Adds the anime to the user's library with `attributes`; the new entry's id. */
async function addEntry(media: MediaUnderTest, rule: Rule, userId: string, animeId: string, attributes: Record<string, unknown>): Promise<string> {
  const created = await postEntry(media, userId, animeId, attributes);
  expectDone(created, rule, 'creating a library entry');
  const id = (jsonApiOf(created, rule).data as JsonApiResource | null)?.id;
  expect(typeof id, says(rule, 'the created entry comes back with its id')).toBe('string');
  return id!;
}

/** GET /library-entries/{id} as its owner: the entry's attributes. */
async function readEntry(media: MediaUnderTest, rule: Rule, id: string): Promise<Record<string, unknown>> {
  const res = await media.signedIn!.send({ method: 'GET', path: `/library-entries/${id}` });
  expectStatus(res, 200, rule);
  return (jsonApiOf(res, rule).data as JsonApiResource).attributes ?? {};
}

test(
  ...verifies('media.writes.update-applied', 'PATCH, then PUT, a library entry, each read back', async ({ media, rule }) => {
    const userId = await selfId(media, rule);
    const id = await addEntry(media, rule, userId, await animeToAdd(media, rule, userId), { status: 'planned', progress: 0 });
    let expected: Record<string, unknown> = { status: 'planned', progress: 0 };
    for (const [method, attributes] of [
      ['PATCH', { status: 'current', progress: 1 }],
      // "update (same as PATCH)".
      ['PUT', { progress: 2, notes: 'written by the contract harness' }],
    ] as const) {
      const answer = await media.signedIn!.send({ method, path: `/library-entries/${id}`, body: { data: { type: 'libraryEntries', id, attributes } } });
      expectDone(answer, rule, `updating ${JSON.stringify(attributes)}`);
      expected = { ...expected, ...attributes };
      // JSON:API: an update answered with a document carries the resource as it now is (204 carries none).
      const returned = answer.text ? (jsonApiOf(answer, rule).data as JsonApiResource | null | undefined) : undefined;
      if (returned) expect(returned.attributes, says(rule, `the ${method} answer shows the entry updated`)).toMatchObject(expected);
      expect(
        await readEntry(media, rule, id),
        says(rule, `after ${method} ${JSON.stringify(attributes)} answered ${answer.status}, GET shows the entry updated`),
      ).toMatchObject(expected);
    }
    expectDone(await media.signedIn!.send({ method: 'DELETE', path: `/library-entries/${id}` }), rule, 'removing the entry again');
  }),
);

test(
  ...verifies('media.writes.create-destroy-applied', 'POST a library entry, read it, DELETE it, read it again', async ({ media, rule }) => {
    const userId = await selfId(media, rule);
    const attributes = { status: 'on_hold', progress: 1 };
    const id = await addEntry(media, rule, userId, await animeToAdd(media, rule, userId), attributes);
    expect(await readEntry(media, rule, id), says(rule, 'GET shows the created entry with the attributes sent')).toMatchObject(attributes);
    expectDone(await media.signedIn!.send({ method: 'DELETE', path: `/library-entries/${id}` }), rule, 'destroying the entry');
    const gone = await media.signedIn!.send({ method: 'GET', path: `/library-entries/${id}`, retry: false });
    expect(gone.status, says(rule, `GET of the destroyed entry answered ${gone.status}, not 404`)).toBe(404);
    // Gone for every reader: an anonymous one, and the owner's list of the library.
    const anonymous = await media.anonymous.send({ method: 'GET', path: `/library-entries/${id}`, retry: false });
    expect(anonymous.status, says(rule, `an anonymous GET of the destroyed entry answered ${anonymous.status}, not 404`)).toBe(404);
    const listed = await media.signedIn!.send({ method: 'GET', path: '/library-entries', query: { 'filter[userId]': userId, 'filter[id]': id } });
    expectStatus(listed, 200, rule);
    expect(
      resourcesOf(jsonApiOf(listed, rule)).map((r) => r.id),
      says(rule, "the destroyed entry is not in its owner's library"),
    ).toEqual([]);
  }),
);

test(
  ...verifies('media.writes.answer-is-resource', 'a created library entry, read back through its links.self, then updated', async ({ media, rule }) => {
    const client = media.signedIn!;
    const userId = await selfId(media, rule);
    const attributes = { status: 'planned', progress: 0 };
    const created = await postEntry(media, userId, await animeToAdd(media, rule, userId), attributes);
    expectDone(created, rule, 'creating a library entry');
    const entry = (created.text ? jsonApiOf(created, rule).data : undefined) as JsonApiResource | null | undefined;
    expect(entry && typeof entry === 'object', says(rule, `the create answered ${created.status} without the created resource as data`)).toBe(true);
    expect(entry!.type, says(rule, 'the create answers the type posted')).toBe('libraryEntries');
    expect(entry!.attributes, says(rule, 'the create answers the attributes sent')).toMatchObject(attributes);
    // JSON:API, Creating Resources: a links.self beside a Location names the same URL; and it reads back the same resource.
    const self = linkOf(entry!.links, 'self');
    if (self !== undefined && created.headers.location)
      expect(self, says(rule, 'links.self of the created resource is its Location')).toBe(created.headers.location);
    if (self !== undefined) {
      const back = await client.send({ method: 'GET', url: followable(self, created.url, media.apiUrl, rule, 'links.self of the created entry') });
      expectStatus(back, 200, rule);
      const read = jsonApiOf(back, rule).data as JsonApiResource | null;
      expect(linkageKeys(read), says(rule, 'links.self of the created entry reads back that entry')).toEqual([`libraryEntries/${entry!.id}`]);
      expect(read!.attributes, says(rule, 'links.self of the created entry reads back the attributes sent')).toMatchObject(attributes);
    }
    const change = { status: 'current', progress: 1 };
    const updated = await client.send({
      method: 'PATCH',
      path: `/library-entries/${entry!.id}`,
      body: { data: { type: 'libraryEntries', id: entry!.id, attributes: change } },
    });
    expectDone(updated, rule, 'updating the entry');
    const after = (updated.text ? jsonApiOf(updated, rule).data : undefined) as JsonApiResource | null | undefined;
    expect(after && typeof after === 'object', says(rule, `the update answered ${updated.status} without the resource as data`)).toBe(true);
    expect(linkageKeys(after), says(rule, 'the update answers the entry it updated')).toEqual([`libraryEntries/${entry!.id}`]);
    expect(after!.attributes, says(rule, 'the update answers the values sent')).toMatchObject(change);
    expectDone(await client.send({ method: 'DELETE', path: `/library-entries/${entry!.id}` }), rule, 'removing the entry again');
  }),
);

test(
  ...verifies('media.writes.status-codes', 'create 201 with Location, update 200, destroy 204', async ({ media, rule }) => {
    const client = media.signedIn!;
    // The signed-in user's own entry, on an anime their library lacks: on live, whoever the token's user is.
    const userId = await selfId(media, rule);
    const animeId = await animeToAdd(media, rule, userId);
    const created = await postEntry(media, userId, animeId, { status: 'planned', progress: 0 });
    expectStatus(created, 201, rule);
    expect(created.headers.location, says(rule, '201 carries Location')).toBeTruthy();
    const id = (jsonApiOf(created, rule).data as { id: string }).id;
    const updated = await client.send({
      method: 'PATCH',
      path: `/library-entries/${id}`,
      body: { data: { type: 'libraryEntries', id, attributes: { progress: 3 } } },
    });
    expectStatus(updated, 200, rule);
    const destroyed = await client.send({ method: 'DELETE', path: `/library-entries/${id}` });
    expectStatus(destroyed, 204, rule);
    expect(destroyed.text, says(rule, '204 has no body')).toBe('');
  }),
);

test(
  ...verifies(
    'media.jsonapi.content-type-parameters-415',
    'a create and an update sent as application/vnd.api+json with a parameter',
    async ({ media, rule }) => {
      const witness = await refusalWitness(media, rule);
      const { post, patch } = await witness.writtenAs(`${MEDIA_TYPE}; version=1`);
      // Read back before judging the statuses: what a provider carried out is removed either way.
      await witness.unchanged(`after a POST and a PATCH with a media type parameter answered ${post.status} and ${patch.status}`);
      expectStatus(post, 415, rule);
      expectStatus(patch, 415, rule);
    },
  ),
);

test(
  ...verifies('media.writes.media-type-415', 'a write sent as application/json', async ({ media, rule }) => {
    const res = await media.signedIn!.send({
      method: 'POST',
      path: '/library-entries',
      rawBody: JSON.stringify({ data: { type: 'libraryEntries', attributes: {} } }),
      contentType: 'application/json',
      retry: false,
    });
    expectStatus(res, 415, rule);
    errorsOf(res, rule);
  }),
);

test(
  ...verifies(
    'media.writes.forbidden-403',
    "changing another user's library entry",
    async ({ media, rule }) => {
      const bob = await media.twin!.signIn('adultFiltered');
      const id = media.twin!.seed.aliceLibraryEntryIds[0];
      const res = await bob.send({
        method: 'PATCH',
        path: `/library-entries/${id}`,
        body: { data: { type: 'libraryEntries', id, attributes: { progress: 9 } } },
        retry: false,
      });
      expectStatus(res, 403, rule);
      expect(errorsOf(res, rule)[0]?.title, says(rule, 'Pundit title')).toBe('Update Forbidden');
    },
    { needsTwin: "needs another user's entry, which only the twin seeds by id" },
  ),
);

test(
  ...verifies('media.writes.validation-422', 'an invalid status', async ({ media, rule }) => {
    const client = media.signedIn!;
    const res = await client.send({
      method: 'POST',
      path: '/library-entries',
      body: { data: { type: 'libraryEntries', attributes: { status: 'not-a-status' }, relationships: { anime: { data: { type: 'anime', id: '21' } } } } },
      retry: false,
    });
    if (res.status === 201) await client.send({ method: 'DELETE', path: `/library-entries/${(jsonApiOf(res, rule).data as { id: string }).id}` });
    expectStatus(res, 422, rule);
    const [error] = errorsOf(res, rule);
    expect(error, says(rule, 'code 100 and a pointer to the attribute')).toMatchObject({ code: '100', source: { pointer: '/data/attributes/status' } });
  }),
);

// A write does what it says and nothing else. Each test below reads back, besides what the write asked for, the rest:
// the signed-in user's library count (meta.count, filtered to their entries: what can be counted reliably), the
// attributes and relationships not sent, the timestamps, the entries a bulk operation did not name. On live this
// assumes no other writer to that library during the run (docs/live.md).

/** meta.count of the signed-in user's library. */
async function libraryCount(media: MediaUnderTest, rule: Rule, userId: string): Promise<number> {
  const res = await media.signedIn!.send({ method: 'GET', path: '/library-entries', query: { 'filter[userId]': userId, 'page[limit]': 1 } });
  expectStatus(res, 200, rule);
  const count = jsonApiOf(res, rule).meta?.['count'];
  expect(typeof count, says(rule, `GET /library-entries?filter[userId]=${userId} answered no numeric meta.count`)).toBe('number');
  return count as number;
}

/** `n` anime among the first 20 (of at least 3 episodes) that the user's library lacks, found with one lookup. */
async function animeLacking(media: MediaUnderTest, rule: Rule, userId: string, n: number): Promise<string[]> {
  const client = media.signedIn!;
  const anime = resourcesOf(jsonApiOf(await client.send({ method: 'GET', path: '/anime', query: { 'page[limit]': 20 } }), rule))
    .filter(({ attributes }) => !(typeof attributes?.['episodeCount'] === 'number' && attributes['episodeCount'] < 3))
    .map(({ id }) => id);
  const held = await client.send({
    method: 'GET',
    path: '/library-entries',
    query: { 'filter[userId]': userId, 'filter[animeId]': anime.join(','), include: 'anime', 'page[limit]': 20 },
  });
  expectStatus(held, 200, rule);
  const taken = new Set(resourcesOf(jsonApiOf(held, rule)).flatMap((entry) => linkageKeys(entry.relationships?.['anime']?.data)));
  const lacking = anime.filter((id) => !taken.has(`anime/${id}`)).slice(0, n);
  precondition(rule, media.target, lacking.length === n, `${n} anime among the first 20, of at least 3 episodes, that the signed-in user's library lacks`);
  return lacking;
}

interface WholeEntry {
  attributes: Record<string, unknown>;
  /** `type/id` of each relationship that carries data: the included user and anime, and any other given with data. */
  linkage: Record<string, string[]>;
}

/** GET /library-entries/{id}?include=user,anime as its owner: every attribute, and the linkage of its relationships. */
async function readWhole(media: MediaUnderTest, rule: Rule, id: string): Promise<WholeEntry> {
  const res = await media.signedIn!.send({ method: 'GET', path: `/library-entries/${id}`, query: { include: 'user,anime' } });
  expectStatus(res, 200, rule);
  const entry = jsonApiOf(res, rule).data as JsonApiResource | null;
  expect(entry && typeof entry === 'object', says(rule, `GET /library-entries/${id} answered no resource`)).toBe(true);
  const linkage: Record<string, string[]> = {};
  for (const [name, relationship] of Object.entries(entry!.relationships ?? {})) {
    if (relationship && typeof relationship === 'object' && 'data' in relationship) linkage[name] = linkageKeys(relationship.data);
  }
  return { attributes: entry!.attributes ?? {}, linkage };
}

/** Timestamps the real service stamps from what an update sends (progress, status): they may move, never to null. */
const STAMPED = new Set(['progressedAt', 'startedAt', 'finishedAt']);
/** Relationships the server resolves from the progress (the current and the next episode). */
const RESOLVED = new Set(['unit', 'nextUnit']);

const instant = (value: unknown) => (typeof value === 'string' ? Date.parse(value) : Number.NaN);

/**
 * What an update was not sent reads back as it was (JSON:API: missing attributes and relationships as if included with
 * their current values): every other attribute, createdAt, the linkage of every relationship given with data both
 * times; updatedAt does not go back; a stamped timestamp may move, but not to null.
 */
function expectTheRestKept(before: WholeEntry, after: WholeEntry, sent: readonly string[], rule: Rule, where: string): void {
  const names = new Set([...Object.keys(before.attributes), ...Object.keys(after.attributes)]);
  for (const name of names) {
    if (sent.includes(name)) continue;
    const [was, is] = [before.attributes[name], after.attributes[name]];
    const moved = `${where}: ${name}, not sent, was ${JSON.stringify(was)} and is now ${JSON.stringify(is)}`;
    if (name === 'updatedAt') expect(instant(is) >= instant(was), says(rule, `${where}: updatedAt went back from ${String(was)} to ${String(is)}`)).toBe(true);
    else if (STAMPED.has(name)) expect(was !== null && was !== undefined && (is === null || is === undefined), says(rule, moved)).toBe(false);
    else expect(is, says(rule, moved)).toEqual(was);
  }
  for (const name of ['user', 'anime']) expect(after.linkage[name], says(rule, `${where}: the included ${name} carries its linkage`)).toBeDefined();
  for (const [name, was] of Object.entries(before.linkage)) {
    const is = after.linkage[name];
    if (RESOLVED.has(name) || is === undefined) continue;
    expect(is, says(rule, `${where}: relationship ${name}, not sent, named ${JSON.stringify(was)} and now ${JSON.stringify(is)}`)).toEqual(was);
  }
}

test(
  ...verifies(
    'media.writes.create-adds-one',
    "a library entry created, then deleted: the user's library count one more, then as it was",
    async ({ media, rule }) => {
      const userId = await selfId(media, rule);
      const [animeId] = await animeLacking(media, rule, userId, 1);
      const before = await libraryCount(media, rule, userId);
      const id = await addEntry(media, rule, userId, animeId!, { status: 'planned', progress: 0 });
      const afterCreate = await libraryCount(media, rule, userId);
      expect(afterCreate, says(rule, `the library count went from ${before} to ${afterCreate} for one create`)).toBe(before + 1);
      expectDone(await media.signedIn!.send({ method: 'DELETE', path: `/library-entries/${id}` }), rule, 'deleting the entry');
      const afterDelete = await libraryCount(media, rule, userId);
      expect(afterDelete, says(rule, `the library count went from ${afterCreate} to ${afterDelete} for one DELETE`)).toBe(before);
    },
  ),
);

test(
  ...verifies(
    'media.writes.create-linkage-as-sent',
    'a library entry created for the user and an anime reads back linked to those',
    async ({ media, rule }) => {
      const userId = await selfId(media, rule);
      const [animeId] = await animeLacking(media, rule, userId, 1);
      const created = await postEntry(media, userId, animeId!, { status: 'planned', progress: 0 });
      expectDone(created, rule, 'creating a library entry');
      const entry = jsonApiOf(created, rule).data as JsonApiResource | null;
      expect(typeof entry?.id, says(rule, 'the created entry comes back with its id')).toBe('string');
      const wanted: Record<string, string[]> = { user: [`users/${userId}`], anime: [`anime/${animeId!}`] };
      // The answer, where its relationships carry data, names the same.
      for (const [name, keys] of Object.entries(wanted)) {
        const relationship = entry!.relationships?.[name];
        if (relationship && 'data' in relationship) expect(linkageKeys(relationship.data), says(rule, `the create answers ${name} linkage`)).toEqual(keys);
      }
      const { linkage } = await readWhole(media, rule, entry!.id);
      for (const [name, keys] of Object.entries(wanted)) {
        expect(
          linkage[name],
          says(rule, `GET /library-entries/${entry!.id}?include=user,anime: ${name} names ${JSON.stringify(linkage[name])}, not the ${keys[0]} posted`),
        ).toEqual(keys);
      }
      expectDone(await media.signedIn!.send({ method: 'DELETE', path: `/library-entries/${entry!.id}` }), rule, 'removing the entry again');
    },
  ),
);

test(
  ...verifies('media.writes.update-keeps-the-rest', 'PATCH, then PUT, of part of a library entry: the rest as it was', async ({ media, rule }) => {
    const userId = await selfId(media, rule);
    const [animeId] = await animeLacking(media, rule, userId, 1);
    const id = await addEntry(media, rule, userId, animeId!, { status: 'planned', progress: 0, notes: 'kept by the contract harness' });
    const count = await libraryCount(media, rule, userId);
    let before = await readWhole(media, rule, id);
    for (const [method, attributes] of [
      ['PATCH', { status: 'current', progress: 1 }],
      ['PUT', { progress: 2 }],
    ] as const) {
      const answer = await media.signedIn!.send({ method, path: `/library-entries/${id}`, body: { data: { type: 'libraryEntries', id, attributes } } });
      expectDone(answer, rule, `updating ${JSON.stringify(attributes)}`);
      const after = await readWhole(media, rule, id);
      expectTheRestKept(before, after, Object.keys(attributes), rule, `GET after ${method} ${JSON.stringify(attributes)}`);
      before = after;
    }
    const countAfter = await libraryCount(media, rule, userId);
    expect(countAfter, says(rule, `the library count went from ${count} to ${countAfter} for two updates`)).toBe(count);
    expectDone(await media.signedIn!.send({ method: 'DELETE', path: `/library-entries/${id}` }), rule, 'removing the entry again');
  }),
);

test(
  ...verifies(
    'media.writes.bulk-applies-to-named',
    'PATCH _bulk naming two of three new entries: those two changed, the third as it was',
    async ({ media, rule }) => {
      const client = media.signedIn!;
      const userId = await selfId(media, rule);
      const ids: string[] = [];
      for (const animeId of await animeLacking(media, rule, userId, 3))
        ids.push(await addEntry(media, rule, userId, animeId, { status: 'planned', progress: 0 }));
      const [first, second, other] = ids as [string, string, string];
      const count = await libraryCount(media, rule, userId);
      const otherBefore = await readWhole(media, rule, other);
      const change = { status: 'on_hold' };
      const answer = await client.send({
        method: 'PATCH',
        path: '/library-entries/_bulk',
        query: { 'filter[id]': `${first},${second}` },
        body: { data: { type: 'libraryEntries', attributes: change } },
      });
      expectDone(answer, rule, `a bulk update of entries ${first} and ${second}`);
      const listed = resourcesOf(jsonApiOf(answer, rule)).map((entry) => entry.id);
      expect([...listed].sort(), says(rule, `the bulk answer lists entries ${JSON.stringify(listed)}, not the two named`)).toEqual([first, second].sort());
      for (const id of [first, second]) {
        expect((await readWhole(media, rule, id)).attributes, says(rule, `entry ${id}, named by the bulk update, reads back changed`)).toMatchObject(change);
      }
      const otherAfter = await readWhole(media, rule, other);
      expectTheRestKept(otherBefore, otherAfter, [], rule, `entry ${other}, not named by the bulk update`);
      expect(otherAfter.attributes['updatedAt'], says(rule, `entry ${other}, not named by the bulk update, was updated`)).toEqual(
        otherBefore.attributes['updatedAt'],
      );
      const countAfter = await libraryCount(media, rule, userId);
      expect(countAfter, says(rule, `the library count went from ${count} to ${countAfter} for a bulk update`)).toBe(count);
      for (const id of ids) expectDone(await client.send({ method: 'DELETE', path: `/library-entries/${id}` }), rule, 'removing the entries again');
    },
  ),
);

/**
 * What a refused write must leave as it was: the library count, the entries of the anime a refused create names (none),
 * and an entry of the test's own that the refused update names. Entries a provider made anyway are deleted, then fail.
 */
async function refusalWitness(media: MediaUnderTest, rule: Rule) {
  const userId = await selfId(media, rule);
  const [forCreate, forEntry] = (await animeLacking(media, rule, userId, 2)) as [string, string];
  const entry = await addEntry(media, rule, userId, forEntry, { status: 'planned', progress: 0, notes: 'kept by the contract harness' });
  const count = await libraryCount(media, rule, userId);
  const before = await readWhole(media, rule, entry);
  return {
    userId,
    forCreate,
    entry,
    /** A valid create (of the anime the witness lacks) and a valid update (of its entry), each sent with this Content-Type. */
    async writtenAs(contentType: string): Promise<{ post: MediaResponse; patch: MediaResponse }> {
      const sent = (document: unknown) => ({ rawBody: JSON.stringify(document), contentType, retry: false });
      const post = await media.signedIn!.send({ method: 'POST', path: '/library-entries', ...sent(createDocument(userId, forCreate, { status: 'current' })) });
      const update = { data: { type: 'libraryEntries', id: entry, attributes: { status: 'dropped', notes: 'refused 415' } } };
      const patch = await media.signedIn!.send({ method: 'PATCH', path: `/library-entries/${entry}`, ...sent(update) });
      return { post, patch };
    },
    async unchanged(when: string): Promise<void> {
      const made = await media.signedIn!.send({
        method: 'GET',
        path: '/library-entries',
        query: { 'filter[userId]': userId, 'filter[animeId]': forCreate },
      });
      expectStatus(made, 200, rule);
      const strays = resourcesOf(jsonApiOf(made, rule)).map((r) => r.id);
      for (const id of strays) await media.signedIn!.send({ method: 'DELETE', path: `/library-entries/${id}` });
      expect(strays, says(rule, `${when}: the library holds an entry for anime ${forCreate}, which only the refused create named`)).toEqual([]);
      const countAfter = await libraryCount(media, rule, userId);
      expect(countAfter, says(rule, `${when}: the library count went from ${count} to ${countAfter}`)).toBe(count);
      const after = await readWhole(media, rule, entry);
      expectTheRestKept(before, after, [], rule, `${when}: entry ${entry}, named by the refused update`);
      expect(after.attributes['updatedAt'], says(rule, `${when}: entry ${entry}, named by the refused update, was updated`)).toEqual(
        before.attributes['updatedAt'],
      );
    },
  };
}

/**
 * A write answered as refused: on the twins with the status the field notes give; on a real provider any 4xx but 429
 * refuses (which one is the field notes'), and an answer that takes the write leaves the rule unverified by this test.
 */
function expectRefusal(media: MediaUnderTest, res: MediaResponse, status: number, rule: Rule, what: string): void {
  if (media.target === 'twin') return expectStatus(res, status, rule);
  precondition(rule, media.target, res.status < 200 || res.status >= 300, `a provider that refuses ${what} (the field notes: ${status})`);
  expect(res.status >= 400 && res.status < 500 && res.status !== 429, says(rule, `${what} answered ${res.status}, neither taken nor refused`)).toBe(true);
}

/** A valid create of a library entry for `animeId`, and a valid change to `entry`, each as a JSON:API document. */
const createDocument = (userId: string, animeId: string, attributes: Record<string, unknown>) => ({
  data: {
    type: 'libraryEntries',
    attributes,
    relationships: { anime: { data: { type: 'anime', id: animeId } }, user: { data: { type: 'users', id: userId } } },
  },
});

test(
  ...verifies('media.writes.refused-changes-nothing', '415: a create and an update sent as application/json', async ({ media, rule }) => {
    const witness = await refusalWitness(media, rule);
    const { post, patch } = await witness.writtenAs('application/json');
    expectRefusal(media, post, 415, rule, 'a create sent as application/json');
    expectRefusal(media, patch, 415, rule, 'an update sent as application/json');
    await witness.unchanged(`after a POST and a PATCH refused ${post.status} and ${patch.status}`);
  }),
);

test(
  ...verifies(
    'media.writes.refused-changes-nothing',
    '422: a create and an update, each with an invalid status beside valid members',
    async ({ media, rule }) => {
      const client = media.signedIn!;
      const witness = await refusalWitness(media, rule);
      const invalid = { status: 'not-a-status', notes: 'refused 422', progress: 1 };
      const post = await client.send({
        method: 'POST',
        path: '/library-entries',
        body: createDocument(witness.userId, witness.forCreate, invalid),
        retry: false,
      });
      expectRefusal(media, post, 422, rule, 'a create with an invalid status');
      const patch = await client.send({
        method: 'PATCH',
        path: `/library-entries/${witness.entry}`,
        body: { data: { type: 'libraryEntries', id: witness.entry, attributes: invalid } },
        retry: false,
      });
      expectRefusal(media, patch, 422, rule, 'an update with an invalid status');
      await witness.unchanged('after a POST and a PATCH refused 422');
    },
  ),
);

test(
  ...verifies('media.special.trending', 'anime and manga, and a namespace that does not exist', async ({ media, rule }) => {
    for (const ns of ['anime', 'manga']) {
      const res = await media.anonymous.send({ method: 'GET', path: `/trending/${ns}` });
      expectStatus(res, 200, rule);
      const doc = jsonApiOf(res, rule);
      expect(Array.isArray(doc.data), says(rule, 'trending answers {data: [...]}')).toBe(true);
      for (const r of doc.data as { type: string }[]) expect(r.type).toBe(ns);
    }
    expectStatus(await media.anonymous.send({ method: 'GET', path: '/trending/books', retry: false }), 400, rule);
  }),
);

test(
  ...verifies('media.special.invites', 'accept, decline and revoke, each by the right person', async ({ media, rule }) => {
    const twin = media.twin!;
    const [acceptId, declineId, revokeId] = twin.seed.pendingInviteIds;
    const carol = await twin.signIn('other');
    const bob = await twin.signIn('adultFiltered');
    const alice = media.signedIn!;
    expectStatus(await bob.send({ method: 'POST', path: `/group-invites/${acceptId}/_accept`, retry: false }), 403, rule);
    const accepted = await carol.send({ method: 'POST', path: `/group-invites/${acceptId}/_accept` });
    expectStatus(accepted, 201, rule);
    expect(JSON.parse(accepted.text), says(rule, '_accept answers {}')).toEqual({});
    const declined = await carol.send({ method: 'POST', path: `/group-invites/${declineId}/_decline` });
    expectStatus(declined, 200, rule);
    const revoked = await alice.send({ method: 'POST', path: `/group-invites/${revokeId}/_revoke` });
    expectStatus(revoked, 200, rule);
  }),
);

test(
  ...verifies('media.special.bulk-library-entries', 'PATCH _bulk with filter[id]', async ({ media, rule }) => {
    const ids = media.twin!.seed.aliceLibraryEntryIds.slice(0, 2);
    const res = await media.signedIn!.send({
      method: 'PATCH',
      path: '/library-entries/_bulk',
      query: { 'filter[id]': ids.join(',') },
      body: { data: { type: 'libraryEntries', attributes: { status: 'completed' } } },
    });
    expectStatus(res, 200, rule);
    for (const id of ids) {
      const entry = jsonApiOf(await media.signedIn!.send({ method: 'GET', path: `/library-entries/${id}` }), rule).data as JsonApiResource;
      expect(entry.attributes?.status, says(rule, `entry ${id} was updated`)).toBe('completed');
    }
  }),
);
