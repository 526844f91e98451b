/**
 * npm run pact:verify's command line (scripts/pactVerify.ts), how an outside pact is read for the plan
 * (contracts/verification/outsidePacts.ts), a team's states (teamStates.ts), and the provider version
 * results are published as (contracts/broker/providerIdentity.ts).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { parseVerifyArgs } from '../../../scripts/pactVerify.ts';
import { providerIdentity, providerVersion } from '../../../contracts/broker/providerIdentity.ts';
import { apiOfProvider, outsidePact, pactFilesIn, PactSourceError, withUniqueTitles } from '../../../contracts/verification/outsidePacts.ts';
import { DEFAULT_SELECTORS } from '../../../contracts/broker/selectors.ts';
import { loadTeamStates, withTeamStates } from '../../../contracts/verification/teamStates.ts';
import { unavailable, type PactProvider } from '../../../contracts/verification/pactProvider.ts';
import { consumerBranch, type Git } from '../../../scripts/pactBroker.ts';

function usageError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PactSourceError);
    return (error as Error).message;
  }
  throw new Error('expected a PactSourceError');
}

test.describe('the command line', () => {
  test('no arguments, or store|media: the harness own pacts, as before', () => {
    expect(parseVerifyArgs([])).toMatchObject({ mode: 'own', apis: [] });
    expect(parseVerifyArgs(['media'])).toMatchObject({ mode: 'own', apis: ['media'] });
  });

  test('--pact (repeatable), --provider and --states', () => {
    expect(parseVerifyArgs(['--pact', 'a.json', '--pact', 'pacts/', '--provider', 'media', '--states', 'team.ts'])).toMatchObject({
      mode: 'pact',
      pacts: ['a.json', 'pacts/'],
      provider: 'media',
      statesFile: 'team.ts',
      publish: false,
    });
  });

  test('--broker takes selectors (default: main branch, deployed or released), publishes unless --no-publish', () => {
    expect(parseVerifyArgs(['--broker'])).toMatchObject({ mode: 'broker', selectors: DEFAULT_SELECTORS, publish: true });
    expect(
      parseVerifyArgs(['--broker', '--branch', 'feat/x', '--deployed', '--environment', 'production', '--consumer', 'team-app', '--no-publish']),
    ).toMatchObject({
      selectors: [
        { branch: 'feat/x', consumer: 'team-app' },
        { deployed: true, environment: 'production', consumer: 'team-app' },
      ],
      publish: false,
    });
    expect(
      parseVerifyArgs(['--broker', '--provider-name', 'my-store', '--provider', 'store', '--provider-branch', 'main', '--provider-environment', 'twin']),
    ).toMatchObject({
      providerNames: ['my-store'],
      provider: 'store',
      providerBranch: 'main',
      providerEnvironment: 'twin',
    });
  });

  test("--sandbox picks one sandbox's pacts of --pact or --broker; --list-sandboxes stands alone", () => {
    expect(parseVerifyArgs(['--broker', '--no-publish', '--sandbox', 'sandbox-1'])).toMatchObject({ mode: 'broker', sandbox: 'sandbox-1', publish: false });
    expect(parseVerifyArgs(['--pact', 'a.json', '--sandbox', 'harness'])).toMatchObject({ mode: 'pact', sandbox: 'harness' });
    expect(parseVerifyArgs(['--list-sandboxes'])).toMatchObject({ mode: 'list-sandboxes' });
    expect(usageError(() => parseVerifyArgs(['--sandbox', 'sandbox-1']))).toMatch(/--sandbox goes with --pact or --broker/);
    expect(usageError(() => parseVerifyArgs(['--broker', '--sandbox']))).toMatch(/--sandbox needs a value/);
    expect(usageError(() => parseVerifyArgs(['--list-sandboxes', '--broker']))).toMatch(/--list-sandboxes takes no other argument/);
  });

  test('usage errors name the fix', () => {
    expect(usageError(() => parseVerifyArgs(['--pact']))).toMatch(/--pact needs a value/);
    expect(usageError(() => parseVerifyArgs(['--pact', 'a.json', '--broker']))).toMatch(/not both/);
    expect(usageError(() => parseVerifyArgs(['--provider', 'shop', '--pact', 'a.json']))).toMatch(/store or media, not "shop"/);
    expect(usageError(() => parseVerifyArgs(['--pact', 'a.json', '--main-branch']))).toMatch(/only with --broker/);
    expect(usageError(() => parseVerifyArgs(['--pact', 'a.json', 'store']))).toMatch(/--provider store\|media/);
    expect(usageError(() => parseVerifyArgs(['--frobnicate']))).toMatch(/unknown argument/);
    expect(usageError(() => parseVerifyArgs(['--broker', '--environment', 'production']))).toMatch(/--environment narrows --deployed/);
    expect(usageError(() => parseVerifyArgs(['--pact', 'a.json', '--no-publish']))).toMatch(/go with --broker/);
  });
});

test.describe('reading an outside pact', () => {
  const dir = mkdtempSync(join(tmpdir(), 'outside-pacts-'));
  const pact = (provider: string) => ({
    consumer: { name: 'team-app' },
    provider: { name: provider },
    interactions: [{ description: 'a request', request: { method: 'GET', path: '/x' }, response: { status: 200 } }],
    metadata: { pactSpecification: { version: '4.0' } },
  });

  test('the API is read off the provider name', () => {
    expect(['store-commerce-api', 'StoreAPI', 'tiendanube', 'media-tracking-api', 'Kitsu', 'anime-db'].map(apiOfProvider)).toEqual([
      'store',
      'store',
      'store',
      'media',
      'media',
      'media',
    ]);
    expect(apiOfProvider('payments')).toBeUndefined();
    expect(apiOfProvider('store-media-gateway')).toBeUndefined();
  });

  test('a provider name that says neither API needs --provider; the error says so', () => {
    writeFileSync(join(dir, 'payments.json'), JSON.stringify(pact('payments')));
    expect(usageError(() => outsidePact(join(dir, 'payments.json')))).toMatch(/provider name "payments".*--provider store or --provider media/);
    expect(outsidePact(join(dir, 'payments.json'), 'store')).toMatchObject({ api: 'store', consumer: 'team-app', title: 'team-app → payments' });
  });

  test('a directory gives its *.json files; a missing path, an empty directory or a pact of no version Pact reads are usage errors', () => {
    const own = mkdtempSync(join(tmpdir(), 'outside-dir-'));
    writeFileSync(join(own, 'media.json'), JSON.stringify(pact('media-tracking-api')));
    writeFileSync(join(own, 'store.json'), JSON.stringify(pact('store-commerce-api')));
    writeFileSync(join(own, 'notes.txt'), 'not a pact');
    expect(pactFilesIn(own).map((p) => p.slice(own.length + 1))).toEqual(['media.json', 'store.json']);
    expect(usageError(() => pactFilesIn(join(dir, 'nope')))).toMatch(/no such file or directory/);
    expect(usageError(() => pactFilesIn(mkdtempSync(join(tmpdir(), 'empty-'))))).toMatch(/no \*\.json pact file/);
    writeFileSync(join(dir, 'v3.json'), JSON.stringify({ ...pact('store-commerce-api'), metadata: { pactSpecification: { version: '3.0.0' } } }));
    expect(outsidePact(join(dir, 'v3.json'))).toMatchObject({ api: 'store', consumer: 'team-app' });
    writeFileSync(join(dir, 'v5.json'), JSON.stringify({ ...pact('store-commerce-api'), metadata: { pactSpecification: { version: '5.0.0' } } }));
    expect(usageError(() => outsidePact(join(dir, 'v5.json')))).toMatch(/Pact specification "5.0.0".*1\.x to 4\.x/);
  });
});

test('two pacts between the same pair get their file names in their titles, so each has its own tests', () => {
  const pact = (path: string) => ({
    path,
    api: 'store' as const,
    consumer: 'team-app',
    provider: 'store-commerce-api',
    title: 'team-app → store-commerce-api',
  });
  expect(
    withUniqueTitles([pact('/a/v1.json'), pact('/b/v2.json'), { ...pact('/c/other.json'), title: 'other → store-commerce-api' }]).map((p) => p.title),
  ).toEqual(['team-app → store-commerce-api (v1.json)', 'team-app → store-commerce-api (v2.json)', 'other → store-commerce-api']);
});

test.describe("a team's states", () => {
  const base: PactProvider = {
    name: 'store twin',
    kind: 'twin',
    baseUrl: 'http://127.0.0.1:1',
    vocabulary: [{ name: 'store {storeId} has {count} products', twin: 't', live: 'l' }],
    states: { 'store {storeId} has {count} products': async ({ count }) => ({ values: { storeId: 1, count: Number(count) } }) },
  };

  test('join the vocabulary and arrange by composing the known states', async () => {
    const target = withTeamStates(base, 'store', {
      store: [
        {
          name: 'a catalogue for the product sync',
          twin: 'forty-five products',
          live: 'the store, with at least 45',
          arrange: async (_params, states) => {
            const arranged = await states.arrange('store 1 has 45 products');
            return states.target === 'twin' ? arranged : states.unavailable('not on live');
          },
        },
      ],
    });
    expect(target.vocabulary.map((e) => e.name)).toEqual(['store {storeId} has {count} products', 'a catalogue for the product sync']);
    expect(await target.states['a catalogue for the product sync']!({})).toEqual({ values: { storeId: 1, count: 45 } });
    const onLive = withTeamStates({ ...base, kind: 'live' }, 'store', {
      store: [{ name: 'x', twin: 't', live: 'l', arrange: (_p, states) => (states.target === 'live' ? unavailable('no') : {}) }],
    });
    expect(await onLive.states['x']!({})).toEqual({ skip: 'no' });
  });

  test('may not take a built-in name; a file without defineTeamStates as its default export is refused, naming it', async () => {
    expect(() => withTeamStates(base, 'store', { store: [{ name: 'store {storeId} has {count} products', twin: '', live: '', arrange: () => ({}) }] })).toThrow(
      /built-in states already: rename them/,
    );
    const dir = mkdtempSync(join(tmpdir(), 'team-states-'));
    writeFileSync(join(dir, 'bad.ts'), "export default { store: [{ name: 'x' }] };\n");
    await expect(loadTeamStates(join(dir, 'bad.ts'))).rejects.toThrow(/bad "store" entry: export default defineTeamStates/);
    await expect(loadTeamStates(join(dir, 'missing.ts'))).rejects.toThrow(/could not be loaded/);
  });

  test('message states: each names an event of the store; one naming none is refused at load, and a built-in name when joined', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'team-states-'));
    writeFileSync(join(dir, 'ok.ts'), "export default { storeMessages: [{ name: 'a lamp was added', event: 'a product was created' }] };\n");
    expect((await loadTeamStates(join(dir, 'ok.ts'))).storeMessages).toEqual([{ name: 'a lamp was added', event: 'a product was created' }]);
    writeFileSync(join(dir, 'no-event.ts'), "export default { storeMessages: [{ name: 'a lamp was added' }] };\n");
    await expect(loadTeamStates(join(dir, 'no-event.ts'))).rejects.toThrow(/bad "storeMessages" entry: .*each message state with name and event/);
    writeFileSync(join(dir, 'unknown.ts'), "export default { storeMessages: [{ name: 'an order was refunded', event: 'an order was refunded' }] };\n");
    await expect(loadTeamStates(join(dir, 'unknown.ts'))).rejects.toThrow(
      /message states naming no event of the store: "an order was refunded" \(event "an order was refunded"\)\. Each names one of "a product was created"/,
    );
    const messages = [{ name: 'a lamp was added', event: 'a product was created' }];
    expect(withTeamStates(base, 'store', { storeMessages: messages }).messageStates).toEqual(messages);
    // The media API sends no messages: its target takes none.
    expect(withTeamStates(base, 'media', { storeMessages: messages }).messageStates).toBeUndefined();
    expect(() => withTeamStates(base, 'store', { storeMessages: [{ name: 'a product was created', event: 'a product was created' }] })).toThrow(
      /built-in message states already: rename them/,
    );
  });
});

test.describe('the provider version results are published as (contracts/broker/providerIdentity.ts)', () => {
  const git =
    (answers: Record<string, string>): Git =>
    (args) =>
      answers[args.join(' ')];
  const clean = git({ 'rev-parse --short=12 HEAD': '0123456789ab', 'status --porcelain': '', 'rev-parse --abbrev-ref HEAD': 'main' });
  const night = new Date('2026-11-27T03:23:00Z');
  const nextNight = new Date('2026-11-28T03:23:00Z');

  test('is the harness commit plus the target; on live plus the night (UTC), so each night of the real service is its own version', () => {
    expect(providerVersion(clean, 'twin', night)).toBe('0123456789ab+twin');
    expect(providerVersion(clean, 'twin', nextNight)).toBe('0123456789ab+twin');
    expect(providerVersion(clean, 'live', night)).toBe('0123456789ab+live.2026-11-27');
    expect(providerVersion(clean, 'live', nextNight)).toBe('0123456789ab+live.2026-11-28');
    // Late in the evening west of Greenwich is already the next UTC night.
    expect(providerVersion(clean, 'live', new Date('2026-11-27T23:30:00-05:00'))).toBe('0123456789ab+live.2026-11-28');
    expect(providerVersion(git({ 'rev-parse --short=12 HEAD': '0123456789ab', 'status --porcelain': ' M x' }), 'replay')).toBe('0123456789ab-dirty+replay');
    expect(() => providerVersion(git({}), 'live')).toThrow(/git rev-parse HEAD failed.*from a git checkout/);
  });

  test('has the branch, the target as a tag, and on live the production environment unless told otherwise', () => {
    const branchOf = (env: NodeJS.ProcessEnv) => () => consumerBranch(env, clean);
    const args = parseVerifyArgs(['--broker']);
    expect(providerIdentity(args, branchOf({}), clean, 'twin', night)).toEqual({
      version: '0123456789ab+twin',
      branch: 'main',
      tags: ['twin'],
      target: 'twin',
    });
    expect(providerIdentity(args, branchOf({}), clean, 'replay', night)).toMatchObject({ version: '0123456789ab+replay', tags: ['replay'] });
    expect(providerIdentity(args, branchOf({ PACT_BRANCH: 'release' }), clean, 'record', night)).toEqual({
      version: '0123456789ab+live.2026-11-27',
      branch: 'release',
      tags: ['live'],
      target: 'live',
      environment: 'production',
    });
    const gate = parseVerifyArgs(['--broker', '--provider-environment', 'twin-gate', '--provider-branch', 'feat/x']);
    expect(providerIdentity(gate, branchOf({}), clean, 'twin', night)).toMatchObject({ environment: 'twin-gate', branch: 'feat/x' });
  });
});
