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
import { retry, type Attempt } from '../../../src/http/interceptors/retry.ts';
import { requestStack, requestStackOn } from '../../../src/http/requestStack.ts';
import type { RetryableAnswer } from '../../../src/http/RetryPolicy.ts';
import { transport } from '../../../src/http/transport.ts';
import { mocked, ORIGIN, Retry503 } from './mockedService.ts';

/** A gate that logs, on the clock, each attempt entering it and how it left, and holds each for `holdMs`. */
function loggingGate(clock: VirtualClock, log: string[], holdMs = 0): AttemptGate<number> {
  let tickets = 0;
  return {
    enter: async () => {
      log.push(`enter ${++tickets} at ${clock.now()}`);
      await clock.sleep(holdMs);
      return tickets;
    },
    leave: (ticket, answer) => log.push(`leave ${ticket} ${answer?.status ?? 'no answer'}`),
  };
}

test('retry: only the last answer reaches the caller; each attempt is told first, with its answer read whole, its decision and its timing', async () => {
  const agent = mocked();
  const pool = agent.get(ORIGIN);
  pool.intercept({ path: '/things' }).reply(503, 'busy', { headers: { 'retry-after': '1' } });
  pool.intercept({ path: '/things' }).reply(200, '\uFEFF{"ok":true}', { headers: { 'x-seen': ['a', 'b'] } });
  const clock = new VirtualClock(0);
  const told: Attempt[] = [];
  const stack = agent.compose(retry({ policy: new Retry503(), clock, onAttempt: (attempt) => told.push(attempt) }));
  const answer = await request(`${ORIGIN}/things`, { dispatcher: stack });
  expect([answer.statusCode, await answer.body.text()]).toEqual([200, '{"ok":true}']);
  expect(told).toEqual([
    {
      attempt: 0,
      startedAt: 0,
      durationMs: 0,
      pacedMs: 0,
      end: { answer: { status: 503, headers: { 'retry-after': '1' }, text: 'busy' } },
      decision: { reason: '503: later', afterMs: 100 },
    },
    {
      attempt: 1,
      startedAt: 100,
      durationMs: 0,
      pacedMs: 0,
      end: { answer: { status: 200, headers: { 'x-seen': 'a, b' }, text: '{"ok":true}' } },
      decision: undefined,
    },
  ]);
});

test('retry: a network failure is decided on its code; the last one is the request’s error, the same object', async () => {
  const agent = mocked();
  const pool = agent.get(ORIGIN);
  const resets = [1, 2, 3].map((n) => Object.assign(new Error(`reset ${n}`), { code: 'ECONNRESET' }));
  for (const reset of resets) pool.intercept({ path: '/things' }).replyWithError(reset);
  const clock = new VirtualClock(0);
  const told: (number | undefined)[] = [];
  const stack = agent.compose(retry({ policy: new Retry503(2), clock, onAttempt: ({ decision }) => told.push(decision?.afterMs) }));
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
  const stack = agent.compose(retry({ policy: new Retry503(), clock: new VirtualClock(0), retry: false, onAttempt: ({ attempt }) => told.push(attempt) }));
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
    pacing(loggingGate(clock, log), clock),
    retry({ policy, clock, onAttempt: ({ attempt, decision }) => log.push(`attempt ${attempt} retry ${decision?.afterMs}`) }),
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

test('a guard’s refusal is an attempt without an answer: the gate hears of it, the retry policy decides on its code, the report has its pacing', async () => {
  const agent = mocked();
  const clock = new VirtualClock(0);
  const log: string[] = [];
  const refusal = Object.assign(new Error('over budget'), { code: 'TEST_REFUSED' });
  const refuse = () => {
    throw refusal;
  };
  const told: Pick<Attempt, 'end' | 'pacedMs'>[] = [];
  const stack = requestStack([refuse], agent).compose(
    pacing(loggingGate(clock, log, 30), clock),
    retry({ policy: new Retry503(), clock, onAttempt: ({ end, pacedMs }) => told.push({ end, pacedMs }) }),
  );
  await expect(request(`${ORIGIN}/things`, { dispatcher: stack })).rejects.toBe(refusal);
  // Not a retryable code: one attempt.
  expect(told).toEqual([{ end: { error: refusal }, pacedMs: 30 }]);
  expect(log).toEqual(['enter 1 at 0', 'leave 1 no answer']);
});

test('admission: a refusal goes to the handler as the request’s error, as undici’s dispatchers hand theirs; nothing is thrown at the caller', () => {
  const agent = mocked();
  const refusal = new Error('refused');
  const stack = requestStack(
    [
      () => {
        throw refusal;
      },
    ],
    agent,
  );
  const heard: unknown[] = [];
  const dispatched = stack.dispatch({ origin: ORIGIN, path: '/things', method: 'GET' }, { onResponseError: (_controller, error) => heard.push(error) });
  expect([dispatched, heard]).toEqual([false, [refusal]]);
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
    leave: (_ticket, answer) => heard.push(answer),
  };
  const answering = request(`${ORIGIN}/things`, { dispatcher: agent.compose(pacing(gate, new VirtualClock(0))) });
  await Promise.resolve();
  expect(heard).toEqual([]);
  open();
  expect(await (await answering).body.text()).toBe('ok');
  expect(heard).toEqual([{ status: 200, headers: { 'x-rate-limit-remaining': '39' } }]);
});

test('pacing: the handler above hears how long the gate held each attempt (the retry reports it); a request marked pace: false is not held', async () => {
  const agent = mocked();
  agent.get(ORIGIN).intercept({ path: '/things' }).reply(200, 'ok').times(2);
  const clock = new VirtualClock(0);
  const holds: boolean[] = [];
  const gate: AttemptGate<undefined> = {
    enter: async (hold) => {
      holds.push(hold);
      if (hold) await clock.sleep(70);
    },
    leave: () => undefined,
  };
  const told: Pick<Attempt, 'startedAt' | 'pacedMs'>[] = [];
  const stack = agent.compose(
    pacing(gate, clock),
    retry({ policy: new Retry503(), clock, onAttempt: ({ startedAt, pacedMs }) => told.push({ startedAt, pacedMs }) }),
  );
  await (await request(`${ORIGIN}/things`, { dispatcher: stack })).body.text();
  // Not one of undici's request options: the mark goes down to the interceptors as it is (transport.ts sends it so).
  await (await request(`${ORIGIN}/things`, { dispatcher: stack, pace: false } as Parameters<typeof request>[1])).body.text();
  expect(holds).toEqual([true, false]);
  expect(told).toEqual([
    { startedAt: 70, pacedMs: 70 },
    { startedAt: 70, pacedMs: 0 },
  ]);
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
    ]).compose(pacing(loggingGate(clock, log), clock), retry({ policy: new Retry503(), clock }));
    const put = { method: 'PUT', url: new URL(`${origin}/v1/1/categories/7`), headers: {}, body: undefined, omitContentLength: true };
    await expect(transport(put, stack)).rejects.toBe(refusal);
    expect(log).toEqual(['enter 1 at 0', 'leave 1 no answer']);
    expect(arrived).toEqual([]);
  });
});
