/**
 * The client's interceptors as undici sees them: retry and pacing composed on
 * a request stack and used through undici's own `request`, so any sender that
 * composes them gets the same stack. Outermost first: retry, pacing, the live
 * guards, and innermost the base that sends a bodyless PUT without
 * Content-Length; every attempt, retries and that PUT included, is paced and
 * passes every guard.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { VirtualClock } from '../../../src/clock/Clock.ts';
import { pacing, type AttemptGate } from '../../../src/http/interceptors/pacing.ts';
import { retry, type AttemptEnd } from '../../../src/http/interceptors/retry.ts';
import { requestStack, requestStackOn } from '../../../src/http/requestStack.ts';
import type { RetryableAnswer } from '../../../src/http/RetryPolicy.ts';
import { transport } from '../../../src/http/transport.ts';
import { mocked, ORIGIN, Retry503 } from './mockedService.ts';

/** A gate that logs, on the clock, each attempt entering it and how it left. */
function loggingGate(clock: VirtualClock, log: string[]): AttemptGate<number> {
  let passes = 0;
  return {
    enter: async () => {
      log.push(`enter ${++passes} at ${clock.now()}`);
      return passes;
    },
    leave: (pass, answer) => log.push(`leave ${pass} ${answer?.status ?? 'no answer'}`),
  };
}

test('retry: only the last answer reaches the caller; each attempt is told first, with its answer read whole and its decision', async () => {
  const agent = mocked();
  const pool = agent.get(ORIGIN);
  pool.intercept({ path: '/things' }).reply(503, 'busy', { headers: { 'retry-after': '1' } });
  pool.intercept({ path: '/things' }).reply(200, '\uFEFF{"ok":true}', { headers: { 'x-seen': ['a', 'b'] } });
  const clock = new VirtualClock(0);
  const told: [number, AttemptEnd, number | undefined, number][] = [];
  const stack = agent.compose(retry({ policy: new Retry503(), clock, onAttempt: (n, end, decision) => told.push([n, end, decision?.afterMs, clock.now()]) }));
  const answer = await request(`${ORIGIN}/things`, { dispatcher: stack });
  expect([answer.statusCode, await answer.body.text()]).toEqual([200, '{"ok":true}']);
  expect(told).toEqual([
    [0, { answer: { status: 503, headers: { 'retry-after': '1' }, text: 'busy' } }, 100, 0],
    [1, { answer: { status: 200, headers: { 'x-seen': 'a, b' }, text: '{"ok":true}' } }, undefined, 100],
  ]);
});

test('retry: a network failure is decided on its code; the last one is the request’s error, the same object', async () => {
  const agent = mocked();
  const pool = agent.get(ORIGIN);
  const resets = [1, 2, 3].map((n) => Object.assign(new Error(`reset ${n}`), { code: 'ECONNRESET' }));
  for (const reset of resets) pool.intercept({ path: '/things' }).replyWithError(reset);
  const clock = new VirtualClock(0);
  const told: (number | undefined)[] = [];
  const stack = agent.compose(retry({ policy: new Retry503(2), clock, onAttempt: (_n, _end, decision) => told.push(decision?.afterMs) }));
  const failed = await request(`${ORIGIN}/things`, { dispatcher: stack }).catch((e: unknown) => e);
  expect(failed).toBe(resets[2]);
  // The core's back-off: base × 2^n.
  expect(told).toEqual([250, 500, undefined]);
  expect(clock.now()).toBe(750);
});

test('retry off: one attempt, its answer as it is', async () => {
  const agent = mocked();
  agent.get(ORIGIN).intercept({ path: '/things' }).reply(503, 'busy');
  const told: number[] = [];
  const stack = agent.compose(retry({ policy: new Retry503(), clock: new VirtualClock(0), retry: false, onAttempt: (n) => told.push(n) }));
  expect((await request(`${ORIGIN}/things`, { dispatcher: stack })).statusCode).toBe(503);
  expect(told).toEqual([0]);
});

test('the order, retry then pacing then the guards: every attempt, retries included, is paced, then asks each guard', async () => {
  const agent = mocked();
  const pool = agent.get(ORIGIN);
  pool.intercept({ path: '/things', method: 'POST' }).reply(503, 'busy');
  pool.intercept({ path: '/things', method: 'POST' }).replyWithError(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }));
  pool.intercept({ path: '/things', method: 'POST' }).reply(201, 'made');
  const clock = new VirtualClock(0);
  const log: string[] = [];
  const guards = [(method: string) => void log.push(`write guard ${method}`), (method: string, path: string) => void log.push(`budget ${path}`)];
  const policy = new Retry503();
  const stack = requestStack(guards, agent).compose(
    pacing(loggingGate(clock, log)),
    retry({ policy, clock, onAttempt: (n, _end, decision) => log.push(`attempt ${n} retry ${decision?.afterMs}`) }),
  );
  const answer = await request(`${ORIGIN}/things`, { method: 'POST', body: '{}', dispatcher: stack });
  expect(answer.statusCode).toBe(201);
  expect(log).toEqual([
    'enter 1 at 0',
    'write guard POST',
    'budget /things',
    'leave 1 503',
    'attempt 0 retry 100',
    'enter 2 at 100',
    'write guard POST',
    'budget /things',
    'leave 2 no answer',
    'attempt 1 retry 500',
    'enter 3 at 600',
    'write guard POST',
    'budget /things',
    'leave 3 201',
    'attempt 2 retry undefined',
  ]);
});

