/**
 * The replay server on a small cassette tree: recorded answers come back as
 * recorded, links point at the server, repeats answer in recorded order and
 * then cycle, a cassette can be chosen by header, a miss is a 501 that names
 * the closest recorded request, and the real `kitsu` npm client reads from it.
 */
import { expect, test } from '../../../src/testing/harnessTest.ts';
import Kitsu from 'kitsu';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { CASSETTE_FORMAT, cassettePaths, writeCassette, type Interaction, type RecordingApi } from '../../../src/recording/cassette.ts';
import { ReplayBook } from '../../../src/recording/replayBook.ts';
import { startReplayServer, type ReplayServer } from '../../../src/recording/replayServer.ts';
import { rulesOf } from '../../../src/recording/session.ts';

const MEDIA = 'http://127.0.0.1:4320';
const STORE = 'http://127.0.0.1:4310';
const JSONAPI = 'application/vnd.api+json';
/** What the kitsu client sends on a read (accept and content-type are compared on media). */
const KITSU_HEADERS = { accept: JSONAPI, 'content-type': JSONAPI, 'user-agent': 'axios/1' };

const get = (path: string, headers: Record<string, string> = { accept: JSONAPI }): Partial<Interaction> => ({ method: 'GET', path, reqheaders: headers });

function interaction(scope: string, req: Partial<Interaction>, status: number, rawHeaders: Record<string, string>, response?: unknown): Interaction {
  return { scope, method: 'GET', path: '/', reqheaders: {}, ...req, status, rawHeaders, ...(response === undefined ? {} : { response }) };
}

function plant(root: string, api: RecordingApi, suite: string, title: string, interactions: Interaction[]): string {
  const { raw } = cassettePaths(root, api, suite, title);
  writeCassette(raw, { format: CASSETTE_FORMAT, api, suite, test: title, source: 'loopback', uniqueSeed: '00000000', interactions });
  return raw.slice(root.length + 1);
}

const PLAIN = interaction(
  MEDIA,
  get('/api/edge/plain'),
  203,
  {
    'content-type': JSONAPI,
    date: 'Mon, 02 Nov 2026 10:00:00 GMT',
    'x-ratelimit-remaining': '7',
    'set-cookie': 'a=1; Path=/',
    // Framing of the recorded exchange: the server says its own.
    'content-length': '99999',
    'transfer-encoding': 'chunked',
    'content-encoding': 'gzip',
    connection: 'close',
  },
  { data: { id: '5', type: 'anime', attributes: { canonicalTitle: 'Ñandú – 5', rating: null, tags: ['a', 'b'] } } },
);
const ANIME_1 = interaction(
  MEDIA,
  get('/api/edge/anime/1', KITSU_HEADERS),
  200,
  { 'content-type': JSONAPI },
  {
    data: { id: '1', type: 'anime', links: { self: `${MEDIA}/api/edge/anime/1` }, attributes: { canonicalTitle: 'Cowboy Bebop' } },
    links: { self: `${MEDIA}/api/edge/anime/1`, elsewhere: 'http://127.0.0.1:43201/x' },
  },
);
const PRODUCTS = interaction(
  STORE,
  get('/v1/1/products', { authentication: 'bearer redacted-00000000', 'user-agent': 'app (a@example.invalid)' }),
  200,
  { 'content-type': 'application/json; charset=utf-8', link: `<${STORE}/v1/1/products?page=2>; rel="next", <${STORE}/v1/1/products?page=9>; rel="last"` },
  [{ id: 1 }],
);
const burst = (n: number) => interaction(MEDIA, get('/api/edge/burst'), n < 3 ? 200 : 429, { 'content-type': JSONAPI }, { n });
const titled = (title: string) => interaction(MEDIA, get('/api/edge/anime/2'), 200, { 'content-type': JSONAPI }, { data: { id: '2', type: 'anime', title } });

let root: string;
let secondCassette: string;
let media: ReplayServer;
let store: ReplayServer;
const logged: string[] = [];

test.beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'replay-server-'));
  plant(root, 'media', 'catalogue', 'plain', [PLAIN]);
  plant(root, 'media', 'catalogue', 'one anime', [ANIME_1]);
  plant(root, 'media', 'rate', 'a burst', [burst(1), burst(2), burst(3)]);
  plant(root, 'media', 'pick', 'first', [titled('First')]);
  secondCassette = plant(root, 'media', 'pick', 'second', [titled('Second')]);
  plant(root, 'store', 'products', 'a page', [PRODUCTS]);
  media = await startReplayServer({ root, api: 'media', log: (line) => logged.push(line) });
  store = await startReplayServer({ root, api: 'store', log: (line) => logged.push(line) });
});

test.afterAll(async () => {
  await media?.close();
  await store?.close();
  rmSync(root, { recursive: true, force: true });
});

async function send(server: ReplayServer, path: string, headers: Record<string, string> = { accept: JSONAPI }) {
  const res = await request(`${server.url}${path}`, { headers });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

test('a recorded request is answered as recorded: status, headers and body', async () => {
  const res = await send(media, '/api/edge/plain');
  expect(res.status).toBe(203);
  for (const name of ['content-type', 'date', 'x-ratelimit-remaining', 'set-cookie']) expect(res.headers[name], name).toBe(PLAIN.rawHeaders[name]);
  expect(res.text).toBe(JSON.stringify(PLAIN.response));
  // The recorded framing is not replayed: the length is the served body's, nothing claims gzip.
  expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.text)));
  expect(res.headers['content-encoding']).toBeUndefined();
  expect(res.headers['transfer-encoding']).toBeUndefined();
});

