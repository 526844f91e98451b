import { expect, test } from '../../../src/testing/harnessTest.ts';
import type { MockAgent } from 'undici';
import { VirtualClock } from '../../../src/clock/Clock.ts';
import type { Exchange } from '../../../src/http/Exchange.ts';
import type { RetryPolicy } from '../../../src/http/RetryPolicy.ts';
import { ClientCore } from '../../../src/http/ClientCore.ts';
import type { AttemptGate } from '../../../src/http/interceptors/pacing.ts';
import type { RawResponse } from '../../../src/http/transport.ts';
import { mocked, ORIGIN, Retry503 } from './mockedService.ts';

// The core both clients send through: retries by the policy, the gate around each attempt, one report per attempt.

const SECRET = 's3cret-token';

const REQUEST = { method: 'GET', url: new URL(`${ORIGIN}/things?access_token=${SECRET}`), headers: { Authorization: `Bearer ${SECRET}` }, body: undefined };

/** Sends REQUEST through a core on `agent` that reads answers raw and fails with the attempts it made. */
function send<Ticket = never>(
  agent: MockAgent,
  clock: VirtualClock,
  how: { retry?: boolean; policy?: RetryPolicy; gate?: AttemptGate<Ticket>; report?: (exchange: Exchange) => void } = {},
) {
  const core = new ClientCore<RawResponse, Ticket>(
    { clock, dispatcher: agent, ...(how.report ? { onExchange: how.report } : {}) },
    {
      policy: how.policy ?? new Retry503(),
      ...(how.gate ? { gate: how.gate } : {}),
      read: (raw) => raw,
      noAnswer: (failure) => Object.assign(new Error(`no answer after ${failure.attempts}`), failure),
    },
  );
  return core.send(REQUEST, [SECRET], how.retry ?? true);
}

test('retries what the policy retries, waits on the clock between attempts, and answers the last answer with the retries spent', async () => {
  const agent = mocked();
  const pool = agent.get(ORIGIN);
  pool.intercept({ path: /\/things/ }).reply(503, 'busy');
  pool.intercept({ path: /\/things/ }).reply(503, 'busy');
  pool.intercept({ path: /\/things/ }).reply(200, 'ok');
  const clock = new VirtualClock(0);
  const exchanges: Exchange[] = [];
  const sent = await send(agent, clock, { report: (e) => exchanges.push(e) });
  expect(sent.retries).toBe(2);
  expect(sent.response.status).toBe(200);
  expect(clock.now()).toBe(200);
  expect(exchanges.map((e) => [e.attempt, e.startedAt, e.response?.status, e.retry?.afterMs])).toEqual([
    [0, 0, 503, 100],
    [1, 100, 503, 100],
    [2, 200, 200, undefined],
  ]);
  // Every report is redacted: the header, the URL the client gave, the secret wherever it appears.
  expect(JSON.stringify(exchanges)).not.toContain(SECRET);
  expect(exchanges[0]!.request.headers['Authorization']).toBe('Bearer [REDACTED]');
});

test('with retry off one attempt is all: the 503 is the answer', async () => {
  const agent = mocked();
  agent
    .get(ORIGIN)
    .intercept({ path: /\/things/ })
    .reply(503, 'busy');
  const sent = await send(agent, new VirtualClock(0), { retry: false });
  expect([sent.response.status, sent.retries]).toEqual([503, 0]);
});

test('no answer: retryable network failures are retried with back-off, then the client’s own error names the attempts', async () => {
  const agent = mocked();
  const pool = agent.get(ORIGIN);
  for (let i = 0; i < 3; i++) pool.intercept({ path: /\/things/ }).replyWithError(Object.assign(new Error(`reset ${SECRET}`), { code: 'ECONNRESET' }));
  const clock = new VirtualClock(0);
  const exchanges: Exchange[] = [];
  const error = await send(agent, clock, { policy: new Retry503(2), report: (e) => exchanges.push(e) }).catch((e: unknown) => e);
  expect(error).toMatchObject({ message: 'no answer after 3', causeCode: 'ECONNRESET', method: 'GET', url: `${ORIGIN}/things?access_token=[REDACTED]` });
  expect((error as { causeMessage: string }).causeMessage).not.toContain(SECRET);
  // base × 2^n: 250, then 500.
  expect(exchanges.map((e) => [e.error?.code, e.retry?.afterMs])).toEqual([
    ['ECONNRESET', 250],
    ['ECONNRESET', 500],
    ['ECONNRESET', undefined],
  ]);
  expect(clock.now()).toBe(750);
});

test('the gate holds each attempt before it leaves and hears of its answer (none for a network failure); each report says how long it was held', async () => {
  const agent = mocked();
  const pool = agent.get(ORIGIN);
  pool.intercept({ path: /\/things/ }).replyWithError(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }));
  pool.intercept({ path: /\/things/ }).reply(200, 'ok');
  const clock = new VirtualClock(0);
  const log: string[] = [];
  let tickets = 0;
  const sent = await send<number>(agent, clock, {
    gate: {
      enter: async () => {
        await clock.sleep(40);
        log.push(`enter ${++tickets}`);
        return tickets;
      },
      leave: (ticket, answer) => log.push(`leave ${ticket} ${answer?.status ?? 'no answer'}`),
    },
    report: (exchange) => log.push(`report attempt ${exchange.attempt} from ${exchange.startedAt}, held ${exchange.pacedMs}`),
  });
  expect(sent.response.status).toBe(200);
  expect(log).toEqual(['enter 1', 'leave 1 no answer', 'report attempt 0 from 40, held 40', 'enter 2', 'leave 2 200', 'report attempt 1 from 330, held 40']);
});

test('without a gate every attempt leaves at once: held 0', async () => {
  const agent = mocked();
  agent
    .get(ORIGIN)
    .intercept({ path: /\/things/ })
    .reply(200, 'ok');
  const exchanges: Exchange[] = [];
  await send(agent, new VirtualClock(5), { report: (e) => exchanges.push(e) });
  expect(exchanges.map((e) => [e.startedAt, e.pacedMs])).toEqual([[5, 0]]);
});
