/**
 * Pact's core through the harness's front (contracts/verification/verifierFront.ts): verifications side by side in
 * one process each reach their own provider with their own filter; a state call's values reach the pact's
 * provider-state expressions; a provider that cannot be reached is answered at once, marked as the harness's; and the
 * root variables the core is given are put back once no verification is under way.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { getGlobalDispatcher } from 'undici';
import { processEnv } from '../../../src/config/env.ts';
import { verifyThroughFront, type FrontSession } from '../../../contracts/verification/verifierFront.ts';

/** A provider that answers every request 200 with `{ok: true}` and keeps what it was sent. */
async function provider(): Promise<{ url: string; seen: IncomingMessage[]; server: Server }> {
  const seen: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    seen.push(req);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

/** A V3 pact of one GET interaction; its path from the state's `storeId` when `fromState`. */
function pact(path: string, fromState = false): string {
  return JSON.stringify({
    consumer: { name: 'front-test' },
    provider: { name: 'a-provider' },
    metadata: { pactSpecification: { version: '3.0.0' } },
    interactions: [
      {
        description: `a request for ${path}`,
        providerStates: [{ name: 'a store exists', params: {} }],
        request: {
          method: 'GET',
          path,
          headers: { 'X-Team': 'any' },
          ...(fromState ? { generators: { path: { type: 'ProviderState', expression: '/stores/${storeId}', dataType: 'STRING' } } } : {}),
        },
        response: { status: 200, body: { ok: true } },
      },
    ],
  });
}

/** A session whose filter sets the X-Team header to `team`, as verifyInteraction's adds credentials. */
function session(base: string, team: string, values: FrontSession['values'] = {}): FrontSession {
  return {
    base,
    dispatcher: getGlobalDispatcher(),
    values,
    filter: (req, _res, next) => {
      req.headers['x-team'] = team;
      next();
    },
  };
}

test('two verifications side by side each reach their own provider, with their own filter', async () => {
  const [one, two] = await Promise.all([provider(), provider()]);
  try {
    const reports = await Promise.all([
      verifyThroughFront('a-provider', pact('/one'), session(one.url, 'team-one')),
      verifyThroughFront('a-provider', pact('/two'), session(two.url, 'team-two')),
    ]);
    expect(reports.map((report) => JSON.parse(report).result)).toEqual([true, true]);
    expect(one.seen.map((req) => [req.url, req.headers['x-team']])).toEqual([['/one', 'team-one']]);
    expect(two.seen.map((req) => [req.url, req.headers['x-team']])).toEqual([['/two', 'team-two']]);
  } finally {
    one.server.close();
    two.server.close();
  }
});

test("a state's values reach the pact's provider-state expressions, and a base path comes before the pact's", async () => {
  const one = await provider();
  try {
    await verifyThroughFront('a-provider', pact('/stores/1', true), session(`${one.url}/api`, 'team-one', { storeId: 42 }));
    expect(one.seen.map((req) => req.url)).toEqual(['/api/stores/42']);
  } finally {
    one.server.close();
  }
});

test('a provider that cannot be reached is answered 502 at once, marked as the harness answer', async () => {
  const gone = await provider();
  await new Promise((resolve) => gone.server.close(resolve));
  const started = performance.now();
  const failure = await verifyThroughFront('a-provider', pact('/one'), session(gone.url, 'team-one')).catch((error: unknown) => error);
  expect(failure, 'the verification must fail').toBeInstanceOf(Error);
  expect((failure as Error).message).toContain('expected 200 but was 502');
  expect(performance.now() - started, 'no wait for a timeout').toBeLessThan(10_000);
});

test('the root variables given to the core are put back once no verification is under way', async () => {
  const before = [processEnv()['SSL_CERT_FILE'], processEnv()['SSL_CERT_DIR']];
  const one = await provider();
  try {
    let during: (string | undefined)[] = [];
    const filtered: FrontSession = {
      ...session(one.url, 'team-one'),
      filter: (req, res, next) => {
        during = [processEnv()['SSL_CERT_FILE'], processEnv()['SSL_CERT_DIR']];
        session(one.url, 'team-one').filter(req, res, next);
      },
    };
    await verifyThroughFront('a-provider', pact('/one'), filtered);
    expect(during[0], 'while the core verifies, it has one root').toMatch(/isrg-root-x1\.pem$/);
    expect([processEnv()['SSL_CERT_FILE'], processEnv()['SSL_CERT_DIR']]).toEqual(before);
  } finally {
    one.server.close();
  }
});
