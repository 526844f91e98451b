import { expect, test } from '../../../src/testing/harnessTest.ts';
import { DEFAULT_LIVE_REQUEST_BUDGET, apiOffReason, describeConfig, loadConfig } from '../../../src/config/harnessConfig.ts';
import { LIVE_ENV, problemsOf } from './configEnv.ts';

const live = LIVE_ENV;

test('the default target is the twins on port 4010', () => {
  const config = loadConfig({});
  expect(config.target).toBe('twin');
  expect(config.store).toMatchObject({ mode: 'twin', twinUrl: 'http://127.0.0.1:4010' });
});

test('STORE_TWIN_PORT moves the twin, and a bad one names the variable and the fix', () => {
  expect(loadConfig({ STORE_TWIN_PORT: '5010' }).store).toMatchObject({ twinUrl: 'http://127.0.0.1:5010' });
  expect(problemsOf({ STORE_TWIN_PORT: 'eighty' })[0]).toMatch(/STORE_TWIN_PORT.*1 to 65535/);
});

test('an unknown target is refused with the list of targets', () => {
  expect(problemsOf({ HARNESS_TARGET: 'staging' })[0]).toMatch(/HARNESS_TARGET.*twin, live/);
});

test('live reads the fixed variable names and defaults the URL to the real host', () => {
  const config = loadConfig(live);
  expect(config.store).toMatchObject({ mode: 'live', apiUrl: 'https://api.tiendanube.com', storeId: '123456', allowWrites: false });
  expect(loadConfig({ ...live, STORE_ALLOW_WRITES: '1' }).store.allowWrites).toBe(true);
});

test('live lists every missing variable of an API it was asked for at once, each with its fix', () => {
  const problems = problemsOf({ HARNESS_TARGET: 'live', STORE_ID: '', STORE_API_URL: 'https://api.tiendanube.com' });
  expect(problems.join('\n')).toMatch(/STORE_ID is not set/);
  expect(problems.join('\n')).toMatch(/STORE_ACCESS_TOKEN is not set.*export STORE_ACCESS_TOKEN/);
  expect(problems.join('\n')).toMatch(/STORE_USER_AGENT is not set/);
});

test('live refuses plain http except on loopback hosts', () => {
  expect(problemsOf({ ...live, STORE_API_URL: 'http://api.tiendanube.com' })[0]).toMatch(/TLS only/);
  expect(loadConfig({ ...live, STORE_API_URL: 'http://127.0.0.1:4010/' }).store).toMatchObject({ apiUrl: 'http://127.0.0.1:4010' });
  expect(loadConfig({ ...live, STORE_API_URL: 'http://localhost:9000' }).store).toMatchObject({ apiUrl: 'http://localhost:9000' });
});

test('bad values of STORE_ID and STORE_ALLOW_WRITES say how to set them', () => {
  expect(problemsOf({ ...live, STORE_ID: 'my-store' })[0]).toMatch(/STORE_ID.*numeric/);
  expect(problemsOf({ ...live, STORE_ALLOW_WRITES: 'yes' })[0]).toMatch(/STORE_ALLOW_WRITES=1/);
});

test('the token never appears in errors or in the printable summary', () => {
  const problems = problemsOf({ ...live, STORE_API_URL: 'ftp://example.com' });
  expect(problems.join('\n')).not.toContain(live.STORE_ACCESS_TOKEN);
  expect(JSON.stringify(describeConfig(loadConfig(live)))).not.toContain(live.STORE_ACCESS_TOKEN);
});

test('media: the twin on 4020 by default; live reads KITSU_* and needs no token', () => {
  expect(loadConfig({}).media).toMatchObject({ mode: 'twin', apiUrl: 'http://127.0.0.1:4020/api/edge' });
  const config = loadConfig({ ...live, KITSU_API_URL: 'https://kitsu.io/api/edge' });
  expect(config.media).toMatchObject({ mode: 'live', apiUrl: 'https://kitsu.io/api/edge', token: undefined, allowWrites: false });
  // A token alone asks for media too, on the real host.
  expect(loadConfig({ ...live, KITSU_ACCESS_TOKEN: 'media-secret' }).media).toMatchObject({ mode: 'live', apiUrl: 'https://kitsu.io/api/edge' });
  expect(loadConfig({ ...live, KITSU_ACCESS_TOKEN: 'media-secret', KITSU_ALLOW_WRITES: '1' }).media).toMatchObject({
    token: 'media-secret',
    allowWrites: true,
  });
  expect(JSON.stringify(describeConfig(loadConfig({ ...live, KITSU_ACCESS_TOKEN: 'media-secret' })))).not.toContain('media-secret');
});

test('media: KITSU_API_URL must be https (or loopback) and end in /api/edge', () => {
  expect(problemsOf({ ...live, KITSU_API_URL: 'http://kitsu.io/api/edge' })[0]).toMatch(/KITSU_API_URL.*TLS only/);
  expect(problemsOf({ ...live, KITSU_API_URL: 'https://kitsu.io/api' })[0]).toMatch(/ends in \/api\/edge/);
  expect(loadConfig({ ...live, KITSU_API_URL: 'http://127.0.0.1:4020/api/edge' }).media).toMatchObject({ apiUrl: 'http://127.0.0.1:4020/api/edge' });
});

