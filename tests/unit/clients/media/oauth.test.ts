import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { VirtualClock } from '../../../../src/clock/Clock.ts';
import { MediaClient } from '../../../../src/clients/media/MediaClient.ts';
import { MediaApiError, MediaInvalidResponseError, MediaRequestError, OAuthError } from '../../../../src/clients/media/errors.ts';
import type { Exchange, MediaClientOptions } from '../../../../src/clients/media/types.ts';
import { MEDIA_CONTRACT } from '../../../../src/rules/mediaContract.ts';
import { startFakeMedia, type FakeMedia, type RecordedRequest, type Reply } from './fakeMedia.ts';

// Field notes: Authentication (Doorkeeper at {origin}/api/oauth/token and /revoke, password and refresh grants).

const PASSWORD = 'alice-password-s3cret';
const ACCESS = 'acc-1111aaaa2222bbbb';
const REFRESH = 'ref-3333cccc4444dddd';
const ACCESS_2 = 'acc-5555eeee6666ffff';
const REFRESH_2 = 'ref-7777gggg8888hhhh';

let media: FakeMedia;
let route: (request: RecordedRequest) => Reply = () => ({});

test.beforeAll(async () => {
  media = await startFakeMedia((request) => route(request));
});
test.afterAll(async () => {
  await media.close();
});
test.beforeEach(() => {
  media.requests.length = 0;
});

const tokenAnswer = (access: string, refresh: string): Reply => ({
  headers: { 'content-type': 'application/json; charset=utf-8' },
  json: {
    access_token: access,
    token_type: 'Bearer',
    expires_in: MEDIA_CONTRACT.tokenLifetimeSeconds,
    refresh_token: refresh,
    scope: 'public',
    created_at: 1_700_000_000,
  },
});

/** A tiny Doorkeeper: the password grant, the refresh grant, revocation, and /api/edge checking the Bearer token. */
function doorkeeper(request: RecordedRequest): Reply {
  const form = new URLSearchParams(request.body);
  if (request.url === MEDIA_CONTRACT.oauthTokenPath) {
    if (form.get('grant_type') === 'password' && form.get('username') === 'alice@twin.test' && form.get('password') === PASSWORD)
      return tokenAnswer(ACCESS, REFRESH);
    if (form.get('grant_type') === 'refresh_token' && form.get('refresh_token') === REFRESH) return tokenAnswer(ACCESS_2, REFRESH_2);
    return {
      status: 400,
      headers: { 'content-type': 'application/json' },
      json: {
        error: 'invalid_grant',
        error_description:
          'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
      },
    };
  }
  if (request.url === MEDIA_CONTRACT.oauthRevokePath) return { headers: { 'content-type': 'application/json' }, json: {} };
  return { json: { data: [], meta: { count: 0 } } };
}

function setup(options: Partial<MediaClientOptions> = {}) {
  const exchanges: Exchange[] = [];
  const client = new MediaClient({ baseUrl: media.baseUrl, clock: new VirtualClock(0), onExchange: (e) => exchanges.push(e), ...options });
  return { client, exchanges };
}

test('password grant: a form POST to {origin}/api/oauth/token; the client then sends the new token', async () => {
  route = doorkeeper;
  const { client } = setup();
  expect(client.signedIn).toBe(false);
  const token = await client.token({ username: 'alice@twin.test', password: PASSWORD });
  expect(token).toEqual({
    access_token: ACCESS,
    token_type: 'Bearer',
    expires_in: 2_592_000,
    refresh_token: REFRESH,
    scope: 'public',
    created_at: 1_700_000_000,
  });
  const sent = media.requests[0]!;
  expect(sent.method).toBe('POST');
  expect(sent.url).toBe('/api/oauth/token');
  expect(sent.headers['content-type']).toBe('application/x-www-form-urlencoded');
  expect(sent.headers['authorization']).toBeUndefined();
  expect(Object.fromEntries(new URLSearchParams(sent.body))).toEqual({ grant_type: 'password', username: 'alice@twin.test', password: PASSWORD });

  expect(client.signedIn).toBe(true);
  await client.list('library-entries', { filter: { userId: 1 } });
  expect(media.requests[1]!.headers['authorization']).toBe(`Bearer ${ACCESS}`);
});

