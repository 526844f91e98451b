/** Media consumer contract for a JSON:API error document: a request the service refuses. */
import { expect, test } from '../../src/testing/harnessTest.ts';
import { MatchersV3 } from '@pact-foundation/pact';
import { MediaApiError } from '../../src/clients/media/errors.ts';
import { JSON_API, mediaClient, mediaPact } from './mediaPact.ts';

const { eachLike, like } = MatchersV3;

test('an include that is not a relationship: 400 with a JSON:API error document', async () => {
  await mediaPact()
    .addInteraction()
    .uponReceiving('a request for anime including a relationship anime does not have')
    .withRequest('GET', '/api/edge/anime', (b) => b.query({ include: 'notARelationship' }))
    .willRespondWith(400, (b) =>
      // JSON:API error objects (media.errors.jsonapi-errors): the member an integration shows.
      b.headers(JSON_API).jsonBody({
        // The title only: which members an error object carries is not shown, the client reads the title, and the real
        // service writes status as a string here but as an integer on an unknown route (field notes), so status is not promised.
        errors: eachLike({ title: like('Invalid field') }),
      }),
    )
    .executeTest(async (server) => {
      const error = await mediaClient(server.url)
        .list('anime', { include: ['notARelationship'] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MediaApiError);
      expect((error as MediaApiError).status).toBe(400);
      expect((error as MediaApiError).errors[0]?.title).toBe('Invalid field');
    });
});
