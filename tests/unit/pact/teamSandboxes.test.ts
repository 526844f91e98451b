/**
 * The nightly verifies each team's pact as that team's app (STORE_TEAM_SANDBOXES): its sandbox store, its app's token
 * and so its scopes. Proved on the twins first: two teams' apps installed through the store twin's install flow, one
 * without write_products; a store twin process stands for the live service. The team whose app lacks the scope its
 * pact needs is red, naming the scope and the consumer's app setup as who acts; the other team stays green.
 */
import { request } from 'undici';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { HARNESS_USER_AGENT, loadConfig, type LiveStoreConfig } from '../../../src/config/harnessConfig.ts';
import { ConfigError } from '../../../src/config/ConfigError.ts';
import { startStoreTwin, type RunningStoreTwin } from '../../../src/twins/store/server.ts';
import { storeLiveTarget } from '../../../contracts/store/providerStates.ts';
import { sandboxIds, sandboxOf } from '../../../contracts/verification/sandboxes.ts';
import { parsePact, type PactDocument } from '../../../contracts/verification/pactFile.ts';
import { PactMismatchError, verifyInteraction } from '../../../contracts/verification/verifyInteraction.ts';

let twin: RunningStoreTwin;
test.beforeAll(async () => {
  twin = await startStoreTwin({ port: 0 });
});
test.afterAll(async () => twin.close());

async function call<T>(method: string, path: string, body: unknown): Promise<T> {
  const res = await request(`${twin.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await res.body.json()) as T;
  expect(res.statusCode, `${method} ${path}: ${JSON.stringify(answer)}`).toBeLessThan(300);
  return answer;
}

/** A team's app registered with these scopes, installed on store 100001 by its owner: the token the team's integration holds. */
async function installedApp(scopes: string[]): Promise<string> {
  const app = await call<{ appId: number; clientSecret: string }>('POST', '/__twin/apps', { redirectUrl: 'http://127.0.0.1:9/callback', scopes });
  const { code } = await call<{ code: string }>('POST', `/__twin/apps/${app.appId}/approve`, { storeId: 100001 });
  const token = await call<{ access_token: string }>('POST', '/apps/authorize/token', {
    client_id: app.appId,
    client_secret: app.clientSecret,
    grant_type: 'authorization_code',
    code,
  });
  return token.access_token;
}

const teamPact = (consumer: string): PactDocument =>
  parsePact(
    {
      consumer: { name: consumer },
      provider: { name: 'store-commerce-api' },
      interactions: [
        {
          description: 'a product created by the sync',
          providerState: 'store 100001 exists',
          request: {
            method: 'POST',
            path: '/v1/100001/products',
            headers: { 'Content-Type': 'application/json', 'User-Agent': 'Team app (ops@example.com)' },
            body: { name: 'Made by the nightly' },
          },
          response: { status: 201 },
        },
        {
          description: 'the first page',
          providerState: 'store 100001 exists',
          request: { method: 'GET', path: '/v1/100001/products', headers: { 'User-Agent': 'Team app (ops@example.com)' } },
          response: { status: 200 },
        },
      ],
      metadata: { pactSpecification: { version: '2.0.0' } },
    },
    `${consumer}.json`,
    'team',
  );

/** The live target as apiTarget makes it for a consumer with an entry in STORE_TEAM_SANDBOXES. */
const asTeam = (consumer: string, token: string) =>
  storeLiveTarget({ mode: 'live', apiUrl: twin.url, storeId: '100001', token, userAgent: HARNESS_USER_AGENT, allowWrites: true } satisfies LiveStoreConfig, {
    credentials: `${consumer}'s own app on its sandbox store 100001 (STORE_TEAM_SANDBOXES)`,
    team: consumer,
  });

test("each team is verified with its own app's token: the one without write_products is red naming the scope, the other green", async () => {
  const [full, readOnly] = await Promise.all([installedApp(['read_products', 'write_products']), installedApp(['read_products'])]);
  const sync = teamPact('product-sync');
  const viewer = teamPact('catalogue-viewer');
  const verify = (pact: PactDocument, index: number, token: string, consumer: string) =>
    verifyInteraction({
      pact,
      interaction: pact.interactions[index]!,
      target: asTeam(consumer, token),
    });

  expect(await verify(sync, 0, full, 'product-sync')).toMatchObject({ status: 'verified' });
  expect(await verify(viewer, 1, readOnly, 'catalogue-viewer'), 'its reads need only read_products').toMatchObject({ status: 'verified' });
  const refused = await verify(viewer, 0, readOnly, 'catalogue-viewer').catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(PactMismatchError);
  const message = (refused as Error).message;
  expect(message).toContain("Who acts: the consumer's app setup.");
  expect(message).toContain("catalogue-viewer's app was not granted write_products, which POST /v1/100001/products needs");
  expect(message, 'the token is never shown').not.toContain(readOnly);
});

