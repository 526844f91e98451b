/**
 * The store twin's install flow over HTTP: the consent page, the code
 * exchange and its refusals, scopes, replaced tokens and uninstalling. Time
 * moves on the store's virtual clock, never in wall time.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { CODE_LIFETIME_MS } from '../../../../src/twins/store/install/installs.ts';
import { SEEDED_APP } from '../../../../src/twins/store/install/apps.ts';
import { advanceClock, control, createStore, send, startTestTwin, storeApi, useTestTwin, type TwinStoreInfo } from './twinHttp.ts';

const twin = useTestTwin();

interface App {
  appId: number;
  clientSecret: string;
  redirectUrl: string;
}

const REDIRECT = 'http://127.0.0.1:9/callback';

function registerApp(body: Record<string, unknown> = {}): Promise<App> {
  return control<App>(twin().url, 'POST', '/apps', { redirectUrl: REDIRECT, ...body });
}

async function approvedCode(app: App, store: TwinStoreInfo, state = 'st-1'): Promise<string> {
  const approval = await control<{ code: string; redirect: string }>(twin().url, 'POST', `/apps/${app.appId}/approve`, { storeId: store.storeId, state });
  return approval.code;
}

function exchange(params: Record<string, unknown>, type: 'json' | 'form' = 'json') {
  const body = type === 'json' ? JSON.stringify(params) : new URLSearchParams(params as Record<string, string>).toString();
  return send(`${twin().url}/apps/authorize/token`, {
    method: 'POST',
    headers: { 'Content-Type': type === 'json' ? 'application/json' : 'application/x-www-form-urlencoded', 'User-Agent': 'unit' },
    body,
  });
}

function grant(app: App, code: string) {
  return { client_id: app.appId, client_secret: app.clientSecret, grant_type: 'authorization_code', code };
}

test('approve, exchange (JSON or form): bearer token, scopes, user_id the store id; the token opens the store', async () => {
  const store = await createStore(twin().url, { products: 1 });
  const app = await registerApp();
  for (const type of ['json', 'form'] as const) {
    const answer = await exchange(grant(app, await approvedCode(app, store)), type);
    expect(answer.status, answer.text).toBe(200);
    const body = answer.json();
    expect(body).toEqual({ access_token: expect.any(String), token_type: 'bearer', scope: 'read_products,write_products', user_id: String(store.storeId) });
    expect(answer.headers['cache-control']).toBe('no-store');
    expect((await storeApi(store, body.access_token)('/products')).status).toBe(200);
  }
});

test('the approval redirects to the registered URL with the code and the same state', async () => {
  const store = await createStore(twin().url, { products: 0 });
  const app = await registerApp();
  const approval = await control(twin().url, 'POST', `/apps/${app.appId}/approve`, { storeId: store.storeId, state: 'a b&c' });
  const url = new URL(approval.redirect);
  expect(`${url.origin}${url.pathname}`).toBe(REDIRECT);
  expect(url.searchParams.get('state')).toBe('a b&c');
  expect(url.searchParams.get('code')).toBe(approval.code);
});

test('a code is exchanged once; a second exchange is invalid_grant, saying it was used', async () => {
  const store = await createStore(twin().url, { products: 0 });
  const app = await registerApp();
  const code = await approvedCode(app, store);
  expect((await exchange(grant(app, code))).status).toBe(200);
  const again = await exchange(grant(app, code));
  expect(again.status).toBe(400);
  expect(again.json()).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/already used/) });
});

test('a code expires 10 minutes after the approval, on the store clock', async () => {
  const store = await createStore(twin().url, { products: 0 });
  const app = await registerApp();
  const fresh = await approvedCode(app, store);
  const late = await approvedCode(app, store);
  await advanceClock(twin().url, store.storeId, CODE_LIFETIME_MS);
  expect((await exchange(grant(app, fresh))).status, 'at exactly 10 minutes the code still works').toBe(200);
  await advanceClock(twin().url, store.storeId, 1);
  const answer = await exchange(grant(app, late));
  expect(answer.status).toBe(400);
  expect(answer.json().error_description).toMatch(/expired/);
});

test('a wrong secret and an unknown app are invalid_client 401; a code of another app is invalid_grant', async () => {
  const store = await createStore(twin().url, { products: 0 });
  const app = await registerApp();
  const other = await registerApp();
  const code = await approvedCode(app, store);
  const wrongSecret = await exchange({ ...grant(app, code), client_secret: 'nope' });
  expect(wrongSecret.status).toBe(401);
  expect(wrongSecret.json().error).toBe('invalid_client');
  const unknownApp = await exchange({ ...grant(app, code), client_id: 999999 });
  expect(unknownApp.status).toBe(401);
  const otherApp = await exchange(grant(other, code));
  expect(otherApp.status).toBe(400);
  expect(otherApp.json().error_description).toMatch(/another app/);
  // None of those used the code up.
  expect((await exchange(grant(app, code))).status).toBe(200);
});

test('a redirect_uri that is not the registered one is invalid_grant', async () => {
  const store = await createStore(twin().url, { products: 0 });
  const app = await registerApp();
  const answer = await exchange({ ...grant(app, await approvedCode(app, store)), redirect_uri: 'http://127.0.0.1:9/elsewhere' });
  expect(answer.status).toBe(400);
  expect(answer.json().error_description).toMatch(/redirect_uri does not match/);
});

test('bad input is a 4xx naming the problem, never a 5xx', async () => {
  const app = await registerApp();
  const url = `${twin().url}/apps/authorize/token`;
  const cases: [string, Promise<Awaited<ReturnType<typeof send>>>, number, string][] = [
    ['no body', send(url, { method: 'POST' }), 400, 'invalid_request'],
    ['missing code', exchange({ client_id: app.appId, client_secret: app.clientSecret, grant_type: 'authorization_code' }), 400, 'invalid_request'],
    ['password grant', exchange({ ...grant(app, 'x'), grant_type: 'password' }), 400, 'unsupported_grant_type'],
    ['not JSON', send(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{' }), 400, 'invalid_request'],
    ['a JSON array', send(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '[]' }), 400, 'invalid_request'],
    ['text/plain', send(url, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'code=1' }), 400, 'invalid_request'],
    ['an object code', exchange({ ...grant(app, 'x'), code: { a: 1 } }), 400, 'invalid_request'],
    ['GET', send(url), 405, 'invalid_request'],
  ];
  for (const [what, answering, status, error] of cases) {
    const answer = await answering;
    expect(answer.status, what).toBe(status);
    expect(answer.json().error, what).toBe(error);
  }
  expect((await send(`${twin().url}/apps/nothing/here`)).status).toBe(404);
});

test('a token without write_products reads but is refused writes with 403', async () => {
  const store = await createStore(twin().url, { products: 1 });
  const app = await registerApp({ scopes: ['read_products'] });
  const answer = (await exchange(grant(app, await approvedCode(app, store)))).json();
  expect(answer.scope).toBe('read_products');
  const api = storeApi(store, answer.access_token);
  expect((await api('/products')).status).toBe(200);
  const write = await api('/categories', { method: 'POST', json: { name: 'No' } });
  expect(write.status).toBe(403);
  expect(write.json()).toEqual({ code: 403, message: 'Forbidden', description: expect.stringMatching(/write_products/) });
  // The store itself and webhooks need no scope.
  expect((await api('/store')).status).toBe(200);
});

test('a new token for the same app and store replaces the old one; other apps keep theirs', async () => {
  const store = await createStore(twin().url, { products: 0 });
  const app = await registerApp();
  const other = await registerApp();
  const first = (await exchange(grant(app, await approvedCode(app, store)))).json().access_token;
  const others = (await exchange(grant(other, await approvedCode(other, store)))).json().access_token;
  const second = (await exchange(grant(app, await approvedCode(app, store)))).json().access_token;
  expect(second).not.toBe(first);
  expect((await storeApi(store, first)('/store')).status).toBe(401);
  expect((await storeApi(store, second)('/store')).status).toBe(200);
  expect((await storeApi(store, others)('/store')).status).toBe(200);
  expect((await storeApi(store)('/store')).status, "the control API's token is not the app's").toBe(200);
});

test('uninstalling delivers app/uninstalled and revokes the token', async () => {
  const received: string[] = [];
  const receiver: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push(body);
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    const store = await createStore(twin().url, { products: 0 });
    const app = await registerApp();
    const token = (await exchange(grant(app, await approvedCode(app, store)))).json().access_token;
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    expect((await storeApi(store, token)('/webhooks', { method: 'POST', json: { event: 'app/uninstalled', url: hook } })).status).toBe(201);
    await control(twin().url, 'POST', `/apps/${app.appId}/uninstall`, { storeId: store.storeId });
    await control(twin().url, 'POST', `/stores/${store.storeId}/deliveries/flush`);
    expect(received.map((body) => JSON.parse(body))).toEqual([{ store_id: store.storeId, event: 'app/uninstalled', id: store.storeId }]);
    expect((await storeApi(store, token)('/store')).status).toBe(401);
    await expect(control(twin().url, 'POST', `/apps/${app.appId}/uninstall`, { storeId: store.storeId })).rejects.toThrow(/not installed/);
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
});

test('the consent page names the app and its scopes; the form approves or denies with the state', async () => {
  const store = await createStore(twin().url, { products: 0 });
  const app = await registerApp({ name: 'Ünit <App>', scopes: ['read_products'] });
  const page = await send(`${twin().url}/apps/${app.appId}/authorize?state=s%3D1&store_id=${store.storeId}`);
  expect(page.status).toBe(200);
  expect(page.headers['content-type']).toMatch(/text\/html/);
  expect(page.text).toContain('Install Ünit &lt;App&gt;');
  expect(page.text).toContain(`<option value="${store.storeId}" selected>`);
  expect(page.text).toContain('value="s=1"');
  const post = (decision: string) =>
    send(`${twin().url}/apps/${app.appId}/authorize`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ state: 's=1', store_id: String(store.storeId), decision }).toString(),
    });
  const approved = new URL((await post('approve')).headers.location!);
  expect(approved.searchParams.get('state')).toBe('s=1');
  expect((await exchange(grant(app, approved.searchParams.get('code')!))).status).toBe(200);
  const denied = new URL((await post('deny')).headers.location!);
  expect(denied.searchParams.get('error')).toBe('access_denied');
  expect((await send(`${twin().url}/apps/999999/authorize`)).status).toBe(404);
  expect((await send(`${twin().url}/apps/${app.appId}/authorize`, { method: 'DELETE' })).status).toBe(405);
});

test('the seeded app is registered from the start', async () => {
  const apps = await control<{ appId: number; clientSecret: string }[]>(twin().url, 'GET', '/apps');
  expect(apps[0]).toMatchObject({ appId: SEEDED_APP.id, clientSecret: SEEDED_APP.secret });
});

test('a reset brings back the seeded app alone, installed nowhere', async () => {
  // A twin of its own: a reset empties every store of the twin it is sent to.
  const { twin: own } = await startTestTwin();
  try {
    const app = await control<App>(own.url, 'POST', '/apps', { redirectUrl: REDIRECT });
    const code = (await control<{ code: string }>(own.url, 'POST', `/apps/${SEEDED_APP.id}/approve`, { storeId: 100001 })).code;
    await control(own.url, 'POST', '/reset');
    const apps = await control<{ appId: number }[]>(own.url, 'GET', '/apps');
    expect(apps.map((listed) => listed.appId)).toEqual([SEEDED_APP.id]);
    expect(apps.some((listed) => listed.appId === app.appId)).toBe(false);
    const answer = await send(`${own.url}/apps/authorize/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_id: SEEDED_APP.id, client_secret: SEEDED_APP.secret, grant_type: 'authorization_code', code }),
    });
    expect(answer.json().error, 'a code from before the reset is gone').toBe('invalid_grant');
  } finally {
    await own.close();
  }
});
