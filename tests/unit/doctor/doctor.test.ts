/**
 * `npm run doctor` against twins-as-live: one twin process for the file (store
 * on 4700, media on 4701), reached as live targets are. The good setup runs the
 * command itself (scripts/doctor.ts in a child process with only the variables
 * it is given); the other cases run the same checks and checklist in this
 * process, with only their own variables too. A good setup passes; each broken one is named
 * with its fix, with the exit code the nightly acts on, and no token is printed.
 */
import type { ChildProcess } from 'node:child_process';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { MEDIA_CONTRACT } from '../../../src/rules/mediaContract.ts';
import { MEDIA_SEED } from '../../../src/twins/media/seedFacts.ts';
import { SEEDED_STORE, signInOnMediaTwin, startTwinProcess, twinAsLiveEnv } from '../../../scripts/lib/twinProcess.ts';
import { refusedOrigin, startScriptedServer } from '../support/scriptedServer.ts';
import { runDoctorCommand, runDoctorInProcess, type DoctorRun } from './runDoctorCommand.ts';

const STORE_PORT = 4700;
const MEDIA_PORT = 4701;
const USER_AGENT = 'api-contract-harness doctor test (https://example.invalid/api-contract-harness)';
const storeUrl = `http://127.0.0.1:${STORE_PORT}`;
const mediaUrl = `http://127.0.0.1:${MEDIA_PORT}/api/edge`;

let twin: ChildProcess | undefined;
/** The live variables of a good setup: the seeded store (allow-listed), alice signed in (adult content allowed), writes allowed. */
let goodEnv: Record<string, string>;

// One twin process on fixed ports: the file's tests take turns, and a failure does not skip the rest.
test.describe.configure({ mode: 'default', timeout: 30_000 });

test.beforeAll(async () => {
  twin = await startTwinProcess(STORE_PORT, MEDIA_PORT);
  const mediaToken = await signInOnMediaTwin(MEDIA_PORT);
  goodEnv = { HARNESS_TARGET: 'live', ...twinAsLiveEnv({ storeUrl, mediaUrl, mediaToken, userAgent: USER_AGENT }) };
});

test.afterAll(() => void twin?.kill());

/** The checklist line of `scope`'s check `name`, e.g. line(run, 'store', 'token'). */
function line(run: DoctorRun, scope: 'run' | 'store' | 'media', name: string): string {
  const section = run.output.split(/^(?=\S)/m).find((block) => block.startsWith(`${scope}\n`)) ?? '';
  const found = section.split('\n').find((l) => new RegExp(`^ {2}\\S+ +${name}: `).test(l));
  return found?.trim() ?? `(no ${scope} line "${name}" in:\n${run.output})`;
}

/** No token of the setup, nor the one under test, appears anywhere in what the doctor printed. */
function expectNoSecret(run: DoctorRun, ...secrets: string[]): void {
  for (const secret of [goodEnv.STORE_ACCESS_TOKEN!, goodEnv.KITSU_ACCESS_TOKEN!, ...secrets]) expect(run.output).not.toContain(secret);
}

