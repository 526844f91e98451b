import { expect, test, verifies } from '../fixtures/mediaFixtures.ts';
import { errorsOf, expectStatus, jsonApiOf, type JsonApiResource } from '../fixtures/mediaChecks.ts';
import { says } from '../../src/testing/ruleTest.ts';

// Writes, special routes and policies (twin: each test starts from the seed).

test(
  ...verifies('media.writes.status-codes', 'create 201 with Location, update 200, destroy 204', async ({ media, rule }) => {
    const client = media.signedIn!;
    const created = await client.send({
      method: 'POST',
      path: '/library-entries',
      body: {
        data: {
          type: 'libraryEntries',
          attributes: { status: 'planned', progress: 0 },
          relationships: { anime: { data: { type: 'anime', id: '20' } }, user: { data: { type: 'users', id: media.twin?.seed.users.adultAllowed.id ?? '1' } } },
        },
      },
    });
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
