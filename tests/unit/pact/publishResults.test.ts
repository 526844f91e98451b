/**
 * contracts/broker/publishResults.ts and verificationResults.ts against the broker stand-in, in process, night after
 * night: each night's live results are a provider version of their own, recorded as deployed to production only once
 * every result is in, so the broker's matrix (what can-i-deploy asks) answers from the last complete night; a skipped
 * interaction is published as not verified, never as a success.
 */
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { BrokerClient } from '../../../contracts/broker/BrokerClient.ts';
import { providerIdentity } from '../../../contracts/broker/providerIdentity.ts';
import { interactionIds, publishResults } from '../../../contracts/broker/publishResults.ts';
import { interactionOutcomes, verificationResult, writeOutcome, type InteractionOutcome } from '../../../contracts/broker/verificationResults.ts';
import type { Git } from '../../../scripts/pactBroker.ts';
import { interactionId, startBrokerStandIn, type BrokerStandIn } from './brokerStandIn.ts';

const PROVIDER = 'store-commerce-api';
const git: Git = (args) => ({ 'rev-parse --short=12 HEAD': '0123456789ab', 'status --porcelain': '' })[args.join(' ')];
const INTERACTIONS = [
  { description: 'a request for one category', request: { method: 'GET', path: '/v1/1/categories/1' }, response: { status: 200 } },
  { description: 'a request to create a product', request: { method: 'POST', path: '/v1/1/products' }, response: { status: 201 } },
];
const TITLE = 'team-app (latest from branch main) → store-commerce-api';

let broker: BrokerStandIn;
test.beforeAll(async () => {
  broker = await startBrokerStandIn();
  broker.publish({ consumer: 'team-app', provider: PROVIDER, version: '1.0.0', branch: 'main', content: { interactions: INTERACTIONS } });
});
test.afterAll(async () => {
  await broker?.close();
});

/** One night: the outcomes its tests wrote, then what publishResults sends; the lines it printed. */
async function night(date: string, outcomes: Omit<InteractionOutcome, 'pact'>[], pactUrl?: string) {
  const run = `publish-results-${process.pid}-${date}`;
  for (const outcome of outcomes) writeOutcome({ pact: TITLE, ...outcome }, run);
  const client = new BrokerClient(broker.origin, {});
  const document = await client.fetchPact(`${broker.origin}/pacts/provider/${PROVIDER}/consumer/team-app/pact-version/1`);
  // A pact whose result link leads nowhere: the broker refuses the result.
  const served = pactUrl ? { ...document, _links: { 'pb:publish-verification-results': { href: pactUrl } } } : document;
  const identity = providerIdentity({}, () => 'main', git, 'live', new Date(`${date}T03:23:00Z`));
  const lines: string[] = [];
  const code = await publishResults(
    client,
    [{ pact: { title: TITLE, provider: PROVIDER }, document: served, outcomes: interactionOutcomes(TITLE, run) }],
    identity,
    { version: '1.0.0' },
    {
      out: (line) => lines.push(line),
      err: (line) => lines.push(line),
    },
  );
  return { code, lines, version: identity.version };
}

async function canIDeploy(): Promise<boolean> {
  const answer = await fetch(`${broker.origin}/matrix?q[][pacticipant]=team-app&q[][version]=1.0.0&latestby=cvp&environment=production`);
  return ((await answer.json()) as { summary: { deployable: boolean } }).summary.deployable;
}

test.describe.configure({ mode: 'serial' });

test('a night where every interaction held: published, then deployed; can-i-deploy says yes', async () => {
  const first = await night('2026-11-27', [
    { description: 'a request for one category', status: 'passed' },
    { description: 'a request to create a product', status: 'passed' },
  ]);
  expect(first.code, first.lines.join('\n')).toBe(0);
  expect(first.version).toBe('0123456789ab+live.2026-11-27');
  expect(broker.deployedNow(PROVIDER, 'production')).toEqual([first.version]);
  expect(first.lines.at(-1)).toMatch(/recorded store-commerce-api 0123456789ab\+live\.2026-11-27 as deployed to production/);
  expect(await canIDeploy()).toBe(true);
});

test("the next night the write is skipped: not verified, the night's version replaces the last in production, can-i-deploy says no", async () => {
  const second = await night('2026-11-28', [
    { description: 'a request for one category', status: 'passed' },
    { description: 'a request to create a product', status: 'skipped', reason: 'set STORE_ALLOW_WRITES=1 to verify it' },
  ]);
  expect(second.code).toBe(0);
  const result = broker.results.at(-1)!.body;
  expect(result).toMatchObject({ success: false, providerApplicationVersion: '0123456789ab+live.2026-11-28' });
  expect(result.testResults).toEqual([
    { interactionId: interactionId(INTERACTIONS[0]), interactionDescription: 'a request for one category', success: true },
    {
      interactionId: interactionId(INTERACTIONS[1]),
      interactionDescription: 'a request to create a product',
      success: false,
      mismatches: [{ attribute: 'not verified', description: 'skipped, not verified: set STORE_ALLOW_WRITES=1 to verify it' }],
    },
  ]);
  expect(broker.deployedNow(PROVIDER, 'production')).toEqual([second.version]);
  // Last night's pass against the same harness commit does not answer for tonight's real service.
  expect(await canIDeploy()).toBe(false);
});

test('a night whose results the broker refuses is not recorded as deployed: production keeps the last complete night', async () => {
  const third = await night('2026-11-29', [{ description: 'a request for one category', status: 'passed' }], `${broker.origin}/nowhere`);
  expect(third.code).toBe(1);
  expect(third.lines.join('\n')).toMatch(
    /publishing the results failed: .*404.* not recorded as deployed to production: can-i-deploy still answers from the last complete run/,
  );
  expect(broker.deployedNow(PROVIDER, 'production')).toEqual(['0123456789ab+live.2026-11-28']);
});

test('a result lists every interaction, by the id the broker served it with when it has one', () => {
  const outcomes: InteractionOutcome[] = [
    { pact: TITLE, description: 'a', status: 'failed', reason: 'Link missing' },
    { pact: TITLE, description: 'b', status: 'skipped' },
  ];
  expect(verificationResult(outcomes, 'v', { version: '1' }, new Map([['a', 'id-a']])).testResults).toEqual([
    { interactionId: 'id-a', interactionDescription: 'a', success: false, mismatches: [{ attribute: 'verification', description: 'Link missing' }] },
    { interactionDescription: 'b', success: false, mismatches: [{ attribute: 'not verified', description: 'skipped, not verified: no reason given' }] },
  ]);
  expect(verificationResult([], 'v', { version: '1' }).success).toBe(false);
  expect(interactionIds({ interactions: [{ _id: 'x', description: 'a' }, { description: 'b' }] })).toEqual(new Map([['a', 'x']]));
});