test('a live run refuses a store that LIVE_STORE_ALLOWLIST does not list, and says how to allow it', () => {
  const { LIVE_STORE_ALLOWLIST: _omitted, ...unlisted } = live;
  expect(problemsOf(unlisted)).toEqual([expect.stringMatching(/LIVE_STORE_ALLOWLIST is not set.*export LIVE_STORE_ALLOWLIST=123456/)]);
  expect(problemsOf({ ...live, LIVE_STORE_ALLOWLIST: '111, 222' })).toEqual([
    expect.stringMatching(/STORE_ID 123456 is not in LIVE_STORE_ALLOWLIST \(111, 222\): the live run is refused/),
  ]);
  expect(problemsOf({ ...live, LIVE_STORE_ALLOWLIST: 'my-shop' })[0]).toMatch(/not numeric store ids/);
  expect(loadConfig({ ...live, LIVE_STORE_ALLOWLIST: '999 123456,777' }).store).toMatchObject({ mode: 'live', storeId: '123456' });
  // Recording is live too; the twins and replays touch no real store.
  expect(problemsOf({ ...unlisted, HARNESS_TARGET: 'record' })[0]).toMatch(/LIVE_STORE_ALLOWLIST is not set/);
  expect(loadConfig({ ...unlisted, HARNESS_TARGET: 'twin' }).store.mode).toBe('twin');
});

test('LIVE_REQUEST_BUDGET: a whole live run has a request budget, 2000 unless set; the twins and replays have none', () => {
  expect(DEFAULT_LIVE_REQUEST_BUDGET).toBe(2000);
  expect(loadConfig(live).liveRequestBudget).toBe(2000);
  expect(loadConfig({ ...live, LIVE_REQUEST_BUDGET: ' 750 ' }).liveRequestBudget).toBe(750);
  expect(loadConfig({ ...live, HARNESS_TARGET: 'record', LIVE_REQUEST_BUDGET: '1' }).liveRequestBudget).toBe(1);
  expect(loadConfig({ LIVE_REQUEST_BUDGET: '750' }).liveRequestBudget).toBeUndefined();
  expect(describeConfig(loadConfig(live))['request budget']).toBe('2000 requests (LIVE_REQUEST_BUDGET)');
});

test('LIVE_REQUEST_BUDGET that is not a whole number above 0 stops a live run, naming the variable and the fix', () => {
  for (const bad of ['0', '-5', '1.5', '1e3', 'lots']) {
    expect(problemsOf({ ...live, LIVE_REQUEST_BUDGET: bad })).toEqual([
      `LIVE_REQUEST_BUDGET is "${bad}", not a number of requests. Set LIVE_REQUEST_BUDGET to a whole number above 0 (the requests a live run may send to both APIs together), or unset it for 2000.`,
    ]);
  }
});

test('one API at a time: a live run needs only the variables of the API it verifies, and the other is off, naming what enables it', () => {
  const mediaOnly = loadConfig({ HARNESS_TARGET: 'live', KITSU_API_URL: 'https://kitsu.io/api/edge' });
  expect(mediaOnly.media).toMatchObject({ mode: 'live', apiUrl: 'https://kitsu.io/api/edge' });
  expect(mediaOnly.store.mode).toBe('off');
  expect(apiOffReason(mediaOnly, 'store')).toMatch(/STORE_ID, STORE_ACCESS_TOKEN, STORE_USER_AGENT/);
  expect(apiOffReason(mediaOnly, 'media')).toBeUndefined();
  expect(describeConfig(mediaOnly)).toMatchObject({ store: expect.stringMatching(/not configured/) });

  const storeOnly = loadConfig({ ...live, HARNESS_TARGET: 'record' });
  expect(storeOnly.store.mode).toBe('live');
  expect(apiOffReason(storeOnly, 'media')).toMatch(/KITSU_API_URL/);

  // Asking for neither is a mistake, not an empty green run.
  expect(problemsOf({ HARNESS_TARGET: 'live' }).join('\n')).toMatch(/at least one API.*STORE_ID.*KITSU_API_URL/);
});

test('a second store for the scope rules: both variables or neither, another allow-listed store, its token never shown', () => {
  const second = { STORE_SECOND_ID: '654321', STORE_SECOND_ACCESS_TOKEN: 'second-store-secret' };
  const allowBoth = { LIVE_STORE_ALLOWLIST: `${live.STORE_ID},654321` };
  const config = loadConfig({ ...live, ...allowBoth, ...second });
  expect(config.store).toMatchObject({ mode: 'live', secondStore: { storeId: '654321', token: 'second-store-secret' } });
  expect(loadConfig(live).store).toMatchObject({ secondStore: undefined });
  expect(JSON.stringify(describeConfig(config))).not.toContain('second-store-secret');
  expect(problemsOf({ ...live, ...allowBoth, STORE_SECOND_ID: '654321' })[0]).toMatch(/STORE_SECOND_ACCESS_TOKEN is not set.*Set both/);
  expect(problemsOf({ ...live, ...allowBoth, STORE_SECOND_ACCESS_TOKEN: 'x' })[0]).toMatch(/STORE_SECOND_ID is not set/);
  expect(problemsOf({ ...live, ...second })[0]).toMatch(/STORE_SECOND_ID 654321 is not in LIVE_STORE_ALLOWLIST/);
  expect(problemsOf({ ...live, ...allowBoth, ...second, STORE_SECOND_ID: 'shop' })[0]).toMatch(/STORE_SECOND_ID.*numeric/);
  expect(problemsOf({ ...live, ...second, STORE_SECOND_ID: live.STORE_ID })[0]).toMatch(/STORE_SECOND_ID is STORE_ID/);
  const spaced = problemsOf({ ...live, ...allowBoth, ...second, STORE_SECOND_ACCESS_TOKEN: 'bearer second-store-secret' });
  expect(spaced[0]).toMatch(/STORE_SECOND_ACCESS_TOKEN contains white space/);
  expect(spaced.join('\n')).not.toContain('second-store-secret');
});
