/**
 * `api-contract-harness webhooks send|check` (scripts/webhooks.ts) against handlers in this process: what it sends
 * is what the twin sends (signed the same way), each check can fail, and bad usage exits 2 before any request.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { webhooksCommand } from '../../../scripts/webhooks.ts';
import { SIGNATURE_HEADER } from '../../../src/twins/store/webhookDelivery.ts';

const SECRET = 'unit-secret';

interface Seen {
  readonly body: string;
  readonly signature: string | undefined;
}

/** A handler on loopback: `answer` decides the status from what it received. */
async function handler(answer: (seen: Seen) => number): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const one = { body: Buffer.concat(chunks).toString('utf8'), signature: req.headers[SIGNATURE_HEADER.toLowerCase()] as string | undefined };
      seen.push(one);
      res.writeHead(answer(one)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const signed = (body: string) => createHmac('sha256', SECRET).update(body).digest('hex');
/** Checks the signature and the JSON, as a correct handler does. */
const strict = ({ body, signature }: Seen): number => {
  if (signature !== signed(body)) return 401;
  try {
    JSON.parse(body);
    return 200;
  } catch {
    return 400;
  }
};

async function runCommand(argv: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await webhooksCommand(argv, (line) => lines.push(line));
  return { code, lines };
}

test('send posts {store_id,event,id} signed with the secret and prints the answer', async () => {
  const target = await handler(strict);
  try {
    const { code, lines } = await runCommand(['send', 'order/paid', '--to', target.url, '--secret', SECRET, '--store-id', '7', '--id', '42']);
    expect(code).toBe(0);
    expect(target.seen).toEqual([{ body: '{"store_id":7,"event":"order/paid","id":42}', signature: signed('{"store_id":7,"event":"order/paid","id":42}') }]);
    expect(lines.at(-1)).toMatch(/^HTTP 200 in \d+ ms$/);
  } finally {
    await target.close();
  }
});

test('check passes a correct handler, five verdict lines', async () => {
  const target = await handler(strict);
  try {
    const { code, lines } = await runCommand(['check', '--to', target.url, '--secret', SECRET]);
    expect(code).toBe(0);
    expect(lines.filter((l) => l.startsWith('ok   '))).toHaveLength(5);
    expect(lines.at(-1)).toBe('webhooks check: 5 passed, 0 failed');
  } finally {
    await target.close();
  }
});

test('check fails a handler that accepts anything, and one that answers 500 to what is not JSON', async () => {
  const lax = await handler(() => 200);
  const crashy = await handler((seen) => (strict(seen) === 400 ? 500 : strict(seen))); // a parse error escapes as a 500
  try {
    const accepted = await runCommand(['check', '--to', lax.url, '--secret', SECRET]);
    expect(accepted.code).toBe(1);
    expect(accepted.lines.filter((l) => l.startsWith('FAIL'))).toEqual([
      expect.stringMatching(/^FAIL a wrong signature is not answered 2xx: HTTP 200/),
      expect.stringMatching(/^FAIL a missing signature is not answered 2xx: HTTP 200/),
    ]);
    const crashed = await runCommand(['check', '--to', crashy.url, '--secret', SECRET]);
    expect(crashed.code).toBe(1);
    expect(crashed.lines.filter((l) => l.startsWith('FAIL'))).toEqual([expect.stringMatching(/^FAIL a body that is not JSON is not answered 5xx: HTTP 500/)]);
  } finally {
    await lax.close();
    await crashy.close();
  }
});

test('check fails a handler nobody listens on, and bad usage exits 2 before any request', async () => {
  const refused = await runCommand(['check', '--to', 'http://127.0.0.1:1/hooks', '--secret', SECRET]);
  expect(refused.code).toBe(1);
  expect(refused.lines.at(-1)).toBe('webhooks check: 0 passed, 5 failed');
  for (const argv of [
    ['check', '--secret', SECRET],
    ['check', '--to', 'ftp://x', '--secret', SECRET],
    ['send', '--to', 'http://127.0.0.1:1'],
    ['send', 'product/created', '--to', 'http://127.0.0.1:1', '--secret', 's', '--id', 'x'],
    ['nope'],
  ]) {
    expect((await runCommand(argv)).code, argv.join(' ')).toBe(2);
  }
});