test('a guard’s refusal is an attempt without an answer: the gate hears of it, the retry policy decides on its code', async () => {
  const agent = mocked();
  const clock = new VirtualClock(0);
  const log: string[] = [];
  const refusal = Object.assign(new Error('over budget'), { code: 'TEST_REFUSED' });
  const refuse = () => {
    throw refusal;
  };
  const ends: AttemptEnd[] = [];
  const stack = requestStack([refuse], agent).compose(
    pacing(loggingGate(clock, log)),
    retry({ policy: new Retry503(), clock, onAttempt: (_n, end) => ends.push(end) }),
  );
  await expect(request(`${ORIGIN}/things`, { dispatcher: stack })).rejects.toBe(refusal);
  // Not a retryable code: one attempt.
  expect(ends).toEqual([{ error: refusal }]);
  expect(log).toEqual(['enter 1 at 0', 'leave 1 no answer']);
});

test('pacing: the gate holds each attempt until it enters, and hears the status and lower-case headers of its answer', async () => {
  const agent = mocked();
  agent
    .get(ORIGIN)
    .intercept({ path: '/things' })
    .reply(200, 'ok', { headers: { 'X-Rate-Limit-Remaining': '39' } });
  const heard: (RetryableAnswer | undefined)[] = [];
  let open: () => void = () => undefined;
  const gate: AttemptGate<undefined> = {
    enter: () => new Promise((resolve) => (open = () => resolve(undefined))),
    leave: (_pass, answer) => heard.push(answer),
  };
  const answering = request(`${ORIGIN}/things`, { dispatcher: agent.compose(pacing(gate)) });
  await Promise.resolve();
  expect(heard).toEqual([]);
  open();
  expect(await (await answering).body.text()).toBe('ok');
  expect(heard).toEqual([{ status: 200, headers: { 'x-rate-limit-remaining': '39' } }]);
});

test('requestStackOn: a request stack is used as it is; another dispatcher gets one unguarded stack, made once', () => {
  const agent = mocked();
  const guarded = requestStack([], agent);
  expect(requestStackOn(guarded)).toBe(guarded);
  const unguarded = requestStackOn(agent);
  expect(unguarded).not.toBe(agent);
  expect(requestStackOn(agent)).toBe(unguarded);
});

test.describe('the bodyless PUT without Content-Length', () => {
  let server: Server;
  let origin: string;
  const arrived: { method?: string; url?: string; length?: string; chunked?: string }[] = [];

  test.beforeAll(async () => {
    server = createServer((req, res) => {
      arrived.push({ method: req.method, url: req.url, length: req.headers['content-length'], chunked: req.headers['transfer-encoding'] });
      req.resume();
      res.writeHead(411, { 'content-type': 'text/plain' }).end('Length Required');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  test.afterAll(() => server.close());
  test.beforeEach(() => void (arrived.length = 0));

  test('goes on the stack: it asks the guards, leaves with neither Content-Length nor Transfer-Encoding, and answers through undici', async () => {
    const asked: string[] = [];
    const stack = requestStack([(method, path) => void asked.push(`${method} ${path}`)]);
    const put = { method: 'PUT', url: new URL(`${origin}/v1/1/categories/7?x=1`), headers: { authentication: 'bearer t' }, body: undefined };
    const answer = await transport({ ...put, omitContentLength: true }, stack);
    expect(answer).toMatchObject({ status: 411, text: 'Length Required', headers: { 'content-type': 'text/plain' } });
    await transport(put, stack);
    expect(asked).toEqual(['PUT /v1/1/categories/7?x=1', 'PUT /v1/1/categories/7?x=1']);
    expect(arrived).toEqual([
      { method: 'PUT', url: '/v1/1/categories/7?x=1', length: undefined, chunked: undefined },
      // Without the mark, undici's own Content-Length: 0.
      { method: 'PUT', url: '/v1/1/categories/7?x=1', length: '0', chunked: undefined },
    ]);
  });

  test('a guard refuses it before it leaves, and the retry and pacing above see it like any attempt', async () => {
    const clock = new VirtualClock(0);
    const log: string[] = [];
    const refusal = new Error('write refused');
    const stack = requestStack([
      () => {
        throw refusal;
      },
    ]).compose(pacing(loggingGate(clock, log)), retry({ policy: new Retry503(), clock }));
    const put = { method: 'PUT', url: new URL(`${origin}/v1/1/categories/7`), headers: {}, body: undefined, omitContentLength: true };
    await expect(transport(put, stack)).rejects.toBe(refusal);
    expect(log).toEqual(['enter 1 at 0', 'leave 1 no answer']);
    expect(arrived).toEqual([]);
  });
});
