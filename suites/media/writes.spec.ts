import { expect, test, verifies, type MediaUnderTest } from '../fixtures/mediaFixtures.ts';
import { errorsOf, expectStatus, followable, jsonApiOf, linkageKeys, linkOf, resourcesOf, type JsonApiResource } from '../fixtures/mediaChecks.ts';
import { precondition, says } from '../../src/testing/ruleTest.ts';
import type { Rule } from '../../src/rules/Rule.ts';
import type { MediaResponse } from '../../src/clients/media/types.ts';

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
