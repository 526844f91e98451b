import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { MEDIA_SEED } from '../../../../src/twins/media/seedFacts.ts';
import { startMediaTwin } from '../../../../src/twins/media/server.ts';
import { send, signIn, startTestTwin, type TestTwin } from './mediaHttp.ts';

let twin: TestTwin;

test.beforeAll(async () => {
  twin = await startTestTwin();
});
test.afterAll(async () => {
  await twin.twin.close();
  expect(twin.internalErrors).toEqual([]);
});

test('health, reset back to the seed, and the virtual clock', async () => {
  const health = await send(`${twin.twin.url}/__twin/health`);
  expect(health.json()).toEqual({ ok: true });
  expect(health.headers['content-type']).toBe('application/json; charset=utf-8');
  const alice = await signIn(twin.twin.url, MEDIA_SEED.users.adultAllowed.name, MEDIA_SEED.users.adultAllowed.password);
  expect((await send(`${twin.api}/library-entries/1`, { method: 'DELETE', token: alice })).status).toBe(204);
  expect((await send(`${twin.twin.url}/__twin/reset`, { method: 'POST' })).json()).toEqual({ ok: true });
  expect((await send(`${twin.api}/library-entries/1`)).status, 'back to the seed').toBe(200);
  expect((await send(`${twin.api}/anime/7`, { token: alice })).status, 'a reset forgets issued tokens: alice is anonymous again').toBe(404);
  await send(`${twin.twin.url}/__twin/clock`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"advanceMs":5000}' });
  await send(`${twin.twin.url}/__twin/reset`, { method: 'POST' });
  const clock = (await send(`${twin.twin.url}/__twin/clock`)).json();
  expect(clock).toEqual({ now: Date.UTC(2025, 0, 1), iso: '2025-01-01T00:00:00.000Z', mode: 'virtual' });
  const moved = await send(`${twin.twin.url}/__twin/clock`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"advanceMs":1000}' });
  expect(moved.json().now).toBe(clock.now + 1000);
});

test('bad control input is 400 {"error"} naming the field and the fix; unknown endpoints 404, wrong methods 405', async () => {
  for (const body of ['{"advanceMs":-1}', '{"advanceMs":"1000"}', '{"advanceMs":1.5}', '{}', '[1]', '{']) {
    const answer = await send(`${twin.twin.url}/__twin/clock`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    expect(answer.status, body).toBe(400);
    expect(answer.json().error, body).toMatch(/^twin: /);
  }
  expect((await send(`${twin.twin.url}/__twin/clock`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).json().error).toContain(
    'advanceMs',
  );
  expect((await send(`${twin.twin.url}/__twin/nope`)).status).toBe(404);
  expect((await send(`${twin.twin.url}/__twin/constructor`)).status).toBe(404);
  const wrong = await send(`${twin.twin.url}/__twin/reset`);
  expect(wrong.status).toBe(405);
  expect(wrong.headers['allow']).toBe('POST');
});

test('a real-clock twin refuses to move its clock', async () => {
  const real = await startMediaTwin({ port: 0, clock: 'real' });
  try {
    const answer = await send(`${real.url}/__twin/clock`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"advanceMs":1}' });
    expect(answer.status).toBe(400);
    expect(answer.json().error).toContain('real clock');
    expect((await send(`${real.url}/__twin/clock`)).json().mode).toBe('real');
  } finally {
    await real.close();
  }
});
