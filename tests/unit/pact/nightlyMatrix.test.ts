/**
 * The nightly's teams' verification as a matrix (.github/workflows/nightly.yml): `pact:verify --list-sandboxes` gives
 * the jobs, each job verifies one sandbox's pacts without publishing (`--broker --no-publish --sandbox <id>`, a
 * process and a reports folder of its own, as on its own runner), and the merge job publishes every job's folder once
 * (`pact:publish-results --from …`): each pact's result once, one deployment after the last result, the same results
 * as one process verifying them all. A store twin stands for the live store; the broker stand-in keeps what it is sent.
 * Two teams have sandboxes of their own (STORE_TEAM_SANDBOXES), a third is verified as the harness.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { startStoreTwin, type RunningStoreTwin } from '../../../src/twins/store/server.ts';
import { BrokerClient } from '../../../contracts/broker/BrokerClient.ts';
import { publishOnce } from '../../../contracts/broker/publishOnce.ts';
import { findLeftRuns, RESULTS_TO_PUBLISH, type ResultsToPublish } from '../../../contracts/broker/resultsToPublish.ts';
import { runScript, startBrokerStandIn, type BrokerStandIn, type PublishedResult } from './brokerStandIn.ts';

// Ports of this test's own range (4600–4699).
const TWIN_PORT = 4601;
const BROKER_PORT = 4602;
const SECOND_BROKER_PORT = 4603;
const PROVIDER = 'store-commerce-api';
const TOKEN = 'broker-tok-matrix-never-print-me';
const TEAM_PACTS = ['jvm-price-board', 'spec11-menu-feed', 'js9-storefront-menu'];
const SANDBOXES = ['harness', 'sandbox-1', 'sandbox-2', 'media'];

test.describe.configure({ mode: 'serial' });

let broker: BrokerStandIn;
let twin: RunningStoreTwin;
let live: Record<string, string>;
const jobs = mkdtempSync(join(tmpdir(), 'nightly-matrix-'));

test.beforeAll(async () => {
  broker = await startBrokerStandIn(BROKER_PORT);
  // The plus plan's bucket: no run waits on the rate limit.
  twin = await startStoreTwin({ port: TWIN_PORT, plan: 'plus' });
  const newToken = async () => ((await (await fetch(`${twin.url}/__twin/stores/100001/tokens`, { method: 'POST' })).json()) as { token: string }).token;
  const [harnessToken, teamToken] = [await newToken(), await newToken()];
  for (const consumer of TEAM_PACTS) {
    const content = JSON.parse(readFileSync(`tests/fixtures/pacts/tools/${consumer}-${PROVIDER}.json`, 'utf8')) as Record<string, unknown>;
    broker.publish({ consumer, provider: PROVIDER, version: '1.0.0', branch: 'main', content });
  }
  live = {
    PACT_BROKER_BASE_URL: broker.origin,
    PACT_BROKER_TOKEN: TOKEN,
    PACT_BRANCH: 'main',
    HARNESS_TARGET: 'live',
    STORE_API_URL: twin.url,
    STORE_ID: '100001',
    LIVE_STORE_ALLOWLIST: '100001',
    STORE_ACCESS_TOKEN: harnessToken!,
    STORE_USER_AGENT: 'api-contract-harness matrix test (https://example.invalid/harness)',
    // Two teams' own apps (sandbox-1, sandbox-2, in the order of their stores and names); js9-storefront-menu has none: the harness's.
    STORE_TEAM_SANDBOXES: JSON.stringify({
      'jvm-price-board': { storeId: '100001', token: 'twin-token-100001' },
      'spec11-menu-feed': { storeId: '100001', token: teamToken },
    }),
  };
});
test.afterAll(async () => {
  await twin?.close();
  await broker?.close();
  rmSync(jobs, { recursive: true, force: true });
});

/** `pact:verify` as one job of the nightly runs it: its own reports folder (its runner), its own run name. */
const job = (id: string, args: string[]) =>
  runScript('scripts/pactVerify.ts', ['--broker', '--provider-name', PROVIDER, ...args], {
    ...live,
    HARNESS_REPORTS_DIR: join(jobs, id),
    HARNESS_RUN_NAME: `nightly-broker-${id}`,
  });

