/**
 * exchangeCode against the store twin's token endpoint: a client on the store
 * user_id names, and errors that say what to fix. Malformed answers come from
 * a scripted server.
 */
import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { exchangeCode, type ExchangeCodeOptions } from '../../../../src/clients/store/install.ts';
import { InstallError } from '../../../../src/clients/store/installErrors.ts';
import { CODE_LIFETIME_MS } from '../../../../src/twins/store/install/installs.ts';
import { advanceClock, control, createStore, useTestTwin } from '../../twins/store/twinHttp.ts';
import { startFakeStore, USER_AGENT } from './fakeStore.ts';

const twin = useTestTwin();
const REDIRECT = 'http://127.0.0.1:9/callback';

/** A fresh store, an app registered for it, and a way to get approved codes. */
async function installation() {
  const store = await createStore(twin().url, { products: 1 });
  const app = await control<{ appId: number; clientSecret: string }>(twin().url, 'POST', '/apps', { redirectUrl: REDIRECT });
  const code = async () => (await control<{ code: string }>(twin().url, 'POST', `/apps/${app.appId}/approve`, { storeId: store.storeId })).code;
  const options = async (more: Partial<ExchangeCodeOptions> = {}): Promise<ExchangeCodeOptions> => ({
    clientId: app.appId,
    clientSecret: app.clientSecret,
    code: await code(),
    userAgent: USER_AGENT,
    authUrl: twin().url,
    apiUrl: twin().url,
    client: { pace: false },
    ...more,
  });
  return { store, app, options };
}

async function refusal(promise: Promise<unknown>): Promise<InstallError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(InstallError);
  return error as InstallError;
}

test('a code becomes a client on the store user_id names, with the scopes granted', async () => {
  const { store, options } = await installation();
  const installed = await exchangeCode(await options());
  expect(installed.storeId).toBe(String(store.storeId));
  expect(installed.scopes).toEqual(['read_products', 'write_products']);
  expect(installed.client.baseUrl).toBe(`${twin().url}/v1/${store.storeId}`);
  expect((await installed.client.listProducts()).items).toHaveLength(1);
});

test('a wrong secret says to copy client_id and client_secret, and never shows the secret', async () => {
  const { options } = await installation();
  const error = await refusal(exchangeCode(await options({ clientSecret: 'wrong-secret-value' })));
  expect(error.code).toBe('INSTALL_ERR_CLIENT');
  expect(error.status).toBe(401);
  expect(error.message).toMatch(/client_secret is wrong.*partner panel/);
  expect(error.message).not.toContain('wrong-secret-value');
});

test('an expired code says to exchange sooner and authorize again', async () => {
  const { store, options } = await installation();
  const expired = await options();
  await advanceClock(twin().url, store.storeId, CODE_LIFETIME_MS + 1);
  const error = await refusal(exchangeCode(expired));
  expect(error.code).toBe('INSTALL_ERR_CODE_EXPIRED');
  expect(error.message).toMatch(/as soon as the redirect brings it/);
  expect(error.message).not.toContain(expired.code);
});

test('a reused code says a code is exchanged once', async () => {
  const { options } = await installation();
  const once = await options();
  await exchangeCode(once);
  expect((await refusal(exchangeCode(once))).code).toBe('INSTALL_ERR_CODE_USED');
});

test('a redirect mismatch says which redirect URL to pass', async () => {
  const { options } = await installation();
  const error = await refusal(exchangeCode(await options({ redirectUri: 'http://127.0.0.1:9/other' })));
  expect(error.code).toBe('INSTALL_ERR_REDIRECT_MISMATCH');
  expect(error.message).toMatch(/redirect URL registered/);
  // The registered one is accepted.
  await expect(exchangeCode(await options({ redirectUri: REDIRECT }))).resolves.toMatchObject({ scopes: expect.any(Array) });
});

test('an unknown code is INSTALL_ERR_CODE; empty options are refused before sending', async () => {
  const { options } = await installation();
  expect((await refusal(exchangeCode(await options({ code: 'no-such-code' })))).code).toBe('INSTALL_ERR_CODE');
  expect((await refusal(exchangeCode(await options({ clientSecret: '' })))).code).toBe('INSTALL_ERR_CONFIG');
});

test('an answer that is not the documented token answer is INSTALL_ERR_RESPONSE, the token redacted', async () => {
  // First a token of the wrong type, then a 500.
  const fake: Awaited<ReturnType<typeof startFakeStore>> = await startFakeStore(() =>
    fake.requests.length === 1 ? { json: { access_token: 'leaky-token', token_type: 'mac', user_id: '7' } } : { status: 500, json: {} },
  );
  try {
    const base = { clientId: 1, clientSecret: 's', code: 'c', userAgent: USER_AGENT, authUrl: fake.origin };
    const error = await refusal(exchangeCode(base));
    expect(error.code).toBe('INSTALL_ERR_RESPONSE');
    expect(error.message).not.toContain('leaky-token');
    expect(fake.requests[0]).toMatchObject({ method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': USER_AGENT } });
    expect(JSON.parse(fake.requests[0]!.body)).toEqual({ client_id: '1', client_secret: 's', grant_type: 'authorization_code', code: 'c' });
    const failed = await refusal(exchangeCode(base));
    expect([failed.code, failed.status]).toEqual(['INSTALL_ERR_RESPONSE', 500]);
  } finally {
    await fake.close();
  }
});
