import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { MEDIA_CONTRACT } from '../../../../src/rules/mediaContract.ts';
import { MEDIA_SEED } from '../../../../src/twins/media/seedFacts.ts';
import { control, send, signIn, startTestTwin, type TestTwin } from './mediaHttp.ts';

let twin: TestTwin;
let tokenUrl: string;

test.beforeAll(async () => {
  twin = await startTestTwin();
  tokenUrl = `${twin.twin.url}${MEDIA_CONTRACT.oauthTokenPath}`;
});
test.afterAll(async () => {
  await twin.twin.close();
  expect(twin.internalErrors, 'no request reached the 500 fallback').toEqual([]);
});

const alice = MEDIA_SEED.users.adultAllowed;
const form = { 'Content-Type': 'application/x-www-form-urlencoded' };

test('password grant: email or name, form or JSON, Doorkeeper token body', async () => {
  const byEmail = await send(tokenUrl, {
    method: 'POST',
    headers: form,
    body: `grant_type=password&username=${encodeURIComponent(alice.email)}&password=${alice.password}`,
  });
  expect(byEmail.status).toBe(200);
  expect(byEmail.headers['content-type']).toBe('application/json; charset=utf-8');
  const token = byEmail.json();
  expect(Object.keys(token)).toEqual(['access_token', 'token_type', 'expires_in', 'refresh_token', 'scope', 'created_at']);
  expect(token).toMatchObject({ token_type: 'Bearer', expires_in: MEDIA_CONTRACT.tokenLifetimeSeconds, scope: 'public' });
  const byName = await send(tokenUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ grant_type: 'password', username: alice.name, password: alice.password, client_id: MEDIA_SEED.oauthClientId }),
  });
  expect(byName.status).toBe(200);
  const self = (await send(`${twin.api}/users?filter[self]=true`, { token: byName.json().access_token })).json();
  expect(self.data.map((user: { id: string }) => user.id)).toEqual([alice.id]);
  expect(self.data[0].attributes.email, 'the owner sees private members').toBe(alice.email);
});

test('wrong credentials and bad requests answer OAuth errors, not JSON:API', async () => {
  const wrong = await send(tokenUrl, { method: 'POST', headers: form, body: `grant_type=password&username=alice&password=nope` });
  expect(wrong.status).toBe(400);
  expect(wrong.json()).toEqual({ error: 'invalid_grant', error_description: expect.stringContaining('authorization grant is invalid') });
  expect((await send(tokenUrl, { method: 'POST', headers: form, body: 'grant_type=client_credentials' })).json().error).toBe('unsupported_grant_type');
  expect((await send(tokenUrl, { method: 'POST', headers: form, body: 'username=alice' })).json().error).toBe('invalid_request');
  expect((await send(tokenUrl, { method: 'POST', headers: form, body: 'grant_type=password&username=alice&password=alice-password&client_id=x' })).status).toBe(
    401,
  );
  expect((await send(tokenUrl, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'grant_type=password' })).json().error).toBe(
    'invalid_request',
  );
  expect((await send(tokenUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{' })).json().error).toBe('invalid_request');
  expect((await send(tokenUrl)).status, 'GET is no route').toBe(404);
});

test('refresh_token grant rotates the pair; revoke answers {} and the token then answers 401 Invalid token', async () => {
  const first = (await send(tokenUrl, { method: 'POST', headers: form, body: `grant_type=password&username=bob&password=bob-password` })).json();
  const refreshed = await send(tokenUrl, { method: 'POST', headers: form, body: `grant_type=refresh_token&refresh_token=${first.refresh_token}` });
  expect(refreshed.status).toBe(200);
  const second = refreshed.json();
  expect(second.access_token).not.toBe(first.access_token);
  expect((await send(`${twin.api}/anime/1`, { token: first.access_token })).status, 'the old token is revoked').toBe(401);
  expect((await send(tokenUrl, { method: 'POST', headers: form, body: `grant_type=refresh_token&refresh_token=${first.refresh_token}` })).json().error).toBe(
    'invalid_grant',
  );
  const revoke = await send(`${twin.twin.url}${MEDIA_CONTRACT.oauthRevokePath}`, { method: 'POST', headers: form, body: `token=${second.access_token}` });
  expect(revoke.status).toBe(200);
  expect(revoke.json()).toEqual({});
  const after = await send(`${twin.api}/anime/1`, { token: second.access_token });
  expect(after.status).toBe(401);
  expect(after.json()).toEqual({ errors: [{ title: 'Invalid token', status: '401' }] });
  expect((await send(`${twin.twin.url}${MEDIA_CONTRACT.oauthRevokePath}`, { method: 'POST', headers: form, body: 'token=never-issued' })).status).toBe(200);
});

test('an unknown or malformed token is anonymous; an expired one (30 days on the twin clock) is 401', async () => {
  for (const authorization of ['Bearer never-issued', 'Basic YWxpY2U6eA==', 'Bearer', 'bearer  ']) {
    const answer = await send(`${twin.api}/anime/7`, { headers: { Authorization: authorization } });
    expect(answer.status, authorization).toBe(404);
  }
  const token = await signIn(twin.twin.url, alice.name, alice.password);
  expect((await send(`${twin.api}/anime/7`, { token })).status).toBe(200);
  await control(twin.twin.url, 'POST', '/clock', { advanceMs: MEDIA_CONTRACT.tokenLifetimeSeconds * 1000 - 1 });
  expect((await send(`${twin.api}/anime/7`, { token })).status, 'one millisecond before expiry').toBe(200);
  await control(twin.twin.url, 'POST', '/clock', { advanceMs: 1 });
  const expired = await send(`${twin.api}/anime/1`, { token });
  expect(expired.status).toBe(401);
  expect(expired.json()).toEqual({ errors: [{ title: 'Invalid token', status: '401' }] });
  expect((await send(`${twin.api}/anime/1`)).status, 'anonymous still reads').toBe(200);
});

test('content negotiation: 406 for an Accept without the JSON:API media type', async () => {
  for (const accept of ['application/vnd.api+json', '*/*', 'application/*', 'text/html, application/vnd.api+json;q=0.9', '']) {
    expect((await send(`${twin.api}/anime/1`, { headers: { Accept: accept } })).status, accept).toBe(200);
  }
  for (const accept of ['application/json', 'text/html', 'application/vnd.api+json; ext=bulk', ';;,']) {
    const answer = await send(`${twin.api}/anime/1`, { headers: { Accept: accept } });
    expect(answer.status, accept).toBe(406);
    expect(answer.json().errors[0]).toMatchObject({ title: 'Not acceptable', code: '406', status: '406' });
  }
});