async function signIn(email: string, password: string): Promise<string> {
  const answer = await fetch(`http://127.0.0.1:${MEDIA_PORT}${MEDIA_CONTRACT.oauthTokenPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'password', username: email, password }),
  });
  expect(answer.status, 'signing in on the media twin').toBe(200);
  return ((await answer.json()) as { access_token: string }).access_token;
}

test('a good setup passes every check in three requests and exits 0', async () => {
  const run = await runDoctorCommand(goodEnv);
  expect(run.status, run.output).toBe(0);
  expect(run.output).not.toContain('PROBLEM');
  expect(line(run, 'store', 'allow-list')).toBe(`ok      allow-list: STORE_ID ${SEEDED_STORE.id} is in LIVE_STORE_ALLOWLIST`);
  expect(line(run, 'store', 'host')).toMatch(/^ok +host: http:\/\/127\.0\.0\.1:4700 answers \(GET \/v1\/100001\/store answered 200 OK\)$/);
  expect(line(run, 'store', 'user agent')).toMatch(/^ok +user agent: /);
  expect(line(run, 'store', 'token')).toBe(`ok      token: accepted for store ${SEEDED_STORE.id}`);
  expect(line(run, 'store', 'store id')).toMatch(/^ok +store id: the token's store is 100001 /);
  expect(line(run, 'store', 'writes')).toMatch(/^ok +writes: allowed \(STORE_ALLOW_WRITES=1\)/);
  expect(line(run, 'media', 'host')).toMatch(/^ok +host: .* answers \(GET \/anime answered 200 OK\)$/);
  expect(line(run, 'media', 'token')).toBe(
    `ok      token: valid: signed in as ${MEDIA_SEED.users.adultAllowed.name} (user ${MEDIA_SEED.users.adultAllowed.id})`,
  );
  expect(line(run, 'media', 'adult content')).toMatch(/^ok +adult content: allowed \(sfwFilter false\)/);
  expect(line(run, 'media', 'writes')).toMatch(/^ok +writes: allowed \(KITSU_ALLOW_WRITES=1\)/);
  expect(run.output).toContain('requests sent: 3 (store 1, media 2), within LIVE_REQUEST_BUDGET 2000');
  expect(run.output).toMatch(/result: a live run can go ahead \(exit 0\)\n$/);
  expectNoSecret(run);
});

test('a wrong store token: the token check names STORE_ACCESS_TOKEN as the fix, exit 1', async () => {
  const wrong = 'doctor-test-wrong-token-5f1c';
  const run = await runDoctorInProcess({ ...goodEnv, STORE_ACCESS_TOKEN: wrong });
  expect(run.status, run.output).toBe(1);
  expect(line(run, 'store', 'host')).toMatch(/^ok /);
  expect(line(run, 'store', 'token')).toMatch(
    /^PROBLEM token: refused for store 100001: GET \/v1\/100001\/store answered 401 Unauthorized \("Invalid access token"\);.* Fix: set STORE_ACCESS_TOKEN to the access token of the app's installation in store 100001/,
  );
  expect(line(run, 'store', 'store id')).toMatch(/^skip +store id: not checked/);
  // The media checks are not held back by the store's problem.
  expect(line(run, 'media', 'token')).toMatch(/^ok /);
  expect(run.output).toMatch(/result: a live run would not succeed, 1 problem\(s\) above \(exit 1\)\n$/);
  expectNoSecret(run, wrong);
});

test('a store id that is not allow-listed: refused before any request, naming LIVE_STORE_ALLOWLIST, exit 2', async () => {
  const run = await runDoctorInProcess({ ...goodEnv, LIVE_STORE_ALLOWLIST: '100002' });
  expect(run.status, run.output).toBe(2);
  expect(line(run, 'store', 'allow-list')).toMatch(
    /^PROBLEM allow-list: STORE_ID 100001 is not in LIVE_STORE_ALLOWLIST \(100002\): the live run is refused\. If store 100001 is a sandbox you may test against, add it to LIVE_STORE_ALLOWLIST; otherwise fix STORE_ID\.$/,
  );
  expect(run.output).not.toContain('requests sent');
  expect(run.output).toMatch(/result: the configuration is refused, 1 problem\(s\) above; no request was sent \(exit 2\)\n$/);
  expectNoSecret(run);
});

test('a missing User-Agent: refused before any request, naming STORE_USER_AGENT and an example, exit 2', async () => {
  const { STORE_USER_AGENT: _unset, ...env } = goodEnv;
  const run = await runDoctorInProcess(env);
  expect(run.status, run.output).toBe(2);
  expect(line(run, 'store', 'variables')).toMatch(
    /^PROBLEM variables: STORE_USER_AGENT is not set\. .*export STORE_USER_AGENT="My app \(https:\/\/example\.com\/contact\)"/,
  );
  expect(run.output).toMatch(/\(exit 2\)\n$/);
  expectNoSecret(run);
});

test('a User-Agent the Store API refuses (400): the user-agent check names STORE_USER_AGENT as the fix, exit 1', async () => {
  // The twin refuses only a missing one, which the configuration already stops; a provider that refuses this one:
  const refusing = await startScriptedServer(
    () => ({
      status: 400,
      json: { code: 400, message: 'Bad Request', description: 'User-Agent header is required: name the app and a contact URL or e-mail' },
    }),
    { contentType: 'application/json', headersOf: (req) => ({ 'user-agent': req.headers['user-agent'] ?? '' }) },
  );
  try {
    const run = await runDoctorInProcess({ ...goodEnv, STORE_API_URL: refusing.origin, STORE_USER_AGENT: 'curl/8.5' });
    expect(run.status, run.output).toBe(1);
    expect(refusing.requests.map((r) => `${r.method} ${r.url} ${r.headers['user-agent']}`)).toEqual(['GET /v1/100001/store curl/8.5']);
    expect(line(run, 'store', 'user agent')).toMatch(
      /^PROBLEM user agent: refused: GET \/v1\/100001\/store answered 400 Bad Request \("User-Agent header is required.*\(sent: "curl\/8\.5"\)\. Fix: set STORE_USER_AGENT to the app name and a contact URL or e-mail/,
    );
    expect(line(run, 'store', 'token')).toMatch(/^skip /);
    expectNoSecret(run);
  } finally {
    await refusing.close();
  }
});

test('an unreachable store host (a closed port): named as such, with STORE_API_URL as the fix, exit 1', async () => {
  const closed = await refusedOrigin();
  const run = await runDoctorInProcess({ ...goodEnv, STORE_API_URL: closed });
  expect(run.status, run.output).toBe(1);
  expect(line(run, 'store', 'host')).toBe(
    `PROBLEM host: unreachable host ${closed}: the connection was refused (nothing listens on that port) (ECONNREFUSED). Fix: check STORE_API_URL (the host, port and scheme) and that this machine can reach it.`,
  );
  for (const name of ['user agent', 'token', 'store id']) expect(line(run, 'store', name)).toMatch(/^skip +.*: not checked: the host did not answer$/);
  expect(line(run, 'media', 'host')).toMatch(/^ok /);
  // The first attempt and one retry, both counted.
  expect(run.output).toContain('requests sent: 4 (store 2, media 2)');
  expectNoSecret(run);
});

test('an unreachable media host: named as such, with KITSU_API_URL as the fix, exit 1', async () => {
  const closed = await refusedOrigin();
  const run = await runDoctorInProcess({ ...goodEnv, KITSU_API_URL: `${closed}/api/edge` });
  expect(run.status, run.output).toBe(1);
  expect(line(run, 'media', 'host')).toMatch(new RegExp(`^PROBLEM host: unreachable host ${closed}: .*\\(ECONNREFUSED\\)\\. Fix: check KITSU_API_URL `));
  expect(line(run, 'store', 'host')).toMatch(/^ok /);
  expectNoSecret(run);
});

test('a revoked media token answers 401: expired or revoked, sign in again, exit 1', async () => {
  const { email, password } = MEDIA_SEED.users.adultAllowed;
  const revoked = await signIn(email, password);
  const revoke = await fetch(`http://127.0.0.1:${MEDIA_PORT}${MEDIA_CONTRACT.oauthRevokePath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: revoked }).toString(),
  });
  expect(revoke.status).toBe(200);
  const run = await runDoctorInProcess({ ...goodEnv, KITSU_ACCESS_TOKEN: revoked });
  expect(run.status, run.output).toBe(1);
  expect(line(run, 'media', 'token')).toMatch(
    /^PROBLEM token: expired or revoked: GET \/users\?filter\[self\]=true answered 401 Unauthorized \("Invalid token"\)\. Fix: sign in again/,
  );
  expect(line(run, 'media', 'adult content')).toMatch(/^skip /);
  expectNoSecret(run, revoked);
});

