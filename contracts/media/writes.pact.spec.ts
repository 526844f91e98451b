/**
 * Media consumer contracts for a signed-in user's writes: a bulk update of
 * library entries and accepting a group invite. The verification signs in as
 * the user the state names and injects that token.
 */
import { expect, test } from '../../src/testing/harnessTest.ts';
import { MatchersV3 } from '@pact-foundation/pact';
import { MEDIA_CONTRACT } from '../../src/rules/mediaContract.ts';
import { JSON_API, SIGNED_IN, mediaClient, mediaPact } from './mediaPact.ts';
import { MEDIA_STATES } from './providerStates.ts';

const { eachLike, equal, regex } = MatchersV3;
const WRITE = { ...SIGNED_IN, 'Content-Type': regex('^application/vnd\\.api\\+json', MEDIA_CONTRACT.mediaType) };

test('a bulk update of library entries', async () => {
  await mediaPact()
    .addInteraction()
    .given(MEDIA_STATES.userLibrary, { userId: '1', ids: '1,2' })
    .uponReceiving("a signed-in user's request to mark two of their library entries completed")
    .withRequest('PATCH', '/api/edge/library-entries/_bulk', (b) =>
      b
        .query({ 'filter[id]': '1,2' })
        .headers(WRITE)
        .jsonBody({ data: { type: 'libraryEntries', attributes: { status: 'completed' } } }),
    )
    .willRespondWith(200, (b) =>
      b.headers(JSON_API).jsonBody({
        data: eachLike({ id: regex('^\\d+$', '1'), type: 'libraryEntries', attributes: { status: equal('completed') } }, 2),
      }),
    )
    .executeTest(async (server) => {
      const updated = await mediaClient(server.url, 'consumer-token').bulkUpdate('library-entries', { id: ['1', '2'] }, 'libraryEntries', {
        status: 'completed',
      });
      expect(updated.map((entry) => entry.attributes['status'])).toEqual(['completed', 'completed']);
    });
});

test('accepting a group invite', async () => {
  await mediaPact()
    .addInteraction()
    .given(MEDIA_STATES.pendingInvite, { inviteId: '1', userId: '3' })
    .uponReceiving("the invitee's request to accept a pending group invite")
    .withRequest('POST', '/api/edge/group-invites/1/_accept', (b) => b.headers(SIGNED_IN))
    // Field notes: `_accept` answers 201 with a bare {}.
    .willRespondWith(201, (b) => b.headers(JSON_API).jsonBody({}))
    .executeTest(async (server) => {
      expect(await mediaClient(server.url, 'consumer-token').act('group-invites', '1', 'accept')).toBe(201);
    });
});
