/**
 * `node bench/replaySpeed.ts`: the store and media suites, one after the other
 * in one run, (1) on the twins (HARNESS_TARGET=twin), (2) replayed from the
 * shipped recordings (HARNESS_TARGET=replay), and (3) recorded afresh from a
 * twin process as if it were live (HARNESS_TARGET=record, real clock) into a
 * temporary directory. Prints wall time, tests passed and the ratios. A
 * benchmark, not a test: it asserts nothing.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { processEnv } from '../src/config/env.ts';

interface Run {
  name: string;
  seconds: number;
  passed: number;
  skipped: number;
  failed: number;
}

function tally(runName: string): { passed: number; skipped: number; failed: number } {
  const report = JSON.parse(readFileSync(`reports/results/${runName}.json`, 'utf8')) as { stats: { expected: number; skipped: number; unexpected: number } };
  return { passed: report.stats.expected, skipped: report.stats.skipped, failed: report.stats.unexpected };
}

function run(name: string, command: string[], env: Record<string, string>): Run {
  const runName = `bench-${name}`;
  const started = performance.now();
  const child = spawnSync(process.execPath, command, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...processEnv(), ...env, HARNESS_RUN_NAME: runName, CI: '1' },
  });
  const seconds = (performance.now() - started) / 1000;
  if (child.status !== 0) console.error(`${name}: exited ${child.status}`);
  return { name, seconds, ...tally(runName) };
}

const suites = ['node_modules/@playwright/test/cli.js', 'test', '--project=store', '--project=media', '--no-deps'];
const runs = [
  run('twins', suites, { HARNESS_TARGET: 'twin' }),
  run('replay', suites, { HARNESS_TARGET: 'replay', RECORDINGS_DIR: 'recordings' }),
  run('record', ['scripts/recordSeeds.ts', 'suites/store/', 'suites/media/'], {
    RECORDINGS_DIR: mkdtempSync(join(tmpdir(), 'bench-recordings-')),
    HARNESS_RUN_NAME: 'bench-record',
  }),
];

const twins = runs[0]!.seconds;
console.log('| run | wall time | passed | skipped | failed | vs twins |');
console.log('|---|---|---|---|---|---|');
for (const r of runs) console.log(`| ${r.name} | ${r.seconds.toFixed(1)} s | ${r.passed} | ${r.skipped} | ${r.failed} | ×${(r.seconds / twins).toFixed(2)} |`);
console.log('\nThe twins run every rule (twin-only ones too); replay and record run the live-capable tests only.');
