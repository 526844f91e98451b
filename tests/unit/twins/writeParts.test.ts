/**
 * src/twins/serving/writeParts.ts: a body written as parts (small ones copied
 * together, large ones as they are) arrives as the same bytes, with the
 * Content-Length of their sum, as one joined buffer would.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { byteLengthOf, endWithParts } from '../../../src/twins/serving/writeParts.ts';
import { send } from '../support/twinHttp.ts';

const big = (fill: string, size: number): Buffer => Buffer.alloc(size, fill);
const BODIES: Record<string, readonly Buffer[]> = {
  '/one': [Buffer.from('{"only":true}')],
  '/none': [],
  '/mixed': [
    Buffer.from('{"data":'),
    Buffer.from('['),
    big('a', 5_000),
    Buffer.from(','),
    big('b', 1_024),
    Buffer.alloc(0),
    Buffer.from(',"x"'),
    big('c', 700),
    big('d', 400),
    Buffer.from(']}'),
  ],
  '/small': Array.from({ length: 300 }, (_, i) => Buffer.from(`${i},`)),
};

let server: Server;
let origin: string;

test.beforeAll(async () => {
  server = createServer((req, res) => {
    const parts = BODIES[req.url ?? ''] ?? [];
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(byteLengthOf(parts)) });
    endWithParts(res, parts);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
});

test('a body written as parts arrives as the joined parts, with their length', async () => {
  for (const [path, parts] of Object.entries(BODIES)) {
    const answer = await send(`${origin}${path}`);
    const joined = Buffer.concat(parts);
    expect(answer.headers['content-length'], path).toBe(String(joined.length));
    expect(answer.text, path).toBe(joined.toString('utf8'));
  }
});
