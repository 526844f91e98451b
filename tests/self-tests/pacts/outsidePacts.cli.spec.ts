/**
 * `npx api-contract-harness pact-verify`, the entry point a team uses, can fail, and says why. It is run as a
 * process from a team's own folder, as a team runs it, with paths relative to that folder, on copies of the
 * examples' and the held-out pacts with one thing wrong:
 * - a deliberately wrong expectation in the product sync's pact fails that interaction, naming it, the field
 *   over every item and who acts, in a few console lines, with Pact's mismatch report attached; the other
 *   interaction of the same pact passes;
 * - a state the vocabulary does not know fails before any request, naming the closest known state;
 * - on replay, an interaction nobody recorded fails naming the missing recording and the command.
 * Its own twins on free ports, its own run name, and its reports in the team's folder: the gate's are left alone.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { freePort } from '../../../src/http/freePort.ts';
import type { InteractionOutcome } from '../../../contracts/broker/verificationResults.ts';

/** One interaction's verdict as the run reported it: its outcome (what a broker is sent) and its Allure attachments. */
interface Verdict {
  status: string;
  error?: { message?: string };
  attachments: { name: string }[];
}

const SYNC_PACT = 'examples/pacts/store-product-sync-store-commerce-api.json';
const WIDGET_PACT = 'tests/fixtures/pacts/anime-widget-media-tracking-api.json';
const CLI = resolve('scripts/cli.ts');

/**
 * Runs the command line as a process in `team` (a folder outside the harness); answers its exit code, its console,
 * and the verdict of each interaction by title, read from the reports it wrote in the team's folder.
 */
