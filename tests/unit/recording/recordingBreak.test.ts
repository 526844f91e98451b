/**
 * A recording edited to break the contract must fail the replay run, the way
 * the service it stands for would fail a live run: a product field renamed
 * (`name` → `title`) and a header dropped (X-Total-Count). The failures must
 * name the edits (the missing member, the header and its rule), so they are
 * the edits' and no other cause's; the unedited recordings replay green in
 * the gate's replay run. The drift report between the shipped recordings and
 * the edited ones shows both as contract breaks.
 */
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cassettePaths, type Cassette } from '../../../src/recording/cassette.ts';
import { checkRecordings, compareRecordings } from '../../../src/recording/drift.ts';
import { renderDriftMarkdown } from '../../../src/recording/driftReport.ts';

const LIST = 'store.products.list: GET /products answers an array of products';
const TOTAL = 'store.pagination.total-count: X-Total-Count is the same on every page and counts the results';

function edit(root: string, suite: string, title: string, change: (cassette: Cassette) => void): void {
  const path = cassettePaths(root, 'store', suite, title).raw;
  const cassette = JSON.parse(readFileSync(path, 'utf8')) as Cassette;
  change(cassette);
  writeFileSync(path, JSON.stringify(cassette, null, 2));
}

/** Replays the two tests from `root`; the run's exit code and output. */
function replay(root: string): { code: number | null; output: string } {
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const run = spawnSync(
    process.execPath,
    ['node_modules/@playwright/test/cli.js', 'test', '--project=store', '--workers=1', '--reporter=line', '-g', `${escape(LIST)}|${escape(TOTAL)}`],
    {
      encoding: 'utf8',
      env: { ...process.env, HARNESS_TARGET: 'replay', RECORDINGS_DIR: root, HARNESS_RUN_NAME: `recording-break-${Date.now()}`, CI: '' },
      timeout: 120_000,
    },
  );
  return { code: run.status, output: `${run.stdout}\n${run.stderr}` };
}

test('a recording edited to break the contract fails the replay run, naming what broke', async () => {
  test.setTimeout(120_000);
  const root = mkdtempSync(join(tmpdir(), 'recording-breaks-'));
  cpSync('recordings', root, { recursive: true });

  edit(root, 'products', LIST, (c) => {
    for (const i of c.interactions) {
      if (Array.isArray(i.response)) i.response = i.response.map(({ name, ...rest }: Record<string, unknown>) => ({ ...rest, title: name }));
    }
  });
  edit(root, 'pagination', TOTAL, (c) => {
    for (const i of c.interactions) delete i.rawHeaders['x-total-count'];
  });
  const replayed = replay(root);
  expect(replayed.code, replayed.output).toBe(1);
  expect(replayed.output).toMatch(/2 failed/);
  // The renamed field: the route's schema names the missing member, and says it was recorded from the service.
  expect(replayed.output).toMatch(/\[contract schemas\][^\n]*recorded service broke the contract/);
  expect(replayed.output).toMatch(/\/0\/name: required member is missing/);
  // The dropped header: the pagination rule that needs it.
  expect(replayed.output).toMatch(/store\.pagination\.total-count/);
  expect(replayed.output).toMatch(/X-Total-Count/);

  // The drift report of the shipped recordings against the edited ones names both as contract breaks.
  const drift = compareRecordings('recordings', root, { freshOnly: true });
  const breaks = drift.apis.flatMap((a) =>
    a.cassettes.flatMap((c) => c.findings.filter((f) => f.kind === 'contract-break').map((f) => ({ test: c.test, ...f }))),
  );
  expect(
    breaks.some((f) => f.test === LIST && /name/.test(`${f.subject} ${f.message}`)),
    JSON.stringify(breaks, null, 1),
  ).toBe(true);
  expect(
    breaks.some((f) => f.test === TOTAL && f.change === 'header-removed' && f.subject === 'x-total-count'),
    JSON.stringify(breaks, null, 1),
  ).toBe(true);
  const markdown = renderDriftMarkdown(drift);
  expect(markdown).toContain(LIST);
  expect(markdown).toContain('x-total-count');
  await test.info().attach('drift.md', { body: markdown, contentType: 'text/markdown' });
});

test('every recording the repository ships satisfies the JSON Schemas of its route', () => {
  const breaches = checkRecordings('recordings');
  expect(
    breaches.map((b) => b.message),
    'these recorded answers break the contract: a finding about the recorded service',
  ).toEqual([]);
});
