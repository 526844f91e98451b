/**
 * Every kind of sender reaches the same interceptor stack.
 * A guard with a budget of 0 is installed as the one every client of this
 * process passes (installLiveRequestGuard); a request from each sender, made
 * the way that sender makes it, must be refused by its request budget before
 * it leaves: a suite's client (the providers), a property's (the arenas), a
 * pact state's (the state tables), Pact's Verifier's (its request filter asks
 * the stack through `take`), a replay's (the live provider on the replay
 * target) and a bench's (bench/rateLimitSync.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import type { LiveMediaConfig, LiveStoreConfig } from '../../../src/config/harnessConfig.ts';
import { liveMediaProvider } from '../../../src/providers/media/mediaProvider.ts';
import { liveStoreProvider } from '../../../src/providers/store/storeProvider.ts';
import { BUDGET_SPENT_CODE, installLiveRequestGuard, LiveBudgetSpentError, LiveRequestGuard, type LiveApi } from '../../../src/testing/LiveRequestGuard.ts';
import { liveArena } from '../../../properties/support/storeArena.ts';
import { liveMediaArena } from '../../../properties/support/mediaArena.ts';
import { mediaLiveTarget, MEDIA_STATES } from '../../../contracts/media/providerStates.ts';
import { storeLiveTarget, STORE_STATES } from '../../../contracts/store/providerStates.ts';
import { syncClient } from '../../../bench/rateLimitSync.ts';

let server: Server;
let origin: string;
let arrived = 0;
let guard: LiveRequestGuard;

test.beforeAll(async () => {
  server = createServer((req, res) => {
    arrived += 1;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(() => server.close());
test.beforeEach(() => {
  arrived = 0;
  // No ledger, nothing sent yet, a budget of 0: the first request of any sender is over it.
  guard = new LiveRequestGuard(0, undefined, { store: true, media: true });
  installLiveRequestGuard(guard);
});
test.afterEach(() => installLiveRequestGuard(undefined));

const storeConfig = (): LiveStoreConfig => ({
  mode: 'live',
  apiUrl: origin,
  storeId: '1',
  token: 'senders-token',
  userAgent: 'senders test (https://example.invalid)',
  allowWrites: true,
});
const mediaConfig = (): LiveMediaConfig => ({ mode: 'live', apiUrl: `${origin}/api/edge`, token: undefined, allowWrites: true });

/** The sender's request was refused by the budget guard before it left, and the guard noted it for `api`. */
async function expectRefusedByBudget(api: LiveApi, sending: Promise<unknown>): Promise<void> {
  const error = await sending.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'the request was refused').toBeDefined();
  expect((error as { causeCode?: string }).causeCode).toBe(BUDGET_SPENT_CODE);
  expect((error as Error).cause).toBeInstanceOf(LiveBudgetSpentError);
  expect(guard.report(api).refused.length).toBeGreaterThan(0);
  expect(arrived, 'nothing reached the service').toBe(0);
}

test("a suite's clients (the providers' live store and media clients) are refused by the budget guard", async () => {
  await expectRefusedByBudget('store', liveStoreProvider(storeConfig(), 'live').client().send({ method: 'GET', path: '/products' }));
  await expectRefusedByBudget('media', liveMediaProvider(mediaConfig(), 'live').client().send({ method: 'GET', path: '/anime' }));
});

test("a property's clients (the live arenas) are refused by the budget guard", async () => {
  const store = await liveArena(liveStoreProvider(storeConfig(), 'live')).openStore();
  await expectRefusedByBudget('store', store.client().send({ method: 'GET', path: '/products', retry: false }));
  await expectRefusedByBudget('media', liveMediaArena(mediaConfig()).client().send({ method: 'GET', path: '/anime' }));
});

test("a pact state's requests (the live state tables) are refused by the budget guard", async () => {
  await expectRefusedByBudget(
    'store',
    Promise.resolve().then(() => storeLiveTarget(storeConfig()).states[STORE_STATES.hasProducts]!({ count: 1 })),
  );
  await expectRefusedByBudget(
    'media',
    Promise.resolve().then(() => mediaLiveTarget(mediaConfig()).states[MEDIA_STATES.tvAnime]!({ count: 1 })),
  );
});

test("Pact's Verifier's requests ask the same stack (its request filter's take) and are refused by the budget guard", () => {
  expect(() => guard.take('store', "GET /v1/1/products (Pact's Verifier)")).toThrow(LiveBudgetSpentError);
  expect(() => guard.take('media', "GET /api/edge/anime (Pact's Verifier)")).toThrow(LiveBudgetSpentError);
  expect(guard.report('store')).toMatchObject({ sent: 0, refused: ["GET /v1/1/products (Pact's Verifier)"] });
  expect(guard.report('media')).toMatchObject({ sent: 0, refused: ["GET /api/edge/anime (Pact's Verifier)"] });
});

test("a replay's clients (the live provider on the replay target) pass the same stack and are refused by the budget guard", async () => {
  await expectRefusedByBudget('store', liveStoreProvider(storeConfig(), 'replay').client().send({ method: 'GET', path: '/products' }));
  await expectRefusedByBudget('media', liveMediaProvider(mediaConfig(), 'replay').client().send({ method: 'GET', path: '/anime' }));
});

test("a bench's client (the sync bench's) is refused by the budget guard", async () => {
  const client = syncClient({ baseUrl: `${origin}/v1/1` }, 'bench-token', () => undefined);
  await expectRefusedByBudget('store', client.send({ method: 'GET', path: '/products', retry: false }));
});

test('with budget left, the same senders reach the service, each request counted once', async () => {
  installLiveRequestGuard((guard = new LiveRequestGuard(10, undefined, { store: true, media: true })));
  await liveStoreProvider(storeConfig(), 'live').client().send({ method: 'GET', path: '/products' });
  await liveMediaArena(mediaConfig()).client().send({ method: 'GET', path: '/anime' });
  await syncClient({ baseUrl: `${origin}/v1/1` }, 'bench-token', () => undefined).send({ method: 'GET', path: '/products' });
  guard.take('store', "GET /v1/1/products (Pact's Verifier)");
  expect(arrived).toBe(3);
  expect(guard.spent()).toBe(4);
});
