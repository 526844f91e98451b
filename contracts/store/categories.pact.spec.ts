/** Store consumer contract for reading one category, through the typed client. */
import { expect, test } from '../../src/testing/harnessTest.ts';
import { MatchersV3 } from '@pact-foundation/pact';
import { STORE_CONTRACT } from '../../src/rules/storeContract.ts';
import { STORE_STATES } from './providerStates.ts';
import { AUTHENTICATED, EXAMPLE_STORE_ID, storeClient, storePact, storePath } from './storePact.ts';

const { integer, like, regex } = MatchersV3;
const TIMESTAMP = regex(STORE_CONTRACT.timestampPattern.source, '2025-01-01T00:00:00+0000');

test('reading a category: localized name, description and handle, its parent and subcategories', async () => {
  await storePact()
    .addInteraction()
    .given(STORE_STATES.hasCategory, { storeId: EXAMPLE_STORE_ID, categoryId: 1 })
    .uponReceiving('a request for one category')
    .withRequest('GET', storePath('/categories/${categoryId}', { categoryId: 1 }), (b) => b.headers(AUTHENTICATED))
    .willRespondWith(200, (b) =>
      b.headers({ 'X-Main-Language': like('es') }).jsonBody({
        id: integer(1),
        name: like({ es: 'Ropa' }),
        description: like({ es: '' }),
        handle: like({ es: 'ropa' }),
        // A top-level category: parent null (store.categories.parent-null-top-level). The types of
        // subcategories' elements are "not shown", so only "an array" is promised.
        parent: null,
        subcategories: like([]),
        created_at: TIMESTAMP,
        updated_at: TIMESTAMP,
      }),
    )
    .executeTest(async (server) => {
      const category = await storeClient(server.url).getCategory(1);
      expect(category.parent).toBeNull();
      expect(Array.isArray(category.subcategories)).toBe(true);
      expect(typeof category.name.es).toBe('string');
    });
});
