/**
 * A pact written as teams write them, against their own sandbox: literal ids in the path, states in words, an
 * interaction with no state. On the twin each store state is arranged on a copy of the store under the id the pact
 * names (its seeded records keep their ids), and an interaction without a state on the store its path names, each
 * with that store's token; on live the pact's store id is the configured store, said once. A refusal the harness's
 * arrangement could have caused never names the consumer unless the pact itself names two stores.
 */
import { request } from 'undici';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { HARNESS_USER_AGENT, type LiveStoreConfig } from '../../../src/config/harnessConfig.ts';
import { startStoreTwin, type RunningStoreTwin } from '../../../src/twins/store/server.ts';
import { storeLiveTarget, storeTwinTarget } from '../../../contracts/store/providerStates.ts';
import { parsePact, type PactDocument } from '../../../contracts/verification/pactFile.ts';
import { PactMismatchError, verifyInteraction } from '../../../contracts/verification/verifyInteraction.ts';
import type { PactProvider } from '../../../contracts/verification/pactProvider.ts';

const HEADERS = { Authentication: 'bearer token-of-our-sandbox', 'User-Agent': 'Team app (ops@example.com)' };
const get = (path: string) => ({ method: 'GET', path, headers: HEADERS });

/** A V2 pact, as pact-js 9 or pact-python write one: states in words, no generators. */
const teamPact = (interactions: object[]): PactDocument =>
  parsePact(
    {
      consumer: { name: 'literal-ids-team' },
      provider: { name: 'store-commerce-api' },
      interactions,
      metadata: { pactSpecification: { version: '2.0.0' } },
    },
    'literal-ids-team.json',
    'team',
  );

let twin: RunningStoreTwin;
test.beforeAll(async () => {
  twin = await startStoreTwin({ port: 0 });
});
test.afterAll(async () => twin.close());

const twinTarget = (): PactProvider => storeTwinTarget({ mode: 'twin', twinUrl: twin.url, port: 0, userAgent: HARNESS_USER_AGENT, allowWrites: true });

async function verify(target: PactProvider, pact: PactDocument, index: number) {
  return verifyInteraction({ pact, interaction: pact.interactions[index]!, target });
}