test('refresh grant: sends the refresh token and switches to the new access token', async () => {
  route = doorkeeper;
  const { client } = setup({ token: ACCESS, clientId: 'twin-client' });
  const token = await client.token({ refreshToken: REFRESH });
  expect(token.access_token).toBe(ACCESS_2);
  expect(Object.fromEntries(new URLSearchParams(media.requests[0]!.body))).toEqual({
    grant_type: 'refresh_token',
    refresh_token: REFRESH,
    client_id: 'twin-client',
  });
  await client.send({ method: 'GET', path: '/users' });
  expect(media.requests[1]!.headers['authorization']).toBe(`Bearer ${ACCESS_2}`);
});

test('a refused grant is an OAuthError with the OAuth code and description, and no password', async () => {
  route = doorkeeper;
  const { client } = setup();
  const error = await client.token({ username: 'alice@twin.test', password: 'wrong-password-value' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(OAuthError);
  expect(error).toBeInstanceOf(MediaApiError);
  const oauth = error as OAuthError;
  expect(oauth.code).toBe('MEDIA_ERR_OAUTH');
  expect(oauth.status).toBe(400);
  expect(oauth.error).toBe('invalid_grant');
  expect(oauth.errorDescription).toMatch(/^The provided authorization grant is invalid/);
  expect(oauth.message).toMatch(/^Media API answered 400 Bad Request to POST http:\/\/127\.0\.0\.1:\d+\/api\/oauth\/token \("invalid_grant: The provided/);
  expect(oauth.message).toContain('Fix: check the credentials');
  expect(oauth.message).not.toContain('wrong-password-value');
  expect(client.signedIn).toBe(false);
});

test('revoke: a form POST of the token to {origin}/api/oauth/revoke; revoking its own token signs the client out', async () => {
  route = doorkeeper;
  const { client } = setup();
  await client.token({ username: 'alice@twin.test', password: PASSWORD });
  await client.revoke('some-other-token');
  expect(client.signedIn).toBe(true);
  await client.revoke();
  expect(client.signedIn).toBe(false);
  const revokes = media.requests.filter((r) => r.url === '/api/oauth/revoke');
  expect(revokes.map((r) => new URLSearchParams(r.body).get('token'))).toEqual(['some-other-token', ACCESS]);
  await client.send({ method: 'GET', path: '/anime' });
  expect(media.requests.at(-1)!.headers['authorization']).toBeUndefined();
  await expect(client.revoke()).rejects.toThrow(MediaRequestError);
});

test('a token answer without access_token is a MediaInvalidResponseError', async () => {
  route = () => ({ json: { token_type: 'Bearer' } });
  const { client } = setup();
  await expect(client.token({ username: 'a', password: PASSWORD })).rejects.toThrow(MediaInvalidResponseError);
});

test('passwords, issued tokens and refresh tokens never appear in exchanges or errors', async () => {
  route = doorkeeper;
  const { client, exchanges } = setup();
  await client.token({ username: 'alice@twin.test', password: PASSWORD });
  await client.token({ refreshToken: REFRESH });
  // The service echoes an old token later: still redacted.
  route = () => ({ status: 400, json: { errors: [{ status: '400', title: 'Odd', detail: `seen ${ACCESS} and ${REFRESH_2}` }] } });
  const error = (await client.list('anime').catch((e: unknown) => e)) as Error;
  const dump = JSON.stringify(exchanges) + error.message;
  for (const secret of [PASSWORD, ACCESS, REFRESH, ACCESS_2, REFRESH_2]) expect(dump).not.toContain(secret);
  expect(exchanges[0]!.request.body).toBe('grant_type=password&username=alice%40twin.test&password=[REDACTED]');
});
