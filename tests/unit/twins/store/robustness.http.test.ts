import { expect, test } from '../../../../src/testing/harnessTest.ts';
import type { RunningStoreTwin } from '../../../../src/twins/store/server.ts';
import { MS_PER_LEAK, STORE_CONTRACT } from '../../../../src/rules/storeContract.ts';
import { USER_AGENT, advanceClock, control, send, sendRaw, startTestTwin } from './twinHttp.ts';

let twin: RunningStoreTwin;
let internalErrors: unknown[];
let token: string;
let storeId: number;

test.beforeAll(async () => {
  ({ twin, internalErrors } = await startTestTwin());
  // A store with room for many calls: each request below uses its bucket.
  ({ token, storeId } = await control(twin.url, 'POST', '/stores', { products: 3, clock: 'virtual' }));
});
test.afterAll(async () => {
  await twin.close();
});

/** Empties the store's bucket on its virtual clock, so every section starts with 40 calls. */
const drainBucket = (): Promise<unknown> => advanceClock(twin.url, storeId, STORE_CONTRACT.bucketSize * MS_PER_LEAK);

const headerLines = (): string => `Host: twin\r\nUser-Agent: ${USER_AGENT}\r\nAuthentication: bearer ${token}\r\nConnection: close\r\n`;

test('malformed requests get 4xx answers, never a 500, and the twin keeps serving', async () => {
  const raws: Array<[string, string | Buffer]> = [
    ['bad percent-encoding in the path', `GET /v1/${storeId}/products/%E0%A4%A HTTP/1.1\r\n${headerLines()}\r\n`],
    ['bad percent-encoding in a SKU', `GET /v1/${storeId}/products/sku/%zz HTTP/1.1\r\n${headerLines()}\r\n`],
    ['bad percent-encoding in the query', `GET /v1/${storeId}/products?page=%zz&q=%E0 HTTP/1.1\r\n${headerLines()}\r\n`],
    ['unknown method token', `BREW /v1/${storeId}/products HTTP/1.1\r\n${headerLines()}\r\n`],
    ['odd but known method', `PROPFIND /v1/${storeId}/products HTTP/1.1\r\n${headerLines()}\r\n`],
    ['OPTIONS', `OPTIONS /v1/${storeId}/products HTTP/1.1\r\n${headerLines()}\r\n`],
    ['CONNECT', `CONNECT twin:443 HTTP/1.1\r\nHost: twin:443\r\n\r\n`],
    ['asterisk target', `OPTIONS * HTTP/1.1\r\n${headerLines()}\r\n`],
    ['huge header', `GET /v1/${storeId}/store HTTP/1.1\r\n${headerLines()}X-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`],
    ['garbage request line', 'this is not http\r\n\r\n'],
    ['binary garbage', Buffer.from([0, 1, 2, 255, 254, 13, 10, 13, 10])],
    [
      'bad chunked framing',
      `POST /v1/${storeId}/products HTTP/1.1\r\n${headerLines()}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    ],
    [
      'content-length and chunked together',
      `POST /v1/${storeId}/products HTTP/1.1\r\n${headerLines()}Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}`,
    ],
    ['garbage JSON body', `POST /v1/${storeId}/products HTTP/1.1\r\n${headerLines()}Content-Type: application/json\r\nContent-Length: 9\r\n\r\n\u0000{[}]"\\x`],
    [
      'deeply nested JSON',
      `POST /v1/${storeId}/products HTTP/1.1\r\n${headerLines()}Content-Type: application/json\r\nContent-Length: 200000\r\n\r\n${'['.repeat(100000)}${']'.repeat(100000)}`,
    ],
    [
      'chunked body over the limit',
      `POST /v1/${storeId}/products HTTP/1.1\r\n${headerLines()}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${'100000\r\n' + 'a'.repeat(0x100000) + '\r\n'}${'10\r\n' + 'b'.repeat(16) + '\r\n'}0\r\n\r\n`,
    ],
    [
      'empty chunked PUT',
      `PUT /v1/${storeId}/products/1 HTTP/1.1\r\n${headerLines()}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    ],
  ];
  for (const [name, raw] of raws) {
    const answer = await sendRaw(twin.url, raw);
    expect(answer.status, `${name}: ${answer.statusLine}`).toBeGreaterThanOrEqual(400);
    expect(answer.status, `${name}: ${answer.statusLine}`).toBeLessThan(500);
  }
  const absolute = await sendRaw(twin.url, `GET http://twin/v1/${storeId}/store HTTP/1.1\r\n${headerLines()}\r\n`);
  expect(absolute.status, 'an absolute-form target is valid HTTP').toBe(200);
  const base = `${twin.url}/v1/${storeId}`;
  const auth = { 'User-Agent': USER_AGENT, Authentication: `bearer ${token}` };
  await drainBucket();
  for (const id of ['1e9999', '-1', 'abc', '0', '9'.repeat(400), '%00', '..', '1.5']) {
    for (const resource of ['products', 'categories', 'webhooks']) {
      const answer = await send(`${base}/${resource}/${id}`, { headers: auth });
      expect(answer.status, `${resource}/${id}`).toBe(404);
      expect(answer.json()).toMatchObject({ code: 404, message: 'Not Found' });
    }
  }
  await drainBucket();
  for (const query of [
    'page=1e9999',
    'per_page=-1',
    'since_id=abc',
    'created_at_min=%ZZ',
    'published=maybe',
    `page=${'9'.repeat(400)}`,
    'fields=,,,',
    'q=%00',
  ]) {
    const answer = await send(`${base}/products?${query}`, { headers: auth });
    expect(answer.status, query).toBeLessThan(500);
  }
  for (const body of [
    '{"name":{"__proto__":{"x":1}}}',
    '{"name":"x","variants":[null,1,"a",[]]}',
    '{"name":"x","categories":[{"id":1}],"images":"no"}',
    '{"name":"x","tags":{"a":1},"attributes":[3]}',
  ]) {
    const answer = await send(`${base}/products`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body });
    expect(answer.status, body).toBe(422);
  }
  expect((await send(`${twin.url}/__twin/stores/abc/clock`)).status).toBe(404);
  const garbageControl = await send(`${twin.url}/__twin/stores`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{nope' });
  expect(garbageControl.status).toBe(400);
  expect((await send(`${twin.url}/__twin/health`)).json(), 'still serving').toEqual({ ok: true });
  expect(internalErrors, 'no malformed request reached the 500 fallback').toEqual([]);
});
