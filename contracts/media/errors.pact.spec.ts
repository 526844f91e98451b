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
      // JSON:API error objects (media.errors.jsonapi-errors): the members an integration shows; status is a string.
      b.headers(JSON_API).jsonBody({
        // title and status only: which members an error object carries is not shown; the client reads the title.
        errors: eachLike({ title: like('Invalid field'), status: like('400') }),
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