test.describe('on the twin, the ids the pact names are the ids arranged', () => {
  test('a state in words naming store 100001 and its product reaches that product by the literal path, with credentials the harness adds', async () => {
    const pact = teamPact([
      {
        description: 'one product by its literal id',
        providerState: 'store 100001 has product 100001000022',
        request: get('/v1/100001/products/100001000022'),
        response: { status: 200, body: { id: 100001000022 } },
      },
      {
        description: 'the same, the state by template with params',
        providerState: 'store {storeId} has product {productId}',
        request: get('/v1/100002/products/100002000007'),
        response: { status: 200, body: { id: 100002000007 } },
      },
    ]);
    expect(await verify(twinTarget(), pact, 0)).toMatchObject({ status: 'verified' });
    // Written by V3 tools with params; a V2 template left open: the path's store (100002, pt only) is arranged.
    expect(await verify(twinTarget(), pact, 1)).toMatchObject({ status: 'verified' });
  });

  test('an interaction without a state is verified on the store its path names, with that store token', async () => {
    const pact = teamPact([
      { description: 'a category, no state', request: get('/v1/100001/categories/100001000001'), response: { status: 200, body: { id: 100001000001 } } },
    ]);
    expect(await verify(twinTarget(), pact, 0)).toMatchObject({ status: 'verified' });
  });

  test("each interaction's store is a copy: a write under the seeded id is seen by no other interaction, nor by the seeded store", async () => {
    const created = { name: 'Written by one interaction' };
    const pact = teamPact([
      {
        description: 'a create under the literal store id',
        providerState: 'store 100001 accepts new products',
        request: { method: 'POST', path: '/v1/100001/products', headers: { ...HEADERS, 'Content-Type': 'application/json' }, body: created },
        response: { status: 201, body: { name: { es: created.name } } },
      },
    ]);
    expect(await verify(twinTarget(), pact, 0)).toMatchObject({ status: 'verified' });
    const seeded = await request(`${twin.url}/v1/100001/products?q=${encodeURIComponent(created.name)}`, {
      headers: { Authentication: 'bearer twin-token-100001', 'User-Agent': HARNESS_USER_AGENT },
    });
    expect(seeded.statusCode, 'the seeded store has none of it (404: Last page is 0)').toBe(404);
    await seeded.body.dump();
  });

  test('a record the twin does not hold, named literally: not verified, naming the id and the fix (no one is blamed)', async () => {
    const pact = teamPact([
      {
        description: "a product of the team's sandbox",
        providerState: 'store 100001 has product 987654',
        request: get('/v1/100001/products/987654'),
        response: { status: 200, body: { id: 987654 } },
      },
    ]);
    const outcome = await verify(twinTarget(), pact, 0);
    expect(outcome.status).toBe('skipped');
    expect(outcome).toMatchObject({
      reason: expect.stringMatching(/holds no product 987654, which the pact's path names literally\. Fix: .*fromProviderState/),
    });
  });

  test('a state and a path naming two stores: the account says what was arranged against what the pact names', async () => {
    const pact = teamPact([
      { description: 'two stores', providerState: 'store 100002 exists', request: get('/v1/100001/products'), response: { status: 200 } },
    ]);
    const failure = await verify(twinTarget(), pact, 0).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PactMismatchError);
    expect((failure as Error).message).toContain('its state names store 100002 and its path store 100001');
    expect((failure as Error).message).toContain('The harness arranged store 100002');
  });

  test('a body the contract keeps and the pact does not: the consumer acts, as before (the harness arranged what the pact names)', async () => {
    const pact = teamPact([
      {
        description: 'a member the product does not have',
        providerState: 'store 100001 has product 100001000022',
        request: get('/v1/100001/products/100001000022'),
        response: { status: 200, body: { id: 100001000022, stock_level: 'high' } },
      },
    ]);
    const failure = await verify(twinTarget(), pact, 0).catch((error: unknown) => error);
    expect((failure as Error).message).toMatch(/Who acts: the consumer\. The provider's answer keeps the contract/);
  });
});

test.describe("on live, the pact's store is the configured store", () => {
  // A twin process stands for the team's live sandbox: store 100002 and its token are the configured ones.
  const live = (): PactProvider =>
    storeLiveTarget({
      mode: 'live',
      apiUrl: twin.url,
      storeId: '100002',
      token: 'twin-token-100002',
      userAgent: HARNESS_USER_AGENT,
      allowWrites: false,
    } satisfies LiveStoreConfig);

  test('the path written for store 100001 goes to the configured 100002, and the interaction says so once', async () => {
    const pact = teamPact([
      { description: 'the first page', providerState: 'store 100001 exists', request: get('/v1/100001/products'), response: { status: 200 } },
    ]);
    const outcome = await verify(live(), pact, 0);
    expect(outcome).toMatchObject({ status: 'verified', note: "the pact's store 100001 is the configured store 100002 (STORE_ID)" });
  });

  test('a product the live store lacks, named literally: not verified, naming it and the fix, never the consumer', async () => {
    const pact = teamPact([
      {
        description: 'a product of another sandbox',
        providerState: 'store 100001 has product 100001000022',
        request: get('/v1/100001/products/100001000022'),
        response: { status: 200, body: { id: 100001000022 } },
      },
      { description: 'the same without a state', request: get('/v1/100001/products/100001000022'), response: { status: 200 } },
    ]);
    const withState = await verify(live(), pact, 0);
    expect(withState).toMatchObject({
      status: 'skipped',
      reason: expect.stringMatching(/: product 100001000022, which the pact's path names literally, is not in the configured store 100002\. Fix: /),
    });
    const withoutState = await verify(live(), pact, 1);
    expect(withoutState).toMatchObject({ status: 'skipped', reason: expect.stringContaining('holds no product 100001000022') });
  });
});
