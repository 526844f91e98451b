import { expect, test, verifies } from '../fixtures/mediaFixtures.ts';
import { errorsOf, expectStatus, jsonApiOf } from '../fixtures/mediaChecks.ts';
import { says } from '../../src/testing/ruleTest.ts';
import { MEDIA_CONTRACT } from '../../src/rules/mediaContract.ts';

// Authentication: anonymous reads, bearer tokens, the OAuth token endpoint.

test(
  ...verifies('media.auth.anonymous-reads', 'the catalogue reads without a token', async ({ media, rule }) => {
    for (const path of ['/anime', '/manga', '/categories', '/episodes']) {
      const res = await media.anonymous.send({ method: 'GET', path, query: { 'page[limit]': 1 } });
      expectStatus(res, 200, rule);
    }
  }),
);

test(
  ...verifies('media.auth.bearer-token', 'Authorization: Bearer identifies the user', async ({ media, rule }) => {
    const res = await media.signedIn!.send({ method: 'GET', path: '/users', query: { 'filter[self]': 'true' } });
    expectStatus(res, 200, rule);
    const users = jsonApiOf(res, rule).data as { id: string }[];
    expect(users.length, says(rule, 'filter[self] finds the signed-in user')).toBe(1);
    if (media.twin) expect(users[0]!.id).toBe(media.twin.seed.users.adultAllowed.id);
  }),
);

test(
  ...verifies('media.auth.unknown-token-anonymous', 'a token the service never issued reads as anonymous', async ({ media, rule }) => {
    const res = await media.client('not-a-token-the-service-issued').send({ method: 'GET', path: '/anime', query: { 'page[limit]': 1 }, retry: false });
    expectStatus(res, 200, rule);
  }),
);

test(
  ...verifies('media.auth.oauth-password-refresh-revoke', 'password grant, refresh grant, revoke', async ({ media, rule }) => {
    test.skip(!media.twin, 'needs the seeded twin accounts');
    const { email, password } = media.twin!.seed.users.other;
    const client = media.client();
    const token = await client.token({ username: email, password });
    expect(token.token_type, says(rule, 'a Bearer token')).toBe('Bearer');
    expect(token.expires_in, says(rule, 'tokens last 30 days')).toBe(MEDIA_CONTRACT.tokenLifetimeSeconds);
    const refreshed = await client.token({ refreshToken: token.refresh_token! });
    expect(refreshed.access_token, says(rule, 'the refresh grant gives a new token')).not.toBe(token.access_token);
    const ok = await media.client(refreshed.access_token).send({ method: 'GET', path: '/users', query: { 'filter[self]': 'true' } });
    expectStatus(ok, 200, rule);
    await client.revoke(refreshed.access_token);
    const revoked = await media.client(refreshed.access_token).send({ method: 'GET', path: '/anime', retry: false });
    expectStatus(revoked, 401, rule);
    expect(errorsOf(revoked, rule)[0]?.title, says(rule, 'a revoked token is an Invalid token')).toBe('Invalid token');
  }),
);

test(
  ...verifies('media.auth.oauth-password-refresh-revoke', 'a token expires after 30 days', async ({ media, rule }) => {
    test.skip(!media.twin, 'needs the twin clock');
    const clock = await media.twin!.control.clock();
    test.skip(clock.mode !== 'virtual', 'the running twin has a real clock (npm run twins); the suites start their own with KITSU_TWIN_CLOCK=virtual');
    const { email, password } = media.twin!.seed.users.other;
    const token = await media.client().token({ username: email, password });
    await media.twin!.control.advanceClock((MEDIA_CONTRACT.tokenLifetimeSeconds + 1) * 1000);
    const res = await media.client(token.access_token).send({ method: 'GET', path: '/anime', retry: false });
    expectStatus(res, 401, rule);
  }),
);
