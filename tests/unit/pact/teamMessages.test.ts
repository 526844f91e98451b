/**
 * What `npx api-contract-harness pact-verify` prints speaks of the team's project: each refusal (exit 2) is run
 * through the bin (scripts/cli.ts, in this process) from a team's folder, and its output holds no project name
 * of the harness's Playwright config, no npm script, no folder of the harness's checkout. The checkout's own
 * command keeps its words (npm run pact:verify).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { cli } from '../../../scripts/cli.ts';
import { commandWords, inReadersWords } from '../../../contracts/verification/commandWords.ts';
import { UnknownProviderStateError } from '../../../contracts/verification/stateVocabulary.ts';
import { readRecordedTarget } from '../../../src/config/harnessConfig.ts';
import { STORE_VOCABULARY } from '../../../contracts/store/providerStates.ts';

/** The words a team must never read: the harness's project names, its npm scripts, its checkout's folders. */
const PROJECT_NAMES = [...readFileSync('playwright.config.ts', 'utf8').matchAll(/name: '([a-z]+-[a-z-]+)'/g)].map((m) => m[1]!);
const HARNESS_WORDS = [...PROJECT_NAMES, 'npm run', 'npm test', 'pact:verify', 'contracts/', 'src/', 'scripts/', 'tests/', 'playwright test'];

/** Every harness word in `output` (a page of the harness is named as the package's, never by its path in the checkout). */
function harnessWordsIn(output: string): string[] {
  return [...HARNESS_WORDS, 'docs/', 'node_modules'].filter((word) => output.includes(word));
}

