/**
 * npm run pact:verify -- --pact, the entry point a team uses, can fail, and says why. It is run as a
 * process, as a team runs it, on copies of the examples' and the held-out pacts with one thing wrong:
 * - a deliberately wrong expectation in the product sync's pact fails that interaction, naming it and
 *   the field, with Pact's mismatch report attached; the other interaction of the same pact passes;
 * - a state the vocabulary does not know fails before any request, naming the closest known state;
 * - on replay, an interaction nobody recorded fails naming the missing recording and the command.
 * Its own twins on free ports, its own run name and a JSON report only: the gate's report is left alone.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { freePort } from '../../../src/http/freePort.ts';

interface JsonResult {
  status: string;
  error?: { message?: string };
  attachments: { name: string; body?: string; path?: string }[];
}
interface JsonSuite {
  title: string;
  suites?: JsonSuite[];
  specs?: { title: string; tests: { status: string; results: JsonResult[] }[] }[];
}

const SYNC_PACT = 'examples/pacts/store-product-sync-store-commerce-api.json';
const WIDGET_PACT = 'tests/fixtures/pacts/anime-widget-media-tracking-api.json';

/** Runs pact:verify as a process; answers its exit code, its output and the results of each interaction by title. */
async function pactVerify(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string; results: Map<string, JsonResult> }> {
  const dir = mkdtempSync(join(tmpdir(), 'pact-verify-cli-'));
  const report = join(dir, 'report.json');
  // One worker: its starts are then the same every run (two side by side split the tests, and so the restarts after a
  // failure, by timing).
  const child = spawn('node_modules/.bin/node', ['scripts/pactVerify.ts', ...args, '--', '--reporter=json', '--workers=1'], {
    env: {
      ...process.env,
      HARNESS_RUN_NAME: `self-test-outside-${process.pid}-${Date.now()}`,
      HARNESS_RULE_GATE: '',
      PLAYWRIGHT_JSON_OUTPUT_NAME: report,
      ...env,
    },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const results = new Map<string, JsonResult>();
  const walk = (suite: JsonSuite) => {
    for (const spec of suite.specs ?? []) results.set(spec.title, spec.tests[0]!.results.at(-1)!);
    for (const child of suite.suites ?? []) walk(child);
  };
  try {
    for (const suite of (JSON.parse(readFileSync(report, 'utf8')) as { suites: JsonSuite[] }).suites) walk(suite);
  } catch {
    // No report: the assertions below show the output.
  }
  return { code, output, results };
}

function brokenCopies(): string {
  const dir = mkdtempSync(join(tmpdir(), 'broken-pacts-'));
  // The deliberately wrong expectation: prices written with a decimal comma, which the API never sends.
  const sync = JSON.parse(readFileSync(SYNC_PACT, 'utf8')) as {
    interactions: { description: string; response: { matchingRules: { body: Record<string, { matchers: { regex?: string }[] }> } } }[];
  };
  const last = sync.interactions.find((i) => i.description === 'the last page of products for the sync')!;
  const price = Object.entries(last.response.matchingRules.body).find(([path]) => path.endsWith('.price'))!;
  price[1].matchers[0]!.regex = '^\\d+,\\d{2}$';
  writeFileSync(join(dir, 'sync.json'), JSON.stringify(sync));
  // A state in words the vocabulary does not have, on the last interaction: each failure costs Playwright a new
  // worker for the tests after it, and the sync's wrong expectation is already its pact's last.
  const widget = JSON.parse(readFileSync(WIDGET_PACT, 'utf8')) as { interactions: { providerStates: { name: string }[] }[] };
  widget.interactions.at(-1)!.providerStates = [{ name: 'anime number 1 is there' }];
  writeFileSync(join(dir, 'widget.json'), JSON.stringify(widget));
  return dir;
}

test('a wrong expectation and an unknown state fail their interactions, by name, with the reason; the rest passes', async () => {
  test.setTimeout(120_000);
  const run = await pactVerify(['--pact', brokenCopies(), '--states', 'examples/pact-states.ts'], {
    HARNESS_TARGET: 'twin',
    STORE_MOCK_PORT: String(await freePort()),
    KITSU_MOCK_PORT: String(await freePort()),
  });
  expect(run.code, run.output).toBe(1);

  const wrong = run.results.get('the last page of products for the sync');
  expect(wrong?.status, run.output).toBe('failed');
  expect(wrong?.error?.message).toContain('breaks the pact interaction "the last page of products for the sync"');
  expect(wrong?.error?.message).toMatch(/\$\[\d+\]\.variants\[\d+\]\.price/);
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
  const dir = mkdtempSync(join(tmpdir(), 'unrecorded-'));
  const pact = JSON.parse(readFileSync(WIDGET_PACT, 'utf8')) as { consumer: { name: string }; interactions: { description: string }[] };
  pact.consumer.name = 'a-consumer-nobody-recorded';
  // One interaction: each failed test costs Playwright a new worker, and one shows the message as well as two.
  pact.interactions = pact.interactions.slice(0, 1);
  writeFileSync(join(dir, 'unrecorded.json'), JSON.stringify(pact));
  const run = await pactVerify(['--pact', dir], { HARNESS_TARGET: 'replay', RECORDINGS_DIR: 'recordings' });
  expect(run.code, run.output).toBe(1);
  for (const { description } of pact.interactions) {
    const message = run.results.get(description)?.error?.message ?? run.output;
    expect(message).toContain(`"${description}" was never recorded`);
    expect(message).toMatch(/recordings\/media\/outside\/a-consumer-nobody-recorded\/.*\.raw\.json/);
    expect(message).toContain(`HARNESS_TARGET=record npm run pact:verify -- --pact ${join(dir, 'unrecorded.json')}`);
  }
});