/** The results as the broker keeps them, one per consumer, in a stable order. */
const byConsumer = (results: readonly PublishedResult[]) =>
  Object.fromEntries(
    results.map((r) => [
      r.consumer,
      { ...r.body, testResults: [...r.body.testResults].sort((a, b) => a.interactionDescription.localeCompare(b.interactionDescription)) },
    ]),
  );

test('--list-sandboxes prints the ids only, one JSON line: the harness, then each team app', async () => {
  const listed = await runScript('scripts/pactVerify.ts', ['--list-sandboxes'], live);
  expect(listed.code, listed.output).toBe(0);
  expect(listed.stdout).toBe(`${JSON.stringify(SANDBOXES)}\n`);
  expect(listed.output).not.toContain('twin-token-100001');
  expect(listed.output).not.toContain(live['STORE_ACCESS_TOKEN']!);
  expect(broker.requests, 'listing asks nothing of the broker').toEqual([]);
});

test('an unknown sandbox is refused before any request, naming the ids and where they come from', async () => {
  const unknown = await job('sandbox-9', ['--no-publish', '--sandbox', 'sandbox-9']);
  expect(unknown.code, unknown.output).toBe(2);
  expect(unknown.output).toContain(`--sandbox sandbox-9: this configuration has no such sandbox; its sandboxes are ${SANDBOXES.join(', ')}`);
  expect(unknown.output).toContain('--list-sandboxes prints them');
  expect(broker.requests).toEqual([]);
});

test('one job per sandbox, none publishing; then the merge publishes each pact once and records one deployment after the last result', async () => {
  test.setTimeout(90_000);
  // As the matrix runs them: side by side, each on its own.
  const ran = await Promise.all(SANDBOXES.map((id) => job(id, ['--no-publish', '--sandbox', id])));
  for (const [n, run] of ran.entries()) {
    expect(run.code, run.output).toBe(0);
    // The media sandbox has no pact among the store's: it says so, and leaves an empty folder for the merge.
    if (SANDBOXES[n] === 'media') expect(run.output).toContain('nothing to verify in the sandbox media');
    else expect(run.output, SANDBOXES[n]).toContain('--no-publish: the results were not published. To publish them: npm run pact:publish-results -- --from');
  }
  // Each job verified its own sandbox's pact only, and left it for the merge.
  expect(Object.fromEntries(findLeftRuns([jobs]).map(({ left }) => [left.sandbox, left.pacts.map((p) => p.title)]))).toEqual({
    harness: [`js9-storefront-menu (latest from branch main) → ${PROVIDER}`],
    'sandbox-1': [`jvm-price-board (latest from branch main) → ${PROVIDER}`],
    'sandbox-2': [`spec11-menu-feed (latest from branch main) → ${PROVIDER}`],
    media: [],
  });
  expect(broker.results, 'no job published').toEqual([]);
  expect(broker.deployments).toEqual([]);

  const merge = await runScript('scripts/pactPublishResults.ts', ['--from', jobs, '--sandboxes', JSON.stringify(SANDBOXES)], live);
  expect(merge.code, merge.output).toBe(0);
  expect(merge.output).not.toContain(TOKEN);
  expect(broker.results.map((r) => r.consumer).sort()).toEqual([...TEAM_PACTS].sort());
  const version = broker.results[0]!.body.providerApplicationVersion;
  expect(version).toMatch(/\+live\.\d{4}-\d{2}-\d{2}$/);
  expect(broker.results.every((r) => r.body.providerApplicationVersion === version && r.body.success)).toBe(true);
  expect(broker.deployments).toEqual([{ pacticipant: PROVIDER, version, environment: 'production', applicationInstance: 'live' }]);
  expect(broker.branches).toEqual([{ pacticipant: PROVIDER, branch: 'main', version }]);
  expect(broker.tags).toEqual([{ pacticipant: PROVIDER, version, tag: 'live' }]);
  const lastResult = broker.requests.findLastIndex((r) => r.method === 'POST' && r.url.endsWith('/verification-results'));
  const deployment = broker.requests.findIndex((r) => r.method === 'POST' && r.url.includes('/deployed-versions/'));
  expect(deployment).toBeGreaterThan(lastResult);
  expect(merge.output).toMatch(/^pact:publish-results: recorded store-commerce-api .* as deployed to production/m);
});