/** A team's project: a folder of its own with pacts of its own. */
const team = mkdtempSync(join(tmpdir(), 'team-project-'));
const write = (name: string, content: unknown) => {
  const path = join(team, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return name;
};
const pact = (provider: string, rest: Record<string, unknown> = {}) => ({
  consumer: { name: 'team-app' },
  provider: { name: provider },
  interactions: [{ description: 'a request', request: { method: 'GET', path: '/x' }, response: { status: 200 } }],
  metadata: { pactSpecification: { version: '2.0.0' } },
  ...rest,
});
const good = write('pacts/store.json', pact('store-commerce-api'));
mkdirSync(join(team, 'empty'), { recursive: true });

/** Runs the bin from the team's folder; answers its exit code and all it printed. The process is left as it was. */
async function bin(...argv: string[]): Promise<{ code: number; output: string }> {
  const saved = { cwd: process.cwd(), env: { ...process.env }, log: console.log, error: console.error };
  const lines: string[] = [];
  console.log = (...args: unknown[]) => void lines.push(args.join(' '));
  console.error = (...args: unknown[]) => void lines.push(args.join(' '));
  process.chdir(team);
  delete process.env['PACT_BROKER_BASE_URL'];
  try {
    const code = await cli(argv);
    return { code, output: lines.join('\n') };
  } finally {
    process.chdir(saved.cwd);
    for (const name of Object.keys(process.env)) if (!(name in saved.env)) delete process.env[name];
    Object.assign(process.env, saved.env);
    console.log = saved.log;
    console.error = saved.error;
  }
}

const REFUSALS: Record<string, () => string[]> = {
  'no pacts named': () => [],
  'a path that is not there': () => ['--pact', './no-such-pacts'],
  'a folder without pacts': () => ['--pact', './empty'],
  'a file that is not JSON': () => ['--pact', write('notes.json', 'not json')],
  'a pact with no interactions': () => ['--pact', write('empty.json', pact('store-commerce-api', { interactions: [] }))],
  'a pact of an unknown specification version': () => [
    '--pact',
    write('v9.json', pact('store-commerce-api', { metadata: { pactSpecification: { version: '9.0.0' } } })),
  ],
  'an interaction without a request': () => [
    '--pact',
    write('broken.json', pact('store-commerce-api', { interactions: [{ description: 'x', response: { status: 200 } }] })),
  ],
  'a provider name that says neither API': () => ['--pact', write('payments.json', pact('payments'))],
  'an unknown --provider': () => ['--pact', good, '--provider', 'shop'],
  'a states file without team states': () => ['--pact', good, '--states', write('states.mjs', 'export default { store: [{ name: 1 }] };')],
  'a states file that does not load': () => ['--pact', good, '--states', write('throws.mjs', 'throw new Error("boom");')],
  'a message state naming no event of the store': () => [
    '--pact',
    good,
    '--states',
    write('events.mjs', "export default { storeMessages: [{ name: 'an order was refunded', event: 'an order was refunded' }] };"),
  ],
  'an API named as the checkout names its own pacts': () => ['--pact', good, 'store'],
  'an unknown argument': () => ['--pact', good, '--frobnicate'],
  'a broker flag without --broker': () => ['--pact', good, '--no-publish'],
  '--broker without PACT_BROKER_BASE_URL': () => ['--broker'],
  'an unknown --target': () => ['--pact', good, '--target', 'staging'],
};

test.describe("each refusal of the packaged pact-verify speaks of the team's project", () => {
  for (const [name, args] of Object.entries(REFUSALS)) {
    test(name, async () => {
      const { code, output } = await bin('pact-verify', ...args());
      expect(code, output).toBe(2);
      expect(output.trim().length, 'the refusal says why').toBeGreaterThan(0);
      expect(harnessWordsIn(output), output).toEqual([]);
    });
  }

  test('its help, too', async () => {
    const { code, output } = await bin('help', 'pact-verify');
    expect(code).toBe(0);
    expect(output).toContain('npx api-contract-harness pact-verify --pact');
    expect(harnessWordsIn(output), output).toEqual([]);
  });

  test('a pact with no interactions is told to run its own consumer tests', async () => {
    const { output } = await bin('pact-verify', '--pact', write('none.json', pact('store-commerce-api', { interactions: [] })));
    expect(output).toContain('has no interactions: nothing to verify. Run your consumer tests first');
  });
});

test("the messages a team reads during a run are in the team's words; the checkout's stay the checkout's", () => {
  const team = commandWords(true);
  const checkout = commandWords(false);
  // A replay without recordings: the configuration's own message names the checkout's record command.
  const problems: string[] = [];
  readRecordedTarget(mkdtempSync(join(tmpdir(), 'no-recordings-')), problems);
  expect(problems[0]).toContain('npm run record');
  expect(harnessWordsIn(inReadersWords(problems[0]!, team))).toEqual([]);
  expect(inReadersWords(problems[0]!, team)).toContain('npx api-contract-harness pact-verify --target record');
  expect(inReadersWords(problems[0]!, checkout)).toBe(problems[0]);

  // An unknown state, as a team reads it under the packaged console and as the checkout reads it.
  const unknown = (console: string | undefined) => {
    const saved = process.env['HARNESS_CONSOLE'];
    if (console) process.env['HARNESS_CONSOLE'] = console;
    else delete process.env['HARNESS_CONSOLE'];
    try {
      return new UnknownProviderStateError({ state: 'store 1 has a categry tree', interaction: 'a menu', api: 'store twin', vocabulary: STORE_VOCABULARY })
        .message;
    } finally {
      if (saved === undefined) delete process.env['HARNESS_CONSOLE'];
      else process.env['HARNESS_CONSOLE'] = saved;
    }
  };
  expect(harnessWordsIn(unknown('pact-verify'))).toEqual([]);
  expect(unknown('pact-verify')).toContain('npx api-contract-harness pact-verify --states <file>');
  expect(unknown('pact-verify')).toContain('provider-states.md in the api-contract-harness package');
  expect(unknown('pact-verify')).not.toContain('node_modules');
  expect(unknown(undefined)).toContain('npm run pact:verify -- --states <file>');
});
