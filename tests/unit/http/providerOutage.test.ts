/**
 * The outage watch of a live run (src/http/providerOutage.ts, interceptors/outage.ts), on a media client sent through
 * a worker's guard as the fixtures send it, against loopback servers that refuse or cut connections. Time is a
 * virtual clock: the retry budget's waits pass at once, and the test says what happens during one (no sleeps).
 * - an origin that answers none of the budget's attempts is declared unreachable once, its request fails with that
 *   reason, and a later request fails at once without leaving;
 * - a provider that comes back within the budget loses nothing: the request gets its answer, nothing is declared;
 * - a write the provider may have taken is not sent again by the watch;
 * - the processes of a run share what was declared; the line names the API, host and time, never a path or a secret.
 * The whole run through a provider that stops: tests/unit/live/providerOutage.test.ts.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { VirtualClock, type Clock } from '../../../src/clock/Clock.ts';
import { MediaClient } from '../../../src/clients/media/MediaClient.ts';
import { LiveRequestGuard } from '../../../src/testing/LiveRequestGuard.ts';
import { freePort } from '../../../src/http/freePort.ts';
import {
  OUTAGE_BUDGET,
  outageLine,
  ProviderOutages,
  readOutages,
  UNREACHABLE_CODE,
  UNREACHABLE_REFUSED_CODE,
  type Outage,
} from '../../../src/http/providerOutage.ts';

const START = Date.UTC(2026, 0, 2, 22, 51, 7);

/** A media client on a worker's guard whose outage watch runs on `clock`; retries of its own off, so only the watch sends again. */
function watched(origin: string, clock: Clock) {
  const outages = new ProviderOutages({ clock });
  const guard = new LiveRequestGuard(1000, undefined, { store: true, media: true }, outages);
  const client = new MediaClient({ baseUrl: `${origin}/api/edge`, token: 'outage-test-token', retry: { maxRetries: 0 }, ...guard.clientOptions('media') });
  return { outages, guard, client };
}

/** A server that accepts each connection and cuts it at once: a provider that resets; counts the connections. */
async function cuttingServer(): Promise<{ origin: string; connections: () => number; server: NetServer }> {
  let connections = 0;
  const server = createNetServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections, server };
}

const answering = () =>
  createHttpServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/vnd.api+json' }).end('{"data":[]}');
  });

const failureOf = (sent: Promise<unknown>) =>
  sent.then(
    () => undefined,
    (error: unknown) => error as Error & { causeCode?: string; cause?: unknown },
  );

test('an origin that answers none of the budget is declared unreachable once; its request fails with the reason, and a later one without leaving', async () => {
  const cutting = await cuttingServer();
  try {
    const clock = new VirtualClock(START);
    const { guard, client, outages } = watched(cutting.origin, clock);

    const first = await failureOf(client.send({ method: 'GET', path: '/anime' }));
    expect(first?.causeCode, 'the request met the outage: not retryable, named as such').toBe(UNREACHABLE_CODE);
    // The budget: the first attempt and four more, after 0.25, 0.5, 1 and 2 s.
    expect(cutting.connections()).toBe(OUTAGE_BUDGET.attempts);
    expect(clock.now() - START).toBe(3_750);
    const outage = guard.unreachable('media');
    expect(outage).toMatchObject({ api: 'media', origin: cutting.origin, since: START, attempts: 5 });
    expect(outages.declared(`${cutting.origin}/api/edge/anything`), 'declared for the origin, whatever the path').toEqual(outage);
    expect(first?.message).toContain(outageLine(outage!));

    const later = await failureOf(client.send({ method: 'GET', path: '/manga' }));
    expect(later?.causeCode).toBe(UNREACHABLE_REFUSED_CODE);
    expect(cutting.connections(), 'refused before it left: no connection, no wait').toBe(5);
    expect(clock.now() - START).toBe(3_750);
    // What left is counted against LIVE_REQUEST_BUDGET (the request and its four resends); the refused one is not.
    expect(guard.report('media')).toMatchObject({ sent: 5 });
    expect(guard.unreachable('media'), 'a report starts the next test afresh').toBeUndefined();
    expect(guard.outageAt(cutting.origin), 'but the origin stays declared for the run').toEqual(outage);
  } finally {
    cutting.server.close();
  }
});