async function pactVerify(
  team: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string; results: Map<string, Verdict> }> {
  const run = `self-test-outside-${process.pid}-${Date.now()}`;
  const child = spawn(process.execPath, [CLI, 'pact-verify', ...args], {
    cwd: team,
    env: { ...process.env, HARNESS_RUN_NAME: run, HARNESS_RULE_GATE: '', HARNESS_REPORTS_DIR: '', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const reports = join(team, 'reports/api-contract-harness');
  const attachments = new Map<string, { name: string }[]>();
  const allure = join(reports, 'allure-results');
  for (const name of existsSync(allure) ? readdirSync(allure).filter((file) => file.endsWith('-result.json')) : []) {
    const result = JSON.parse(readFileSync(join(allure, name), 'utf8')) as { name: string; attachments: { name: string }[] };
    attachments.set(result.name, result.attachments);
  }
  const results = new Map<string, Verdict>();
  const outcomes = join(reports, 'pact-verify', run, 'outcomes');
  for (const name of existsSync(outcomes) ? readdirSync(outcomes) : []) {
    const outcome = JSON.parse(readFileSync(join(outcomes, name), 'utf8')) as InteractionOutcome;
    results.set(outcome.description, {
      status: outcome.status,
      ...(outcome.status === 'failed' ? { error: { message: outcome.reason ?? '' } } : {}),
      attachments: attachments.get(outcome.description) ?? [],
    });
  }
  return { code, output, results };
}

/** A team's folder outside the harness, with its pacts in ./pacts. */
function teamFolder(): string {
  const team = mkdtempSync(join(tmpdir(), 'team-'));
  mkdirSync(join(team, 'pacts'));
  writeFileSync(join(team, 'package.json'), JSON.stringify({ name: 'a-team', private: true, type: 'module' }));
  return team;
}

function brokenCopies(team: string): void {
  const dir = join(team, 'pacts');
  // The deliberately wrong expectation: prices written with a decimal comma, which the API never sends.
  const sync = JSON.parse(readFileSync(SYNC_PACT, 'utf8')) as {
    interactions: { description: string; response: { matchingRules: { body: Record<string, { matchers: { regex?: string }[] }> } } }[];
  };
  const last = sync.interactions.find((i) => i.description === 'the last page of products for the sync')!;
  const price = Object.entries(last.response.matchingRules.body).find(([path]) => path.endsWith('.price'))!;
  price[1].matchers[0]!.regex = '^\\d+,\\d{2}$';
  writeFileSync(join(dir, 'sync.json'), JSON.stringify(sync));
  // A state in words the vocabulary does not have.
  const widget = JSON.parse(readFileSync(WIDGET_PACT, 'utf8')) as { interactions: { providerStates: { name: string }[] }[] };
  widget.interactions.at(-1)!.providerStates = [{ name: 'anime number 1 is there' }];
  writeFileSync(join(dir, 'widget.json'), JSON.stringify(widget));
}

test('a wrong expectation and an unknown state fail their interactions, by name, with the reason; the rest passes', async () => {
  test.setTimeout(120_000);
  const team = teamFolder();
  brokenCopies(team);
  writeFileSync(
    join(team, 'pact-states.ts'),
    readFileSync('tests/fixtures/pact-states.ts', 'utf8').replace(/from '[^']*teamStates\.ts'/, `from '${resolve('contracts/verification/teamStates.ts')}'`),
  );
  const run = await pactVerify(team, ['--pact', './pacts', '--states', './pact-states.ts'], {
    HARNESS_TARGET: 'twin',
    STORE_TWIN_PORT: String(await freePort()),
    KITSU_TWIN_PORT: String(await freePort()),
  });
  expect(run.code, run.output).toBe(1);

  const wrong = run.results.get('the last page of products for the sync');
  expect(wrong?.status, run.output).toBe('failed');
  expect(wrong?.error?.message).toContain('The pact interaction "the last page of products for the sync" does not hold against the store twin');
  // Each mismatch once, over every item, and the word that decides who acts: the twin keeps the contract.
  expect(wrong?.error?.message).toMatch(/\$\[\*\]\.variants\[\*\]\.price: .* in \d+ of \d+ items?/);
  expect(wrong?.error?.message).toContain('Who acts: the consumer');
  // The console: a line per interaction, a short account per failure, nothing from inside the harness.
  const lines = run.output.trimEnd().split('\n');
  const block = lines.slice(lines.findIndex((line) => line.includes('✘') && line.includes('the last page of products for the sync')));
  const account = block.slice(
    0,
    block.findIndex((line, i) => i > 0 && /^ {2}[✓✘-] /.test(line)),
  );
  expect(account.length, run.output).toBeLessThanOrEqual(10);
  expect(account[0], "the interaction and where it is in the team's file").toMatch(/\(interaction 2 of 2 in \.\/pacts\/sync\.json\)/);
  expect(run.output).not.toMatch(/declarePactVerification|verifyInteraction\.ts|node_modules|at .*\.ts:\d+/);
  expect(lines.length, run.output).toBeLessThanOrEqual(40);
  expect(wrong?.attachments.map((a) => a.name)).toContain('pact mismatch report');
  expect(run.results.get('the first page of products for the sync')?.status).toBe('passed');

  const unknown = run.results.get('a request for anime by slug, with only slug and title');
  expect(unknown?.status).toBe('failed');
  expect(unknown?.error?.message).toContain('Unknown provider state "anime number 1 is there"');
  expect(unknown?.error?.message).toContain('so nothing was sent');
  expect(unknown?.error?.message).toContain('Closest known state: "anime {id} exists"');
  expect(run.results.get('a request for one anime with only its title and episode count')?.status).toBe('passed');
});

test('on replay, an interaction that was never recorded fails naming the recording and the command that records it', async () => {
  test.setTimeout(120_000);
  const team = teamFolder();
  const dir = join(team, 'pacts');
  const pact = JSON.parse(readFileSync(WIDGET_PACT, 'utf8')) as { consumer: { name: string }; interactions: { description: string }[] };
  pact.consumer.name = 'a-consumer-nobody-recorded';
  // One interaction shows the message as well as two.
  pact.interactions = pact.interactions.slice(0, 1);
  writeFileSync(join(dir, 'unrecorded.json'), JSON.stringify(pact));
  // The harness's own recordings (their target is recorded there): what a team recorded would be in its own folder.
  const run = await pactVerify(team, ['--pact', './pacts/unrecorded.json', '--target', 'replay'], { RECORDINGS_DIR: resolve('recordings') });
  expect(run.code, run.output).toBe(1);
  for (const { description } of pact.interactions) {
    const message = run.results.get(description)?.error?.message ?? run.output;
    expect(message).toContain(`"${description}" was never recorded`);
    // The message names the recording and the command a team types.
    expect(message).toMatch(/recordings\/media\/outside\/a-consumer-nobody-recorded\/.*\.raw\.json/);
    expect(message).toContain(`HARNESS_TARGET=record npx api-contract-harness pact-verify --pact ${join(dir, 'unrecorded.json')}`);
  }
});