test('a media token the service never issued reads as anonymous: not recognised, exit 1', async () => {
  const unknown = 'doctor-test-unknown-media-token-93ab';
  const run = await runDoctorInProcess({ ...goodEnv, KITSU_ACCESS_TOKEN: unknown });
  expect(run.status, run.output).toBe(1);
  expect(line(run, 'media', 'token')).toMatch(
    /^PROBLEM token: not recognised: .* with no user, as to an anonymous visitor .*Fix: KITSU_ACCESS_TOKEN is not a token of this service/,
  );
  expectNoSecret(run, unknown);
});

test('an account that filters adult content is a note, not a failure: exit 0', async () => {
  const { email, password } = MEDIA_SEED.users.adultFiltered;
  const token = await signIn(email, password);
  const run = await runDoctorInProcess({ ...goodEnv, KITSU_ACCESS_TOKEN: token });
  expect(run.status, run.output).toBe(0);
  expect(line(run, 'media', 'token')).toMatch(new RegExp(`^ok +token: valid: signed in as ${MEDIA_SEED.users.adultFiltered.name} `));
  expect(line(run, 'media', 'adult content')).toMatch(
    /^note +adult content: filtered \(sfwFilter true\): the signed-in adult-content checks will be skipped\. Fix: turn off the account's adult-content filter/,
  );
  expectNoSecret(run, token);
});

test('a media-only setup: the store is off (not a problem), media is checked, exit 0', async () => {
  const { KITSU_API_URL, KITSU_ACCESS_TOKEN, HARNESS_TARGET } = goodEnv;
  const run = await runDoctorInProcess({ HARNESS_TARGET: HARNESS_TARGET!, KITSU_API_URL: KITSU_API_URL!, KITSU_ACCESS_TOKEN: KITSU_ACCESS_TOKEN! });
  expect(run.status, run.output).toBe(0);
  expect(line(run, 'store', 'variables')).toMatch(
    /^note +variables: off: the store API is not configured for this run: set STORE_ID, STORE_ACCESS_TOKEN, STORE_USER_AGENT/,
  );
  expect(line(run, 'media', 'token')).toMatch(/^ok /);
  expect(line(run, 'media', 'writes')).toMatch(/^note +writes: read-only \(KITSU_ALLOW_WRITES unset\)/);
  expect(run.output).toContain('requests sent: 2 (store 0, media 2)');
});

test('on the twins there is nothing live to check: exit 0 without a request', async () => {
  const run = await runDoctorInProcess({});
  expect(run.status, run.output).toBe(0);
  expect(run.output).toMatch(/the in-repo twins \(HARNESS_TARGET unset or twin\): there is nothing live to check/);
  expect(run.output).not.toContain('requests sent');
});