test.describe('STORE_TEAM_SANDBOXES', () => {
  const live = {
    HARNESS_TARGET: 'live',
    STORE_ID: '100001',
    STORE_ACCESS_TOKEN: 'harness-token',
    STORE_USER_AGENT: HARNESS_USER_AGENT,
    STORE_API_URL: 'http://127.0.0.1:9',
    LIVE_STORE_ALLOWLIST: '100001,200002',
  };
  const problemsOf = (value: string) => {
    try {
      loadConfig({ ...live, STORE_TEAM_SANDBOXES: value });
      return '';
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
  };

  test('is read per consumer: store, token and an optional User-Agent', () => {
    const config = loadConfig({
      ...live,
      STORE_TEAM_SANDBOXES: JSON.stringify({ 'product-sync': { storeId: 200002, token: 'team-secret', userAgent: 'Sync (ops@example.com)' } }),
    });
    expect(config.store.mode === 'live' && config.store.teamSandboxes).toEqual({
      'product-sync': { storeId: '200002', token: 'team-secret', userAgent: 'Sync (ops@example.com)' },
    });
  });

  test('a bad value is refused naming the consumer and the member, never the token; a store not allow-listed too', () => {
    expect(problemsOf('not json')).toContain('STORE_TEAM_SANDBOXES is not JSON');
    expect(problemsOf('[1]')).toContain('STORE_TEAM_SANDBOXES is not a JSON object of consumer names');
    const bad = problemsOf(JSON.stringify({ sync: { storeId: 'abc', token: 'a secret with spaces' }, other: { storeId: '300003', token: 'other-secret' } }));
    expect(bad).toContain('STORE_TEAM_SANDBOXES["sync"]: storeId must be the numeric id of its sandbox store; token must be');
    expect(bad).toContain('STORE_TEAM_SANDBOXES["other"]: its store 300003 is not in LIVE_STORE_ALLOWLIST');
    expect(bad).not.toContain('secret');
  });

  test('an apiUrl serves a sandbox from another host, held to what STORE_API_URL is', () => {
    const config = loadConfig({ ...live, STORE_TEAM_SANDBOXES: JSON.stringify({ sync: { storeId: '200002', token: 't', apiUrl: 'http://127.0.0.1:4999/' } }) });
    expect(config.store.mode === 'live' && config.store.teamSandboxes?.['sync']?.apiUrl).toBe('http://127.0.0.1:4999');
    expect(problemsOf(JSON.stringify({ sync: { storeId: '200002', token: 't', apiUrl: 'http://sandbox.example.com' } }))).toContain(
      'STORE_TEAM_SANDBOXES["sync"]: apiUrl is "http://sandbox.example.com": live targets are reached over TLS only',
    );
  });

  test('teams given the same host, store and token are one app, so one sandbox; ids never carry a store id or a token', () => {
    const config = loadConfig({
      ...live,
      KITSU_ACCESS_TOKEN: '',
      STORE_TEAM_SANDBOXES: JSON.stringify({
        'b-sync': { storeId: '200002', token: 'shared-secret' },
        'a-sync': { storeId: '200002', token: 'shared-secret' },
        solo: { storeId: '100001', token: 'solo-secret' },
      }),
    });
    expect(sandboxOf('store', 'solo', config)).toEqual({ id: 'sandbox-1', label: "store 100001, as solo's app" });
    expect(sandboxOf('store', 'b-sync', config)).toEqual({ id: 'sandbox-2', label: 'store 200002, as the app of a-sync, b-sync' });
    expect(sandboxOf('store', 'a-sync', config)).toEqual(sandboxOf('store', 'b-sync', config));
    expect(sandboxOf('store', 'no-entry', config)).toEqual({ id: 'harness', label: 'store 100001, as the harness' });
    expect(sandboxOf('media', 'solo', config).id).toBe('media');
    expect(sandboxIds(config)).toEqual(['harness', 'sandbox-1', 'sandbox-2', 'media']);
    // A night's suites count records on the harness's store and media account: what writes there waits for them.
    expect(sandboxIds(config, 'after-suites')).toEqual(['harness', 'sandbox-1', 'media']);
    expect(sandboxIds(config, 'beside-suites')).toEqual(['sandbox-2']);
  });
});