test('the same results as one process verifying every sandbox (npm run pact:verify -- --broker, as before)', async () => {
  test.skip(broker.results.length !== TEAM_PACTS.length, 'needs the matrix run above');
  test.setTimeout(60_000);
  const matrix = byConsumer(broker.results);
  const single = await job('single', []);
  expect(single.code, single.output).toBe(0);
  expect(single.output).toContain('3 sandboxes, verified side by side, one bucket each:');
  const published = broker.results.slice(TEAM_PACTS.length);
  expect(byConsumer(published)).toEqual(matrix);
  expect(broker.deployments).toHaveLength(2);
});

test('the merge refuses a pact found in two folders, and a night missing a sandbox is published without its deployment (exit 1)', async () => {
  const second = await startBrokerStandIn(SECOND_BROKER_PORT);
  try {
    const content = {
      consumer: { name: 'menu-app' },
      provider: { name: PROVIDER },
      interactions: [{ description: 'a leaf category', request: {}, response: {} }],
    };
    second.publish({ consumer: 'menu-app', provider: PROVIDER, version: '1.0.0', branch: 'main', content });
    const client = new BrokerClient(second.origin, {});
    const url = `${second.origin}/pacts/provider/${PROVIDER}/consumer/menu-app/pact-version/1`;
    const document = await client.fetchPact(url);
    const title = 'menu-app (latest from branch main) → store-commerce-api';
    const identity = { version: '0123456789ab+live.2026-11-27', branch: 'main', tags: ['live'], environment: 'production', target: 'live' as const };
    /** A job's folder as its artifact holds it: what it left, and its outcomes. */
    const folder = (root: string, sandbox: string, pacts: ResultsToPublish['pacts']) => {
      const dir = join(root, `nightly-part-${sandbox}`, 'pact-verify', `nightly-broker-${sandbox}`);
      mkdirSync(join(dir, 'outcomes'), { recursive: true });
      writeFileSync(join(dir, 'outcomes', '1.json'), JSON.stringify({ pact: title, description: 'a leaf category', status: 'passed' }));
      writeFileSync(join(dir, RESULTS_TO_PUBLISH), JSON.stringify({ sandbox, identity, verifier: { version: '17.1.4' }, pacts } satisfies ResultsToPublish));
    };
    const lines: string[] = [];
    const log = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line), prefix: 'pact:publish-results' };

    const twice = mkdtempSync(join(tmpdir(), 'nightly-merge-twice-'));
    folder(twice, 'harness', [{ url, title, provider: PROVIDER, document }]);
    cpSync(join(twice, 'nightly-part-harness'), join(twice, 'nightly-part-harness-again'), { recursive: true });
    expect(await publishOnce(client, findLeftRuns([twice]), { log })).toBe(2);
    expect(lines.join('\n')).toMatch(
      /the pact \S*menu-app\S* was verified in \S*nightly-part-harness\S* and \S*nightly-part-harness\S*: a pact's result is published once/,
    );
    expect(second.results).toEqual([]);

    lines.length = 0;
    const missing = mkdtempSync(join(tmpdir(), 'nightly-merge-missing-'));
    folder(missing, 'harness', [{ url, title, provider: PROVIDER, document }]);
    folder(missing, 'sandbox-1', []);
    expect(await publishOnce(client, findLeftRuns([missing]), { log, sandboxes: ['harness', 'sandbox-1', 'sandbox-2'] })).toBe(1);
    expect(second.results.map((r) => [r.consumer, r.body.success])).toEqual([['menu-app', true]]);
    expect(second.deployments, 'an incomplete night is not deployed').toEqual([]);
    expect(lines.at(-1)).toMatch(
      /^pact:publish-results: no results from the sandbox\(es\) sandbox-2: .* was not recorded as deployed to production: can-i-deploy still answers from the last complete night\. Re-run the failed jobs/,
    );
  } finally {
    await second.close();
  }
});
