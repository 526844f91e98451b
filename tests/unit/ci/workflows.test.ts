import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { formatProblem, lintWorkflowFiles, lintWorkflowText, workflowFiles, type WorkflowProblem } from '../../../src/ci/lintWorkflows.ts';
import { LIVE_SECRETS } from '../../../src/ci/workflowRules.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const WORKFLOWS = join(ROOT, '.github/workflows');
const read = (name: string) => readFileSync(join(WORKFLOWS, name), 'utf8');

/** A workflow that keeps every rule, with the given jobs (YAML indented under `jobs:`). */
function workflow(jobs: string, env = "env:\n  PACT_DO_NOT_TRACK: 'true'\n"): string {
  return `on: push\npermissions:\n  contents: read\n${env}jobs:\n${jobs}`;
}

/** The 1-based line of the first line holding `marker`. */
function lineOf(text: string, marker: string): number {
  const at = text.split('\n').findIndex((line) => line.includes(marker));
  if (at < 0) throw new Error(`no line holds ${marker}`);
  return at + 1;
}

const brief = (problems: readonly WorkflowProblem[]) => problems.map((p) => ({ line: p.line, kind: p.kind }));

const made: string[] = [];
test.afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

test.describe('the committed workflows', () => {
  test('the gate, the sharded suites and the nightly are there, and lint clean', async () => {
    const files = workflowFiles(WORKFLOWS);
    expect(files.map((f) => f.slice(WORKFLOWS.length + 1))).toEqual(expect.arrayContaining(['gate.yml', 'nightly.yml', 'suites.yml']));
    expect((await lintWorkflowFiles(files)).map(formatProblem)).toEqual([]);
  });

  test('each sets PACT_DO_NOT_TRACK=true for the whole workflow', () => {
    for (const file of workflowFiles(WORKFLOWS)) {
      const env = (parse(readFileSync(file, 'utf8')) as { env?: Record<string, unknown> }).env;
      expect(String(env?.PACT_DO_NOT_TRACK), file).toBe('true');
    }
  });

  test('the nightly takes every credential from repository secrets, and only the live steps get them', () => {
    const text = read('nightly.yml');
    const doc = parse(text) as { jobs: Record<string, { if?: string; env?: Record<string, string>; steps: { id?: string; env?: Record<string, string> }[] }> };
    const settings: [string, string][] = [];
    for (const job of Object.values(doc.jobs)) {
      for (const env of [job.env, ...job.steps.map((s) => s.env)]) {
        for (const [name, value] of Object.entries(env ?? {})) if ((LIVE_SECRETS as readonly string[]).includes(name)) settings.push([name, value]);
      }
    }
    expect(settings.length).toBeGreaterThan(0);
    for (const [name, value] of settings) expect(value, name).toBe(`\${{ secrets.${name} }}`);
    // The live steps get all of them (the suites', each sandbox's, the listing of the sandboxes); no job-level env
    // (seen by npm ci's install scripts) has one.
    const liveSteps = { suites: ['verify', 'drift'], teams: ['broker'], sandboxes: ['list'] };
    for (const [job, ids] of Object.entries(liveSteps)) {
      for (const id of ids) {
        const env = doc.jobs[job]!.steps.find((s) => s.id === id)?.env ?? {};
        for (const name of LIVE_SECRETS) expect(env[name], `${job}'s ${id} step: ${name}`).toBe(`\${{ secrets.${name} }}`);
      }
    }
    for (const [id, job] of Object.entries(doc.jobs))
      expect(
        Object.keys(job.env ?? {}).filter((name) => (LIVE_SECRETS as readonly string[]).includes(name)),
        id,
      ).toEqual([]);
    // Without the secrets the live jobs are skipped (the check job says which are missing), not failed.
    for (const id of ['suites', 'sandboxes', 'merge']) expect(doc.jobs[id]!.if, id).toMatch(/needs\.secrets\.outputs\.ready == 'true'/);
    // No token is written anywhere in the file: every value that looks like one is an expression.
    expect(text).not.toMatch(/TOKEN:\s*(?!\$\{\{\s*secrets\.)\S/);
  });

  test('the pull-request workflows use no secret at all', () => {
    for (const name of ['gate.yml', 'suites.yml']) expect(read(name), name).not.toMatch(/secrets\./);
  });

  test('the sharded suites: the matrix has as many shards as --shard=i/N says, and each shard uploads its blob', () => {
    const text = read('suites.yml');
    const doc = parse(text) as {
      jobs: Record<string, { strategy?: { matrix: { shard: number[] } }; env?: Record<string, string>; steps: { run?: string }[] }>;
    };
    const sharded = Object.entries(doc.jobs).filter(([, job]) => job.steps.some((s) => s.run?.includes('--shard')));
    expect(sharded.map(([id]) => id)).toEqual(['shard']);
    const job = sharded[0]![1];
    const shards = job.strategy!.matrix.shard;
    expect(shards).toEqual(shards.map((_, n) => n + 1));
    const run = job.steps.find((s) => s.run?.includes('--shard'))!.run!;
    expect(run).toContain(`--shard=\${{ matrix.shard }}/${shards.length}`);
    for (const project of ['store', 'media', 'properties', 'storefront']) expect(run).toContain(`--project=${project}`);
    expect(run).not.toMatch(/--project=contracts/);
    expect(job.env?.HARNESS_BLOB_REPORT).toBe('1');
    expect(text).toMatch(/merge-reports --reporter=\S+ reports\/blob-all/);
  });
});

test.describe('the lint can fail', () => {
  test('an unknown key, an undefined matrix property and a needs: naming no job are each reported at their line', async () => {
    const text = workflow(
      ['  build:', '    runs-on: ubuntu-latest', '    needs: [nope]', '    timeout: 10', '    steps:', '      - run: echo ${{ matrix.nope }}', ''].join('\n'),
    );
    const problems = await lintWorkflowText(text, 'broken.yml');
    expect(brief(problems)).toEqual(
      expect.arrayContaining([
        { line: lineOf(text, 'build:'), kind: 'job-needs' },
        { line: lineOf(text, 'timeout: 10'), kind: 'syntax-check' },
        { line: lineOf(text, 'matrix.nope'), kind: 'expression' },
      ]),
    );
    expect(problems.find((p) => p.kind === 'job-needs')?.message).toMatch(/needs job "nope" which does not exist/);
    expect(formatProblem(problems.find((p) => p.kind === 'expression')!)).toMatch(/^broken\.yml:\d+:\d+: property "nope" is not defined.* \[expression\]$/);
  });

  test('a file that is not YAML is reported at its line, not a crash of the wasm linter', async () => {
    const text = workflow('  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "shards: 3" | tee summary\n');
    const problems = await lintWorkflowText(text, 'bad.yml');
    expect(brief(problems)).toEqual([{ line: lineOf(text, 'shards: 3'), kind: 'syntax-check' }]);
    expect(problems[0]!.message).toMatch(/^not valid YAML/);
    // The linter still works for the next file.
    expect(await lintWorkflowText(workflow('  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ok\n'), 'ok.yml')).toEqual([]);
  });

  test('npm run lint:workflows prints file:line:col: message [kind] and exits 1; with no workflow it exits 1 too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'workflows-'));
    made.push(dir);
    const script = join(ROOT, 'scripts/lintWorkflows.ts');
    const run = (arg: string) => spawnSync(process.execPath, [script, arg], { cwd: ROOT, encoding: 'utf8' });

    const empty = run(dir);
    expect(empty.status).toBe(1);
    expect(empty.stderr).toMatch(/no workflow/);

    writeFileSync(join(dir, 'ok.yml'), workflow('  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ok\n'));
    const clean = run(dir);
    expect(clean.stdout.trim()).toBe('actionlint: 1 workflow, no problems');
    expect(clean.status).toBe(0);

    const text = workflow('  build:\n    runs-on: ubuntu-latest\n    needs: nope\n    steps:\n      - run: echo ok\n');
    writeFileSync(join(dir, 'broken.yaml'), text);
    const broken = run(dir);
    expect(broken.status).toBe(1);
    expect(broken.stdout).toContain(
      `${join(dir, 'broken.yaml')}:${lineOf(text, 'build:')}:3: job "build" needs job "nope" which does not exist in this workflow [job-needs]`,
    );
    expect(broken.stdout).toMatch(/actionlint: 2 workflows, 1 problem in 1 of them/);
  });
});

test.describe("the harness's rules", () => {
  const job = '  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ok\n';

  test('a workflow without PACT_DO_NOT_TRACK=true is reported', async () => {
    expect(brief(await lintWorkflowText(workflow(job, ''), 'w.yml'))).toEqual([{ line: 1, kind: 'pact-tracking' }]);
    const off = workflow(job, "env:\n  PACT_DO_NOT_TRACK: 'false'\n");
    expect(brief(await lintWorkflowText(off, 'w.yml'))).toEqual([{ line: lineOf(off, 'PACT_DO_NOT_TRACK'), kind: 'pact-tracking' }]);
  });

  test('a credential written as a literal, or a secret interpolated into a script, is reported', async () => {
    const text = workflow(
      [
        '  build:',
        '    runs-on: ubuntu-latest',
        '    env:',
        '      STORE_ACCESS_TOKEN: abc123',
        '      KITSU_ACCESS_TOKEN: ${{ secrets.KITSU_ACCESS_TOKEN }}',
        '      STORE_ID: ${{ github.run_id }}',
        '    steps:',
        '      - run: curl -H "Authentication=${{ secrets.STORE_ACCESS_TOKEN }}" https://example.invalid',
        '',
      ].join('\n'),
    );
    const problems = (await lintWorkflowText(text, 'w.yml')).filter((p) => p.kind === 'secrets');
    expect(brief(problems)).toEqual([
      { line: lineOf(text, 'STORE_ACCESS_TOKEN: abc123'), kind: 'secrets' },
      { line: lineOf(text, 'STORE_ID:'), kind: 'secrets' },
      { line: lineOf(text, 'curl'), kind: 'secrets' },
    ]);
    expect(problems[0]!.message).toMatch(/STORE_ACCESS_TOKEN must come from a repository secret/);
  });

  const shardJob = (matrix: string, arg: string, env = "    env:\n      HARNESS_BLOB_REPORT: '1'\n") =>
    `  suites:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n${matrix}${env}    steps:\n      - run: npx playwright test --shard=${arg}\n`;

  test('a shard matrix and a --shard that agree pass: a literal N, or strategy.job-total when the shards are the whole matrix', async () => {
    expect(await lintWorkflowText(workflow(shardJob('        shard: [1, 2, 3]\n', '${{ matrix.shard }}/3')), 'w.yml')).toEqual([]);
    expect(await lintWorkflowText(workflow(shardJob('        shard: [1, 2]\n', '${{ matrix.shard }}/${{ strategy.job-total }}')), 'w.yml')).toEqual([]);
  });

  test('a --shard count that is not the matrix length, shards not numbered 1..N, or no blob report are reported', async () => {
    const miscounted = workflow(shardJob('        shard: [1, 2, 3]\n', '${{ matrix.shard }}/4'));
    const problems = await lintWorkflowText(miscounted, 'w.yml');
    expect(brief(problems)).toEqual([{ line: lineOf(miscounted, '--shard'), kind: 'shard' }]);
    expect(problems[0]!.message).toMatch(/says 4 shards but matrix.shard has 3/);

    const gap = workflow(shardJob('        shard: [1, 2, 4]\n', '${{ matrix.shard }}/3'));
    expect(brief(await lintWorkflowText(gap, 'w.yml'))).toEqual([{ line: lineOf(gap, 'shard: ['), kind: 'shard' }]);

    const crossed = workflow(shardJob('        shard: [1, 2]\n        node: [22, 24]\n', '${{ matrix.shard }}/${{ strategy.job-total }}'));
    expect((await lintWorkflowText(crossed, 'w.yml')).map((p) => p.message)).toEqual([expect.stringMatching(/job-total counts every matrix combination/)]);

    const noBlob = workflow(shardJob('        shard: [1, 2]\n', '${{ matrix.shard }}/2', ''));
    expect((await lintWorkflowText(noBlob, 'w.yml')).map((p) => p.message)).toEqual([expect.stringMatching(/HARNESS_BLOB_REPORT/)]);

    const unsharded = workflow('  suites:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npx playwright test --shard=1/2\n');
    expect((await lintWorkflowText(unsharded, 'w.yml')).map((p) => p.message)).toContainEqual(expect.stringMatching(/no strategy.matrix.shard/));
  });

  test("an input an action does not have, a missing required input, or an action not in the table are reported (actionlint knows only v3's inputs)", async () => {
    const text = workflow(
      [
        '  build:',
        '    runs-on: ubuntu-latest',
        '    steps:',
        '      - uses: actions/download-artifact@v4',
        '        with:',
        '          pattern: blob-report-*',
        '          merge-mutiple: true',
        '      - uses: actions/upload-artifact@v4',
        '        with:',
        '          name: report',
        '      - uses: someone/else@v1',
        '',
      ].join('\n'),
    );
    const problems = await lintWorkflowText(text, 'w.yml');
    expect(brief(problems)).toEqual([
      { line: lineOf(text, 'merge-mutiple'), kind: 'action-inputs' },
      { line: lineOf(text, 'upload-artifact'), kind: 'action-inputs' },
      { line: lineOf(text, 'someone/else'), kind: 'action-inputs' },
    ]);
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/input "merge-mutiple" is not defined in actions\/download-artifact@v4/),
      expect.stringMatching(/actions\/upload-artifact@v4 needs the input "path"/),
      expect.stringMatching(/someone\/else@v1 is not one of the actions/),
    ]);
  });

  test("a matrix read from another job's output is guarded against an empty list and does not fail fast", async () => {
    const dynamic = (condition: string, failFast: string) =>
      workflow(
        [
          '  list:',
          '    runs-on: ubuntu-latest',
          '    outputs:',
          '      ids: ${{ steps.list.outputs.ids }}',
          '    steps:',
          '      - id: list',
          '        run: echo \'ids=["a","b"]\' >> "$GITHUB_OUTPUT"',
          '  each:',
          '    needs: list',
          condition,
          '    runs-on: ubuntu-latest',
          '    strategy:',
          failFast,
          '      matrix:',
          '        id: ${{ fromJSON(needs.list.outputs.ids) }}',
          '    steps:',
          '      - run: echo "$ID"',
          '        env:',
          '          ID: ${{ matrix.id }}',
          '',
        ]
          .filter((line) => line !== '')
          .join('\n') + '\n',
      );
    const guarded = dynamic("    if: ${{ needs.list.outputs.ids != '[]' }}", '      fail-fast: false');
    expect(await lintWorkflowText(guarded, 'w.yml')).toEqual([]);
    const bare = dynamic('', '');
    const problems = await lintWorkflowText(bare, 'w.yml');
    expect(brief(problems)).toEqual([
      { line: lineOf(bare, 'fromJSON'), kind: 'dynamic-matrix' },
      { line: lineOf(bare, 'fromJSON'), kind: 'dynamic-matrix' },
    ]);
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/matrix comes from needs\.list\.outputs\.ids, which may be an empty list.*add if: \$\{\{ needs\.list\.outputs\.ids != '\[\]' \}\}/),
      expect.stringMatching(/set strategy\.fail-fast: false/),
    ]);
  });

  test('the rules read the YAML, so a comment or a quoted value does not fool them', async () => {
    const text = workflow(job, "env:\n  # PACT_DO_NOT_TRACK: 'true'\n  OTHER: 'PACT_DO_NOT_TRACK: true'\n");
    expect(brief(await lintWorkflowText(text, 'w.yml'))).toEqual([{ line: lineOf(text, 'env:'), kind: 'pact-tracking' }]);
    // And the committed files parse to mappings with jobs (what every rule walks).
    for (const file of workflowFiles(WORKFLOWS)) {
      const jobs = Object.entries((parse(readFileSync(file, 'utf8')) as { jobs?: Record<string, { steps?: unknown }> }).jobs ?? {});
      expect(jobs.length, file).toBeGreaterThan(0);
      for (const [id, job] of jobs) expect(Array.isArray(job.steps), `${file}: job ${id}`).toBe(true);
    }
  });
});
