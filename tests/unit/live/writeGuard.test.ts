/**
 * The live write guard: without an API's write flag no POST, PUT, PATCH or
 * DELETE leaves, whoever sends it: through undici's interceptors, the PUT
 * without Content-Length included (the stack's base sends it with node:http).
 * The other API's flag does not open it, and reads pass.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { StoreClient } from '../../../src/clients/store/StoreClient.ts';
import { MediaClient } from '../../../src/clients/media/MediaClient.ts';
import { LiveRequestGuard, LiveWriteRefusedError, refusalError, WRITE_REFUSED_CODE } from '../../../src/testing/LiveRequestGuard.ts';

let server: Server;
let origin: string;
const arrived: string[] = [];

test.beforeAll(async () => {
  server = createServer((req, res) => {
    arrived.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":1}'));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(() => server.close());
test.beforeEach(() => void (arrived.length = 0));

function storeClient(guard: LiveRequestGuard): StoreClient {
  return new StoreClient({
    baseUrl: `${origin}/v1/1`,
    token: 'write-guard-token',
    userAgent: 'write guard test (https://example.invalid)',
    pace: false,
    retry: { maxRetries: 0 },
    ...guard.clientOptions('store'),
  });
}

test('without the store write flag, no store write leaves: POST, PUT (with and without Content-Length), DELETE; reads pass', async () => {
  const guard = new LiveRequestGuard(100, undefined, { store: false, media: true });
  const client = storeClient(guard);
  await client.send({ method: 'GET', path: '/products' });
  for (const request of [
    { method: 'POST' as const, path: '/products', json: { name: 'x' } },
    { method: 'PUT' as const, path: '/categories/1', contentLength0: true },
    { method: 'PUT' as const, path: '/categories/1', contentLength0: false },
    { method: 'DELETE' as const, path: '/products/1' },
  ]) {
    await expect(client.send({ ...request, retry: false }), `${request.method} ${request.path}`).rejects.toThrow(/live write guard.*STORE_ALLOW_WRITES/);
  }
  // Not even as clean-up: a run without the flag created nothing to clean up.
  await guard.cleaningUp(async () => void (await client.send({ method: 'DELETE', path: '/products/2' }).catch(() => undefined)));
  expect(arrived).toEqual(['GET /v1/1/products']);
  const report = guard.report('store');
  expect(report.sent).toBe(1);
  expect(report.writesRefused).toHaveLength(5);
  // The test that sent them fails after its clean-up, even if it caught the errors.
  expect(refusalError(guard, 'store', report)).toBeInstanceOf(LiveWriteRefusedError);
});

test("the media flag guards media only; with an API's flag on, its writes leave", async () => {
  const guard = new LiveRequestGuard(100, undefined, { store: true, media: false });
  const media = new MediaClient({ baseUrl: `${origin}/api/edge`, retry: { maxRetries: 0 }, ...guard.clientOptions('media') });
  const refused = await media.send({ method: 'PATCH', path: '/anime/1', body: { data: { type: 'anime', id: '1' } }, retry: false }).catch((e: unknown) => e);
  expect(String((refused as Error).message)).toMatch(/KITSU_ALLOW_WRITES/);
  await storeClient(guard).send({ method: 'POST', path: '/products', json: { name: 'x' } });
  expect(arrived).toEqual(['POST /v1/1/products']);
});

test("Pact's Verifier's requests ask the same guard (take), and a refused write is not counted as sent", () => {
  const guard = new LiveRequestGuard(100, undefined, { store: false, media: false });
  expect(() => guard.take('store', "POST /v1/1/products (Pact's Verifier)")).toThrow(LiveWriteRefusedError);
  guard.take('store', "GET /v1/1/products (Pact's Verifier)");
  expect(guard.report('store')).toMatchObject({ sent: 1, writesRefused: ["POST /v1/1/products (Pact's Verifier)"] });
  expect(new LiveWriteRefusedError('store', 'x').code).toBe(WRITE_REFUSED_CODE);
});
