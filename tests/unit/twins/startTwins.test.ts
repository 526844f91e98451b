/**
 * startTwins, the entry point a team's own tests import (api-contract-harness/twins), and the settings of
 * `twins` on the command line: free ports, what it hands back, a fresh store on the real clock, close.
 */
import { createServer } from 'node:net';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { readTwinSettings, TwinsConfigError } from '../../../src/twins/main.ts';
import { startTwins, TwinsStartError } from '../../../src/twins/startTwins.ts';

test('startTwins picks free ports, hands back the bases, seeded stores, users and control APIs, and close frees the ports', async () => {
  const started = performance.now();
  const twins = await startTwins();
  const tookMs = performance.now() - started;
  try {
    expect(tookMs, 'it starts in well under a second').toBeLessThan(1000);
    const [store] = twins.store.stores;
    const answer = await fetch(`${store!.baseUrl}/store`, {
      headers: { Authentication: `bearer ${store!.token}`, 'User-Agent': 'startTwins test (t@example.test)' },
    });
    expect(answer.status).toBe(200);
    const user = twins.media.users[0]!;
    const token = await fetch(twins.media.oauthTokenUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ grant_type: 'password', username: user.email, password: user.password }),
    });
    expect(token.status).toBe(200);
    expect((await fetch(`${twins.media.url}/anime?page[limit]=1`)).status).toBe(200);
    const fresh = await twins.store.control.createStore({ products: 2, clock: 'real' });
    expect(fresh).toMatchObject({ clock: 'real' });
    await twins.store.control.injectFaults(fresh.storeId, { status: 503, count: 1 });
    await twins.store.control.clearFaults(fresh.storeId);
    expect((await twins.store.control.listStores()).map((s) => s.storeId)).toContain(fresh.storeId);
    const reset = await twins.store.control.reset();
    expect(reset.stores.map((s) => s.storeId)).not.toContain(fresh.storeId);
    await twins.media.control.reset();
  } finally {
    await twins.close();
  }
  const port = Number(new URL(twins.store.url).port);
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
  await new Promise((resolve) => server.close(resolve));
});

test('a port in use is a TwinsStartError naming the twin and the code, and the other twin is not left running', async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
  const port = (blocker.address() as { port: number }).port;
  try {
    const failure = await startTwins({ mediaPort: port }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TwinsStartError);
    expect(failure).toMatchObject({ twin: 'media', port, code: 'EADDRINUSE' });
  } finally {
    await new Promise((resolve) => blocker.close(resolve));
  }
});

test('twins settings: flags win over the variables; a bad port or an unknown flag names the fix', () => {
  expect(readTwinSettings(['--host', '0.0.0.0', '--store-port', '0', '--media-port', '5020'])).toMatchObject({
    host: '0.0.0.0',
    storePort: 0,
    mediaPort: 5020,
  });
  expect(readTwinSettings([]).host).toBe('127.0.0.1');
  expect(() => readTwinSettings(['--store-port', 'x'])).toThrow(TwinsConfigError);
  expect(() => readTwinSettings(['--store-port', '70000'])).toThrow(/--store-port="70000" is not a TCP port/);
  expect(() => readTwinSettings(['--port', '1'])).toThrow(/unknown option "--port"/);
  expect(() => readTwinSettings(['--host'])).toThrow(/--host needs a value/);
});
