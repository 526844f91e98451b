/**
 * Record and replay in one process, end to end: a tiny provider that echoes
 * the planted token back in a header and its body, recorded through the
 * socket-level capture, then replayed by nock with the provider gone.
 */
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transport } from '../../../src/http/transport.ts';
import { cassettePaths, readCassette } from '../../../src/recording/cassette.ts';
import { leakScan } from '../../../src/recording/leakScan.ts';
import { resetRecordingAndReplay, startRecording, startReplay } from '../../../src/recording/session.ts';
import { uniqueToken } from '../../../src/recording/uniqueSource.ts';

const PLANTED = 'planted-token-7c4e1f9a2b6d';

test.afterEach(async () => {
  await resetRecordingAndReplay();
  delete process.env.STORE_ACCESS_TOKEN;
});

function echoServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-echo', String(req.headers.authentication ?? ''));
      res.statusCode = req.url?.startsWith('/v1/1/products') ? 200 : 404;
      res.end(JSON.stringify({ url: req.url, auth: req.headers.authentication, sent: body, created_at: new Date().toISOString() }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as { port: number }).port}` })),
  );
}

test('a recorded test replays with the provider gone, and the planted token is in no file', async () => {
  process.env.STORE_ACCESS_TOKEN = PLANTED;
  const root = mkdtempSync(join(tmpdir(), 'recordings-'));
  const id = { root, api: 'store' as const, suite: 'products', test: 'store.products.list: a page' };
  const { server, origin } = await echoServer();
  const send = (path: string, body?: string) =>
    transport({
      method: body ? 'POST' : 'GET',
      url: new URL(path, origin),
      headers: { authentication: `bearer ${PLANTED}`, 'user-agent': 'app (a@b.example)' },
      body,
    });

  const recording = await startRecording(id, { origin });
  const name = `Shirt (harness ${uniqueToken()})`;
  const live = [await send('/v1/1/products?page=1'), await send('/v1/1/products', JSON.stringify({ name })), await send('/v1/1/missing')];
  const outcome = await recording.close();
  server.close();

  expect(outcome.interactions).toBe(3);
  const paths = cassettePaths(root, 'store', 'products', id.test);
  const raw = readCassette(paths.raw);
  expect(raw.interactions.map((i) => `${i.method} ${i.path} ${i.status}`)).toEqual([
    'GET /v1/1/products?page=1 200',
    'POST /v1/1/products 200',
    'GET /v1/1/missing 404',
  ]);
  expect(leakScan([root], [PLANTED]), 'the planted token must be in no recording').toEqual([]);
  // The scan itself can fail: a file holding the token is found.
  writeFileSync(join(root, 'leak.txt'), `token=${encodeURIComponent(PLANTED)}`);
  expect(leakScan([root], [PLANTED])).toEqual([join(root, 'leak.txt')]);
  // Normalised beside the raw one: timestamps and the generated name are placeholders.
  const normalised = readFileSync(paths.normalised, 'utf8');
  expect(normalised).toContain('<timestamp>');
  expect(normalised).toContain('(harness <unique>)');

  // Replay: the same requests (the generated name comes from the recorded seed) get the recorded answers.
  const replay = await startReplay(id);
  const answers = [
    await send('/v1/1/products?page=1'),
    await send('/v1/1/products', JSON.stringify({ name: `Shirt (harness ${uniqueToken()})` })),
    await send('/v1/1/missing'),
  ];
  expect(answers.map((a) => a.status)).toEqual(live.map((a) => a.status));
  expect(answers[1]!.text).toContain(JSON.stringify(JSON.stringify({ name })).slice(1, -1));
  // A request never recorded fails, naming the closest recorded one.
  await expect(send('/v1/1/products?page=9')).rejects.toThrow(
    /closest recorded request is GET \/v1\/1\/products\?page=1 .*query \(recorded "page=1", sent "page=9"\)/,
  );
  // Lockdown: an origin nothing was recorded from is refused, not reached.
  await expect(transport({ method: 'GET', url: new URL('http://127.0.0.1:9/elsewhere'), headers: {}, body: undefined })).rejects.toThrow(
    /Disallowed net connect/,
  );
  expect((await replay.close()).unused).toEqual([]);
});