test("links to the recorded origin point at the server's own origin", async () => {
  const anime = JSON.parse((await send(media, '/api/edge/anime/1', KITSU_HEADERS)).text) as {
    data: { links: { self: string } };
    links: Record<string, string>;
  };
  expect(anime.data.links.self).toBe(`${media.url}/api/edge/anime/1`);
  expect(anime.links.self).toBe(`${media.url}/api/edge/anime/1`);
  // Another port is another origin: left alone.
  expect(anime.links.elsewhere).toBe('http://127.0.0.1:43201/x');

  const products = await send(store, '/v1/1/products', { authentication: 'bearer redacted-00000000', 'user-agent': 'app (a@example.invalid)' });
  expect(products.headers.link).toBe(`<${store.url}/v1/1/products?page=2>; rel="next", <${store.url}/v1/1/products?page=9>; rel="last"`);
  expect(JSON.parse(products.text)).toEqual([{ id: 1 }]);
});

test('a request recorded several times is answered in recorded order, then from the start again', async () => {
  const answers: string[] = [];
  for (let i = 0; i < 5; i++) {
    const res = await send(media, '/api/edge/burst');
    answers.push(`${res.status} ${(JSON.parse(res.text) as { n: number }).n}`);
  }
  expect(answers).toEqual(['200 1', '200 2', '429 3', '200 1', '200 2']);
});

test('x-harness-cassette answers from that cassette only', async () => {
  const title = async (cassette?: string) => {
    const res = await send(media, '/api/edge/anime/2', { accept: JSONAPI, ...(cassette ? { 'x-harness-cassette': cassette } : {}) });
    return (JSON.parse(res.text) as { data: { title: string } }).data.title;
  };
  expect(secondCassette).toBe('media/pick/second.raw.json');
  expect([await title(secondCassette), await title(secondCassette)]).toEqual(['Second', 'Second']);
  // The normalised file's name, or none at all, means the same cassette.
  expect(await title('media/pick/second.json')).toBe('Second');
  expect(await title('media/pick/first')).toBe('First');
  // Without the header every cassette answers, in turn.
  expect(new Set([await title(), await title()])).toEqual(new Set(['First', 'Second']));

  for (const bad of ['media/pick/nothing-here', '../../etc/passwd', 'store/products/a-page']) {
    const res = await send(media, '/api/edge/anime/2', { accept: JSONAPI, 'x-harness-cassette': bad });
    expect(res.status, bad).toBe(501);
    expect(res.headers['x-harness-replay'], bad).toBe('no-cassette');
  }
});

test('a request nothing was recorded for is a 501 naming the closest recorded request', async () => {
  const res = await send(media, '/api/edge/anime/1', { accept: 'application/json' });
  expect(res.status).toBe(501);
  expect(res.headers['x-harness-replay']).toBe('miss');
  expect(res.headers['content-type']).toBe('application/json');
  const body = JSON.parse(res.text) as { replay: string; message: string };
  expect(body.replay).toBe('no recording');
  expect(body.message).toContain('no recording of GET /api/edge/anime/1');
  expect(body.message).toContain('closest recorded request is GET /api/edge/anime/1 (in media/catalogue/one-anime.raw.json)');
  expect(body.message).toContain('header accept (recorded "application/vnd.api+json", sent "application/json")');
  expect(logged.some((line) => line.includes('miss: replay: no recording of GET /api/edge/anime/1'))).toBe(true);
  expect(media.misses().at(-1)).toBe(body.message);
});

test('a malformed request gets a 400 and the server keeps serving', async () => {
  const reply = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(new URL(media.url).port), '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
    let data = '';
    socket.on('data', (chunk) => (data += String(chunk)));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
  expect(reply).toMatch(/^HTTP\/1\.1 400/);
  expect((await send(media, '/api/edge/plain')).status).toBe(203);
});

test('the kitsu npm client reads a recorded anime from the server', async () => {
  const api = new Kitsu({ baseURL: `${media.url}/api/edge` });
  const anime = (await api.get('anime/1')) as unknown as { data: { id: string; type: string; canonicalTitle: string; links: { self: string } } };
  expect(anime.data).toMatchObject({ id: '1', type: 'anime', canonicalTitle: 'Cowboy Bebop' });
  expect(anime.data.links.self).toBe(`${media.url}/api/edge/anime/1`);
});

test('with a book, the server answers from it: the one an in-process replay uses', async () => {
  const book = new ReplayBook(rulesOf('media'), [{ source: 'shared', interactions: [titled('Shared')] }]);
  const shared = await startReplayServer({ root, api: 'media', book, log: () => {} });
  try {
    expect(JSON.parse((await send(shared, '/api/edge/anime/2')).text)).toEqual({ data: { id: '2', type: 'anime', title: 'Shared' } });
    // The book does not cycle: its one recording is used up.
    expect((await send(shared, '/api/edge/anime/2')).status).toBe(501);
    expect(book.unused()).toEqual([]);
  } finally {
    await shared.close();
  }
});

test('no recordings of the API is an error that says how to make them', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'replay-empty-'));
  await expect(startReplayServer({ root: empty, api: 'store' })).rejects.toThrow(/no store recordings .*npm run record/);
  rmSync(empty, { recursive: true });
});
