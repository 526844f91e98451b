/**
 * One name per thing: a configuration that uses an old name is refused with a
 * message naming the new one, never read as if it were the new one. loadConfig
 * collects the problems (every run exits 2 on them), and `npm run breaks`
 * refuses its own variables' old names before it starts a job.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { renamedVariableProblems } from '../../../src/config/env.ts';
import { problemsOf } from './configEnv.ts';

const ROOT = resolve(import.meta.dirname, '../../..');

test('HARNESS_TARGET=mock is refused, naming twin', () => {
  expect(problemsOf({ HARNESS_TARGET: 'mock' })).toEqual(['HARNESS_TARGET=mock: the target is now called twin; set HARNESS_TARGET=twin']);
});

test('MUTANTS_PARALLEL, MUTANTS_FIRST_PORT and MUTANTS_HELD_OUT are refused by loadConfig, each naming its BREAKS_* variable', () => {
  expect(problemsOf({ MUTANTS_PARALLEL: '4', MUTANTS_FIRST_PORT: '4400', MUTANTS_HELD_OUT: 'review/set.ts' })).toEqual([
    'MUTANTS_PARALLEL=4: the variable is now called BREAKS_PARALLEL; set BREAKS_PARALLEL=4 and unset MUTANTS_PARALLEL',
    'MUTANTS_FIRST_PORT=4400: the variable is now called BREAKS_FIRST_PORT; set BREAKS_FIRST_PORT=4400 and unset MUTANTS_FIRST_PORT',
    'MUTANTS_HELD_OUT=review/set.ts: the variable is now called BREAKS_HELD_OUT; set BREAKS_HELD_OUT=review/set.ts and unset MUTANTS_HELD_OUT',
  ]);
  expect(problemsOf({ HARNESS_TARGET: 'live', MUTANTS_PARALLEL: '4' }), 'on every target').toContain(
    'MUTANTS_PARALLEL=4: the variable is now called BREAKS_PARALLEL; set BREAKS_PARALLEL=4 and unset MUTANTS_PARALLEL',
  );
  expect(renamedVariableProblems({ BREAKS_PARALLEL: '4', MUTANTS_PARALLEL: ' ' }), 'an empty old variable is unset').toEqual([]);
});

test('npm run breaks refuses an old variable name with exit 2 before it starts anything', () => {
  const run = spawnSync(process.execPath, ['scripts/breaks.ts', '--list'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, MUTANTS_FIRST_PORT: '4400' },
  });
  expect(run.status, run.stderr).toBe(2);
  expect(run.stderr).toContain('MUTANTS_FIRST_PORT=4400: the variable is now called BREAKS_FIRST_PORT; set BREAKS_FIRST_PORT=4400');
  expect(run.stdout).not.toMatch(/^break /m);
});

test("the twins' STORE_MOCK_* and KITSU_MOCK_* variables are refused, by loadConfig and by the twins' own command, naming STORE_TWIN_* and KITSU_TWIN_*", () => {
  expect(problemsOf({ STORE_MOCK_PORT: '4011', KITSU_MOCK_CLOCK: 'virtual' })).toEqual([
    'STORE_MOCK_PORT=4011: the variable is now called STORE_TWIN_PORT; set STORE_TWIN_PORT=4011 and unset STORE_MOCK_PORT',
    'KITSU_MOCK_CLOCK=virtual: the variable is now called KITSU_TWIN_CLOCK; set KITSU_TWIN_CLOCK=virtual and unset KITSU_MOCK_CLOCK',
  ]);
  const twins = spawnSync(process.execPath, ['src/twins/main.ts'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, KITSU_MOCK_PORT: '4021' } });
  expect(twins.status, twins.stderr).toBe(2);
  expect(twins.stderr).toContain('KITSU_MOCK_PORT=4021: the variable is now called KITSU_TWIN_PORT');
});
