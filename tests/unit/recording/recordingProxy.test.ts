/**
 * The recording proxy: what a client sends it reaches the origin unchanged
 * but for the transport (host, framing, compression), the origin's answer
 * comes back as sent, and with a recording open the exchange with the origin
 * lands in the cassette (the client's own hop to the proxy is dropped).
 */
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { cassettePaths, readCassette } from '../../../src/recording/cassette.ts';
import { startRecordingProxy } from '../../../src/recording/recordingProxy.ts';
import { resetRecordingAndReplay, startRecording } from '../../../src/recording/session.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let upstream: Server;
let origin: string;
const seen: Seen[] = [];

test.beforeAll(async () => {
  upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += String(chunk)));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      if (req.url === '/empty') {
        res.writeHead(204, { 'x-empty': 'yes' }).end();
        return;
      }
      res.writeHead(req.method === 'POST' ? 201 : 200, {
        'content-type': 'application/json; charset=utf-8',
        link: `<${origin}/v1/1/products?page=2>; rel="next"`,
        'x-total-count': '45',
      });
      // Two writes: the answer is streamed through, not only buffered ones.
      res.write(`{"url":${JSON.stringify(req.url)},`);
      res.end(`"got":${JSON.stringify(body)}}`);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
});

test.afterAll(() => {
  upstream.close();
});

test.afterEach(async () => {
  await resetRecordingAndReplay();
});

test('forwards the request to the origin and streams the answer back as sent', async () => {
  const proxy = await startRecordingProxy({ origin });
  try {
    seen.length = 0;
    const res = await request(`${proxy.url}/v1/1/products?q=Mochila%20azul`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authentication: 'bearer t0ken', 'accept-encoding': 'gzip' },
      body: JSON.stringify({ name: { es: 'Mochila' } }),
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['x-total-count']).toBe('45');
    expect(res.headers.link).toBe(`<${origin}/v1/1/products?page=2>; rel="next"`);
    expect(await res.body.json()).toEqual({ url: '/v1/1/products?q=Mochila%20azul', got: '{"name":{"es":"Mochila"}}' });

    const [sent] = seen;
    expect(sent).toMatchObject({ method: 'POST', url: '/v1/1/products?q=Mochila%20azul', body: '{"name":{"es":"Mochila"}}' });
    expect(sent!.headers).toMatchObject({ 'content-type': 'application/json', authentication: 'bearer t0ken', host: new URL(origin).host });
    // Bodies are recorded as text, so the proxy asks for them uncompressed.
    expect(sent!.headers['accept-encoding']).toBeUndefined();

    // No User-Agent of its own: a request without one (a pact interaction checks the 400) stays without.
    seen.length = 0;
    const bare = await request(`${proxy.url}/empty`);
    expect(bare.statusCode).toBe(204);
    expect(bare.headers['x-empty']).toBe('yes');
    await bare.body.text();
    expect(seen[0]!.headers['user-agent']).toBeUndefined();
  } finally {
    await proxy.close();
  }
});

test('an origin that cannot be reached is a 502 marked as the proxy’s', async () => {
  const dead = createServer();
  await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
  const deadOrigin = `http://127.0.0.1:${(dead.address() as { port: number }).port}`;
  await new Promise<void>((resolve) => dead.close(() => resolve()));
  const proxy = await startRecordingProxy({ origin: deadOrigin });
  try {
    const res = await request(`${proxy.url}/anything`);
    expect(res.statusCode).toBe(502);
    expect(res.headers['x-harness-proxy']).toBe('error');
    expect(((await res.body.json()) as { message: string }).message).toContain(deadOrigin);
  } finally {
    await proxy.close();
  }
});

test('with a recording open, the exchange with the origin lands in the cassette', async () => {
  const root = mkdtempSync(join(tmpdir(), 'recording-proxy-'));
  const id = { root, api: 'store' as const, suite: 'contracts', test: 'a request to create a product' };
  const proxy = await startRecordingProxy({ origin });
  const session = await startRecording(id, { origin, ignoreOrigins: [proxy.url] });
  const res = await request(`${proxy.url}/v1/1/products`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'app (https://example.invalid)' },
    body: '{"name":"Mochila"}',
  });
  await res.body.text();
  await session.close();
  await proxy.close();

  const files = cassettePaths(root, id.api, id.suite, id.test);
  // The client's hop to the proxy is in this process too, and not recorded: only the exchange with the service is.
  const [recorded, ...rest] = readCassette(files.raw).interactions;
  expect(rest).toEqual([]);
  expect(recorded).toMatchObject({
    scope: origin,
    method: 'POST',
    path: '/v1/1/products',
    body: { name: 'Mochila' },
    status: 201,
    response: { url: '/v1/1/products', got: '{"name":"Mochila"}' },
  });
  expect(recorded!.reqheaders['user-agent']).toBe('app (https://example.invalid)');
  expect(recorded!.rawHeaders['x-total-count']).toBe('45');
  // The normalised file follows.
  expect(readCassette(files.normalised).interactions).toHaveLength(1);
  rmSync(root, { recursive: true });
});