test('a provider that answers again within the budget loses nothing: the request gets its answer and nothing is declared', async () => {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  let server: Server | undefined;
  let waits = 0;
  const clock = new VirtualClock(START);
  // The provider is back during the third wait (after three refused attempts, 1.75 s in).
  const comesBack: Clock = {
    now: () => clock.now(),
    sleep: async (ms) => {
      await clock.sleep(ms);
      if (++waits === 3) await new Promise<void>((done) => (server = answering().listen(port, '127.0.0.1', done)));
    },
  };
  try {
    const { guard, client, outages } = watched(origin, comesBack);
    const answer = await client.send({ method: 'GET', path: '/anime' });
    expect(answer.status).toBe(200);
    expect(waits).toBe(3);
    expect(guard.unreachable('media')).toBeUndefined();
    expect(outages.declared(origin)).toBeUndefined();
    // Its streak is over: the next outage needs the whole budget again.
    await new Promise<void>((done) => server!.close(() => done()));
    server = undefined;
    expect(await failureOf(client.send({ method: 'GET', path: '/anime' }))).toMatchObject({ causeCode: UNREACHABLE_CODE });
    expect(waits, 'four more waits: the budget again, from the start').toBe(7);
  } finally {
    server?.close();
  }
});

test('a write the provider may have taken (its connection cut) is not sent again by the watch; a refused one is', async () => {
  const cutting = await cuttingServer();
  try {
    const { client, guard } = watched(cutting.origin, new VirtualClock(START));
    const cut = await failureOf(client.send({ method: 'POST', path: '/library-entries', body: { data: { type: 'libraryEntries' } } }));
    expect(cut?.causeCode, 'its own error, for the client to decide on').not.toMatch(/^HARNESS_/);
    expect(cutting.connections()).toBe(1);
    expect(guard.unreachable('media')).toBeUndefined();
  } finally {
    cutting.server.close();
  }
  // Nothing listens: a refused connection never reached the provider, so the write is sent again within the budget.
  const refused = watched(`http://127.0.0.1:${await freePort()}`, new VirtualClock(START));
  const failed = await failureOf(refused.client.send({ method: 'POST', path: '/library-entries', body: { data: { type: 'libraryEntries' } } }));
  expect(failed?.causeCode).toBe(UNREACHABLE_CODE);
  expect(refused.guard.unreachable('media')?.code).toBe('ECONNREFUSED');
});

test("the run's processes share what they declared, through the reporter's file", () => {
  const dir = mkdtempSync(join(tmpdir(), 'outages-'));
  try {
    const file = join(dir, 'outages');
    writeFileSync(file, '');
    const clock = new VirtualClock(START);
    const worker = new ProviderOutages({ clock, shared: file });
    const other = new ProviderOutages({ clock, shared: file });
    const origin = 'https://api.example.test';
    let declared: Outage | undefined;
    for (let attempt = 0; attempt < OUTAGE_BUDGET.attempts; attempt++) {
      expect(declared).toBeUndefined();
      declared = worker.failed(origin, 'ECONNREFUSED', 'store');
      void clock.sleep(worker.retryAfterMs(attempt));
    }
    expect(declared).toBeDefined();
    expect(other.declared(`${origin}/v1/1/products`)).toEqual(declared);
    expect(readOutages(file)).toEqual([declared]);
    // Timed-out attempts each waited their time: two are enough, once 3 s have passed.
    const slow = new ProviderOutages({ clock });
    expect(slow.failed('https://slow.example.test', 'UND_ERR_HEADERS_TIMEOUT', 'media')).toBeUndefined();
    void clock.sleep(OUTAGE_BUDGET.windowMs);
    expect(slow.failed('https://slow.example.test', 'UND_ERR_HEADERS_TIMEOUT', 'media')).toMatchObject({ attempts: 2 });
    // A refusal of the harness's own (a guard's code) says nothing about the provider.
    expect(slow.failed('https://other.example.test', 'HARNESS_LIVE_BUDGET_SPENT', 'media')).toBeUndefined();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the line names the API, the host and when it stopped answering: never a path, a query or a credential', () => {
  const watch = new ProviderOutages({ clock: new VirtualClock(START), budget: { ...OUTAGE_BUDGET, attempts: 1, windowMs: 0 } });
  const outage = watch.failed('https://someone:s3cret@media.example.test:8443/api/edge/anime?access_token=t0k3n', 'ECONNREFUSED', 'media')!;
  expect(outageLine(outage)).toBe(
    'provider unreachable: the media API at media.example.test:8443 stopped answering at 22:51:07 UTC (connection refused); the tests it keeps from verifying are not verified',
  );
});
