import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { MEDIA_SEED } from '../../../../src/twins/media/seedFacts.ts';
import { JSON_API, send, sendRaw, signIn, startTestTwin, type TestTwin } from './mediaHttp.ts';

let twin: TestTwin;
let alice: string;

test.beforeAll(async () => {
  twin = await startTestTwin();
  alice = await signIn(twin.twin.url, MEDIA_SEED.users.adultAllowed.name, MEDIA_SEED.users.adultAllowed.password);
});
test.afterAll(async () => {
  await twin.twin.close();
  expect(twin.internalErrors, 'no request reached the 500 fallback').toEqual([]);
});

const lines = (): string => `Host: twin\r\nAuthorization: Bearer ${alice}\r\nConnection: close\r\n`;

test('malformed requests get JSON:API 4xx answers, never a 500, and the twin keeps serving', async () => {
  const raws: Array<[string, string | Buffer]> = [
    ['bad percent-encoding in the path', `GET /api/edge/anime/%E0%A4%A HTTP/1.1\r\n${lines()}\r\n`],
    ['bad percent-encoding in the query', `GET /api/edge/anime?filter[text]=%zz&page[limit]=%E0 HTTP/1.1\r\n${lines()}\r\n`],
    ['unknown method token', `BREW /api/edge/anime HTTP/1.1\r\n${lines()}\r\n`],
    ['odd but known method', `PROPFIND /api/edge/anime HTTP/1.1\r\n${lines()}\r\n`],
    ['OPTIONS', `OPTIONS /api/edge/anime HTTP/1.1\r\n${lines()}\r\n`],
    ['CONNECT', `CONNECT twin:443 HTTP/1.1\r\nHost: twin:443\r\n\r\n`],
    ['asterisk target', `OPTIONS * HTTP/1.1\r\n${lines()}\r\n`],
    ['huge header', `GET /api/edge/anime HTTP/1.1\r\n${lines()}X-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`],
    ['garbage request line', 'this is not http\r\n\r\n'],
    ['binary garbage', Buffer.from([0, 1, 2, 255, 254, 13, 10, 13, 10])],
    ['bad chunked framing', `POST /api/edge/posts HTTP/1.1\r\n${lines()}Content-Type: ${JSON_API}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`],
    ['garbage JSON body', `POST /api/edge/posts HTTP/1.1\r\n${lines()}Content-Type: ${JSON_API}\r\nContent-Length: 9\r\n\r\n\u0000{[}]"\\x`],
    [
      'deeply nested JSON',
      `POST /api/edge/posts HTTP/1.1\r\n${lines()}Content-Type: ${JSON_API}\r\nContent-Length: 200000\r\n\r\n${'['.repeat(100000)}${']'.repeat(100000)}`,
    ],
    [
      'body over the limit',
      `POST /api/edge/posts HTTP/1.1\r\n${lines()}Content-Type: ${JSON_API}\r\nTransfer-Encoding: chunked\r\n\r\n${'100000\r\n' + 'a'.repeat(0x100000) + '\r\n'}${'10\r\n' + 'b'.repeat(16) + '\r\n'}0\r\n\r\n`,
    ],
    ['declared body far over the limit', `POST /api/edge/posts HTTP/1.1\r\n${lines()}Content-Type: ${JSON_API}\r\nContent-Length: 999999999\r\n\r\n{}`],
    [
      'not UTF-8',
      Buffer.concat([
        Buffer.from(`PATCH /api/edge/users/1 HTTP/1.1\r\n${lines()}Content-Type: ${JSON_API}\r\nContent-Length: 4\r\n\r\n`),
        Buffer.from([0xff, 0xfe, 0x7b, 0x7d]),
      ]),
    ],
  ];
  for (const [name, raw] of raws) {
    const answer = await sendRaw(twin.twin.url, raw);
    expect(answer.status, `${name}: ${answer.head.split('\r\n')[0]}`).toBeGreaterThanOrEqual(400);
    expect(answer.status, `${name}: ${answer.head.split('\r\n')[0]}`).toBeLessThan(500);
    expect(answer.head.toLowerCase(), name).toContain(`content-type: ${JSON_API}`);
  }
  expect((await sendRaw(twin.twin.url, `GET http://twin/api/edge/anime/1 HTTP/1.1\r\n${lines()}\r\n`)).status, 'absolute-form target').toBe(200);
  expect((await send(`${twin.api}/anime/1`)).status, 'still serving').toBe(200);
});

test('odd ids, query values and bodies are 400/404/422, never 500', async () => {
  for (const id of ['1e9999', '-1', 'abc', '%00', '..', '1.5', '9'.repeat(400), '__proto__', 'constructor']) {
    const answer = await send(`${twin.api}/anime/${id}`);
    expect([400, 404], `anime/${id}`).toContain(answer.status);
    expect(String(answer.json().errors[0].status), `anime/${id}`).toBe(String(answer.status));
  }
  expect((await send(`${twin.api}/anime/0001`)).json().data.id, 'leading zeros name the same record').toBe('1');
  for (const query of [
    'filter[__proto__]=1',
    'filter[constructor]=1',
    'fields[anime]=constructor',
    'fields[__proto__]=x',
    'include=__proto__',
    'include=constructor.prototype',
    'include=.',
    'include=categories..anime',
    'sort=,',
    'sort=-',
    'sort=__proto__',
    'filter[id]=',
    'filter[status]=',
    'filter[averageRating]=..',
    'filter[text]=%F0%9F%98%80',
    'page[limit]=9007199254740993',
    'page[offset]=99999999999999',
    'page[][x]=1',
    'fields[anime][x]=1',
  ]) {
    const answer = await send(`${twin.api}/anime?${query}`);
    expect(answer.status, query).toBeLessThan(500);
    expect(answer.headers['content-type']).toBe(JSON_API);
  }
  const deep = { data: { type: 'users', id: '1', attributes: { avatar: JSON.parse('{"a":'.repeat(40) + '1' + '}'.repeat(40)) } } };
  const nested = await send(`${twin.api}/users/1`, { method: 'PATCH', token: alice, json: deep });
  expect(nested.status).toBe(422);
  expect(nested.json().errors[0].detail).toContain('avatar - is nested too deeply');
  for (const body of [
    'null',
    '"data"',
    '[]',
    '{"data":null}',
    '{"data":{"type":7}}',
    '{"data":{"type":"users","id":"1","attributes":[]}}',
    '{"data":{"type":"users","id":"1","attributes":{"__proto__":{"admin":true}}}}',
    '{"data":{"type":"users","id":"1","relationships":{"waifu":{"data":{"type":"characters","id":{"x":1}}}}}}',
    '{"data":{"type":"users","id":"1","relationships":{"waifu":{"data":[{"type":"characters","id":"1"}]}}}}',
    '{"data":{"type":"users","id":"1","relationships":{"waifu":{"data":{"type":"characters","id":"1e999"}}}}}',
    '{"data":{"type":"users","id":"1","attributes":{"birthday":"2024-02-30","sfwFilter":"yes","name":12}}}',
  ]) {
    const answer = await send(`${twin.api}/users/1`, { method: 'PATCH', token: alice, headers: { 'Content-Type': JSON_API }, body });
    expect([400, 422], body).toContain(answer.status);
  }
  expect((await send(`${twin.api}/users/1`)).json().data.attributes.name, 'nothing above changed alice').toBe('alice');
});

test('HEAD answers the headers of GET without a body', async () => {
  const head = await send(`${twin.api}/anime/1`, { method: 'HEAD' });
  expect(head.status).toBe(200);
  expect(head.text).toBe('');
  expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
});
