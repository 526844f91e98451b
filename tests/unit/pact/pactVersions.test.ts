/**
 * Pacts of every version Pact's verifier reads (contracts/verification/pactFile.ts): V1.1, V2, V3 (HTTP and
 * messages) and V4 (HTTP and messages in one file) read into one shape, each one-interaction copy written as
 * it was, in its own version; and message interactions (verifyMessage.ts, messageStates.ts) verified against
 * the store twin's real deliveries, or reported as not verified where none can be observed.
 * The fixtures (tests/fixtures/pacts/versions) are written by hand from Pact's specification.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { HARNESS_USER_AGENT } from '../../../src/config/harnessConfig.ts';
import { freePort } from '../../../src/http/freePort.ts';
import { startStoreTwin, type RunningStoreTwin } from '../../../src/twins/store/server.ts';
import { storeTwinTarget } from '../../../contracts/store/providerStates.ts';
import { parsePact, writeSingleInteractionPact, type PactDocument } from '../../../contracts/verification/pactFile.ts';
import { outsidePact, PactSourceError } from '../../../contracts/verification/outsidePacts.ts';
import { arrangeMessageState, MESSAGE_STATES, MESSAGE_VOCABULARY } from '../../../contracts/verification/messageStates.ts';
import { messageSkipReason, verifyMessage } from '../../../contracts/verification/verifyMessage.ts';
import { MESSAGE_NOT_VERIFIED } from '../../../contracts/verification/pactProvider.ts';
import { PactMismatchError } from '../../../contracts/verification/verifyInteraction.ts';
import { withTeamStates } from '../../../contracts/verification/teamStates.ts';
import { resolveStates } from '../../../contracts/verification/stateVocabulary.ts';

const FIXTURES = 'tests/fixtures/pacts/versions';
const fixture = (name: string): PactDocument => parsePact(JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')), name, 'team');
const V2 = 'anime-widget-v2-media-tracking-api.json';
const V3 = 'price-watcher-v3-store-commerce-api.json';
const V3_MESSAGES = 'product-webhooks-v3-store-commerce-api.json';
const V4_MIXED = 'product-webhook-handler-store-commerce-api.json';

test.describe('reading each version into one shape', () => {
  test("V2: the state from providerState, the body as V4 holds it, V2's `$.body` matchers left for Pact", () => {
    const pact = fixture(V2);
    expect(pact.specification).toBe(2);
    expect(pact.messages).toEqual([]);
    const [first] = pact.interactions;
    expect(first).toMatchObject({
      type: 'Synchronous/HTTP',
      providerStates: [{ name: 'anime 1 exists' }],
      request: { method: 'GET', path: '/api/edge/anime/1' },
    });
    expect(first!.response.body?.content).toMatchObject({ data: { id: '1', type: 'anime' } });
  });

  test('V3: states with params from providerStates; a message pact gives messages, its contents as V4 holds them', () => {
    const http = fixture(V3);
    expect(http.specification).toBe(3);
    expect(http.interactions[0]!.providerStates).toEqual([{ name: 'store {storeId} has {count} products', params: { storeId: 100001, count: 3 } }]);
    expect(http.interactions[1]!.response.body?.content).toEqual([{ id: 1, stock: 5 }]);
    const messages = fixture(V3_MESSAGES);
    expect(messages.interactions).toEqual([]);
    expect(messages.messages.map((m) => [m.type, m.index, m.contents?.content])).toEqual([
      ['Asynchronous/Messages', 0, { store_id: 100001, event: 'product/created', id: 1948209 }],
      ['Asynchronous/Messages', 1, { store_id: 100001, event: 'product/created', id: 1948209, name: { es: 'Remera' } }],
    ]);
    expect(messages.messages[0]!.metadata).toEqual({ contentType: 'application/json' });
  });

  test('V4: HTTP and message interactions in one file keep their places in it', () => {
    const pact = fixture(V4_MIXED);
    expect(pact.count).toBe(3);
    expect(pact.interactions.map((i) => [i.index, i.description])).toEqual([[0, 'a request for the product a delivery names']]);
    expect(pact.messages.map((m) => [m.index, m.type, m.providerStates?.[0]?.name])).toEqual([
      [1, 'Asynchronous/Messages', 'a product was created'],
      [2, 'Asynchronous/Messages', 'a product was updated'],
    ]);
  });

  test("a V2 pact's providerState names a team's state as a V4 pact does (--states)", async () => {
    const team = (await import('../../fixtures/pact-states.ts')).default;
    const target = withTeamStates(
      storeTwinTarget({ mode: 'twin', twinUrl: 'http://127.0.0.1:1', port: 1, userAgent: HARNESS_USER_AGENT, allowWrites: true }),
      'store',
      team,
    );
    const interaction = {
      description: 'the sync',
      providerState: 'a catalogue for the product sync',
      request: { method: 'GET', path: '/v1/1/products' },
      response: { status: 200 },
    };
    const v2 = parsePact({ ...JSON.parse(readFileSync(join(FIXTURES, V2), 'utf8')), interactions: [interaction] }, 'v2.json', 'team');
    expect(resolveStates(target.vocabulary, target.name, v2.interactions[0]!).map((s) => s.entry.name)).toEqual(['a catalogue for the product sync']);
  });

  test('V1 and V1.1: provider_state or providerState, and the version where each tool wrote it', () => {
    const v1 = {
      consumer: { name: 'old-app' },
      provider: { name: 'media-tracking-api' },
      interactions: [
        { description: 'anime 1', provider_state: 'anime 1 exists', request: { method: 'get', path: '/api/edge/anime/1' }, response: { status: 200 } },
      ],
      metadata: { pactSpecificationVersion: '1.0.0' },
    };
    expect(parsePact(v1, 'v1', 'team')).toMatchObject({ specification: 1, interactions: [{ providerStates: [{ name: 'anime 1 exists' }] }] });
    const v11 = {
      ...v1,
      interactions: [{ ...v1.interactions[0], provider_state: undefined, providerState: 'anime 1 exists' }],
      metadata: { 'pact-specification': { version: '1.1.0' } },
    };
    expect(parsePact(v11, 'v1.1', 'team')).toMatchObject({ specification: 1, interactions: [{ providerStates: [{ name: 'anime 1 exists' }] }] });
  });

  test('a version no Pact verifier reads, or none at all, is refused naming what the file says; the harness own pacts stay V4', () => {
    const pact = (version: unknown) => ({ ...JSON.parse(readFileSync(join(FIXTURES, V2), 'utf8')), metadata: { pactSpecification: { version } } });
    expect(() => parsePact(pact('5.0.0'), 'p.json', 'team')).toThrow(/Pact specification "5.0.0".*reads versions 1.x to 4.x/);
    expect(() => parsePact(pact(undefined), 'p.json', 'team')).toThrow(/Pact specification undefined/);
    expect(() => parsePact(pact('2.0.0'), 'own.json')).toThrow(/not a V4 pact/);
    const file = join(FIXTURES, V3_MESSAGES);
    expect(outsidePact(file)).toMatchObject({ api: 'store', consumer: 'product-webhooks-v3' });
    expect(() => outsidePact(join(FIXTURES, '..', 'no-such.json'))).toThrow(PactSourceError);
  });

  test('the one-interaction copy the Verifier reads is the interaction as written, in a file of its version', ({}, testInfo) => {
    const v2 = fixture(V2);
    const copy = JSON.parse(readFileSync(writeSingleInteractionPact(v2, v2.interactions[1]!, testInfo.outputPath('v2.json')), 'utf8'));
    expect(copy.metadata.pactSpecification.version).toBe('2.0.0');
    expect(copy.interactions).toEqual([JSON.parse(readFileSync(join(FIXTURES, V2), 'utf8')).interactions[1]]);
    expect(copy.interactions[0].providerState).toBe('anime 1 exists');
    expect(copy.interactions[0].response.matchingRules['$.body.data.attributes.streamingUrl']).toEqual({ match: 'type' });
    const v3 = fixture(V3_MESSAGES);
    const message = JSON.parse(readFileSync(writeSingleInteractionPact(v3, v3.messages[1]!, testInfo.outputPath('v3.json')), 'utf8'));
    expect(message.interactions).toBeUndefined();
    expect(message.messages.map((m: { description: string }) => m.description)).toEqual([v3.messages[1]!.description]);
  });
});

test.describe('message interactions', () => {
  test('are not verified where no delivery can be observed, nor for an API that sends none, nor of a kind the store does not send', () => {
    const asynchronous = { type: 'Asynchronous/Messages' };
    expect(messageSkipReason('store', { kind: 'twin' }, asynchronous)).toBeUndefined();
    expect(messageSkipReason('store', { kind: 'live' }, asynchronous)).toMatch(new RegExp(`^${MESSAGE_NOT_VERIFIED}: a live store's webhook delivery`));
    expect(messageSkipReason('media', { kind: 'twin' }, asynchronous)).toMatch(/media API sends no messages/);
    expect(messageSkipReason('store', { kind: 'twin' }, { type: 'Synchronous/Messages' })).toMatch(/a Synchronous\/Messages interaction/);
  });

  test.describe('on the store twin', () => {
    let twin: RunningStoreTwin;
    test.beforeAll(async () => {
      twin = await startStoreTwin({ port: await freePort() });
    });
    test.afterAll(async () => twin?.close());
    const target = () => storeTwinTarget({ mode: 'twin', twinUrl: twin.url, port: 1, userAgent: HARNESS_USER_AGENT, allowWrites: true });

    test('each message state makes the twin send its event, signed, to the receiver', async () => {
      expect(MESSAGE_VOCABULARY.map((entry) => entry.name)).toEqual(Object.values(MESSAGE_STATES));
      for (const entry of MESSAGE_VOCABULARY) {
        const arranged = await arrangeMessageState({ twinUrl: twin.url, userAgent: HARNESS_USER_AGENT }, entry.name);
        try {
          const body = JSON.parse(arranged.delivery.body) as { store_id: number; event: string; id: number };
          expect(body.store_id, entry.name).toBe(arranged.values['storeId']);
          expect(body.event, entry.name).toMatch(/^(product|category|app)\//);
          expect(arranged.delivery.headers['X-Linkedstore-HMAC-SHA256'], entry.name).toMatch(/^[0-9a-f]{64}$/);
        } finally {
          await arranged.teardown();
        }
      }
    });

    test('a message the delivery holds verifies; one expecting a member it lacks fails in the short account, the consumer acting', async ({}, testInfo) => {
      const pact = fixture(V4_MIXED);
      const [created, updated] = pact.messages;
      const verified = await verifyMessage({ pact, message: created!, target: target(), api: 'store', pactFile: testInfo.outputPath('created.json') });
      expect(verified.status).toBe('verified');
      let error: unknown;
      try {
        await verifyMessage({ pact, message: updated!, target: target(), api: 'store', pactFile: testInfo.outputPath('updated.json') });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(PactMismatchError);
      const lines = (error as Error).message.split('\n');
      expect(lines).toContain('  $.name: missing');
      expect(lines.find((l) => l.startsWith('The pact expects the message:'))).toContain('"name":{"es":"Remera"}');
      expect(lines.find((l) => l.startsWith('The delivery holds:'))).toMatch(/"event":"product\/updated".*X-Linkedstore-HMAC-SHA256/);
      expect(lines.at(-1)).toMatch(/^Who acts: the consumer/);
    });

    test("a team's name for a message state verifies as the event it names", async ({}, testInfo) => {
      const pact = fixture(V4_MIXED);
      const created = pact.messages[0]!;
      const teamName = 'a lamp was added to the catalogue';
      const message = { ...created, providerStates: [{ name: teamName }] };
      const withTeam = withTeamStates(target(), 'store', { storeMessages: [{ name: teamName, event: created.providerStates![0]!.name }] });
      const outcome = await verifyMessage({ pact, message, target: withTeam, api: 'store', pactFile: testInfo.outputPath('team.json') });
      expect(outcome.status).toBe('verified');
      // Without the team's states the same name is no state of the store.
      await expect(verifyMessage({ pact, message, target: target(), api: 'store', pactFile: testInfo.outputPath('x.json') })).rejects.toThrow(
        /Unknown provider state "a lamp was added to the catalogue"/,
      );
    });

    test('a message naming no event, or one the store does not send, fails before anything is arranged', async ({}, testInfo) => {
      const pact = fixture(V4_MIXED);
      const message = pact.messages[0]!;
      const run = (providerStates: { name: string }[]) =>
        verifyMessage({ pact, message: { ...message, providerStates }, target: target(), api: 'store', pactFile: testInfo.outputPath('x.json') });
      await expect(run([])).rejects.toThrow(/names no provider state: name exactly one event/);
      await expect(run([{ name: 'an order was refunded' }])).rejects.toThrow(/Unknown provider state "an order was refunded"/);
    });
  });
});
