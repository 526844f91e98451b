import { expect, secondStoreOf, SECOND_STORE_VARIABLES, test, verifies } from '../fixtures/storeFixtures.ts';
import { expectStatus, jsonOf, pathOf } from '../fixtures/storeChecks.ts';
import { says } from '../../src/testing/ruleTest.ts';
import type { StoreResponse } from '../../src/clients/store/types.ts';

// Scope: a third-party application acts on one store's data; every resource path names that store. A token
// that reads another store's data, or a path whose store id is not the store that answers, is well formed
// and says the wrong thing. On live these need a second sandbox store (SECOND_STORE_VARIABLES).

/** A second store's token is not in a recording (it holds the test store's exchanges only). */
const NOT_RECORDED = `reads a second store with its own token, which a recording does not hold: run HARNESS_TARGET=live with ${SECOND_STORE_VARIABLES} to verify it.`;

/** The store a GET /store answer describes: its id when it shows one, else the whole body. */
function storeShown(res: StoreResponse): unknown {
  const body = JSON.parse(res.text) as { id?: unknown };
  return body && typeof body === 'object' && 'id' in body ? String(body.id) : body;
}

const isRefusal = (status: number) => status >= 400 && status < 500 && status !== 429;

test(
  ...verifies(
    'store.scope.token-reaches-own-store',
    "the test store's token is refused on the second store's paths",
    async ({ store, rule }) => {
      const second = await secondStoreOf(store, rule);
      for (const path of ['/store', '/products']) {
        // The client sends the test store's token to the second store's path (same origin, so buildRequest allows it).
        const res = await store.send({ method: 'GET', url: `${second.baseUrl}${path}`, retry: false });
        expect(
          isRefusal(res.status),
          says(rule, `${pathOf(res.url)} with store ${store.storeId}'s token answered ${res.status}, not a refusal (4xx): ${res.text.slice(0, 200)}`),
        ).toBe(true);
      }
    },
    { notRecorded: `store.scope.token-reaches-own-store ${NOT_RECORDED}` },
  ),
);

test(
  ...verifies(
    'store.scope.path-names-the-store',
    "/v1/{store_id}/store answers that store, whoever's token asks",
    async ({ store, rule }) => {
      const second = await secondStoreOf(store, rule);
      const own = await store.send({ method: 'GET', path: '/store' });
      expectStatus(own, 200, rule);
      jsonOf(own, rule);
      const theirs = await store.send({ method: 'GET', url: `${second.baseUrl}/store`, auth: { header: 'Authentication', value: `bearer ${second.token}` } });
      expectStatus(theirs, 200, rule);
      jsonOf(theirs, rule);
      expect(storeShown(own), says(rule, `/v1/${store.storeId}/store and /v1/${second.storeId}/store answer the same store`)).not.toEqual(storeShown(theirs));
      if (typeof storeShown(own) === 'string') {
        expect(storeShown(own), says(rule, `/v1/${store.storeId}/store answers another store`)).toBe(store.storeId);
        expect(storeShown(theirs), says(rule, `/v1/${second.storeId}/store answers another store`)).toBe(second.storeId);
      }
      // The test store's token on the second store's path: a refusal is store.scope.token-reaches-own-store's to judge;
      // data, if any comes, must be the path's store, never the token's.
      const crossed = await store.send({ method: 'GET', url: `${second.baseUrl}/store`, retry: false });
      if (crossed.status >= 200 && crossed.status < 300) {
        jsonOf(crossed, rule);
        expect(
          storeShown(crossed),
          says(rule, `/v1/${second.storeId}/store with store ${store.storeId}'s token answered store ${String(storeShown(crossed))}'s data`),
        ).toEqual(storeShown(theirs));
      }
    },
    { notRecorded: `store.scope.path-names-the-store ${NOT_RECORDED}` },
  ),
);
