/**
 * The gate bench's ledger of Node processes (bench/lib/processLedger.ts): each
 * process counts under the gate run it was started for, whatever its own run
 * name, and as a runner, a worker or another process by what it runs.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { processEnv } from '../../../src/config/env.ts';
import { GATE_SCRIPT_GROUP, ledgerEnv, processesByRun } from '../../../bench/lib/processLedger.ts';

const RUNNER = '/repo/node_modules/@playwright/test/cli.js';
const WORKER = '/repo/node_modules/playwright/lib/worker/workerProcessEntry.js';

function ledger(lines: { pid: number; ppid: number; cpu: number; run: string; argv: string }[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-'));
  for (const line of lines) writeFileSync(join(dir, `${line.pid}.jsonl`), `${JSON.stringify(line)}\n`);
  return dir;
}

test("a test's sub-run and the twin it starts count under the run whose test started them; the gate script's twins under the script", () => {
  const dir = ledger([
    { pid: 1, ppid: 0, cpu: 3, run: '', argv: '/repo/scripts/gate.ts' },
    { pid: 2, ppid: 1, cpu: 1, run: '', argv: '/repo/src/twins/main.ts' },
    { pid: 10, ppid: 1, cpu: 2, run: 'gate-unit', argv: RUNNER },
    { pid: 11, ppid: 10, cpu: 5, run: 'gate-unit', argv: WORKER },
    // A unit test's live sub-run names itself; its runner, worker and twin still belong to gate-unit.
    { pid: 12, ppid: 11, cpu: 0.5, run: 'writes-off-self-test', argv: '/repo/node_modules/.bin/playwright' },
    { pid: 13, ppid: 12, cpu: 1.5, run: 'writes-off-self-test', argv: WORKER },
    { pid: 14, ppid: 11, cpu: 0.25, run: 'gate-unit', argv: '/repo/src/twins/main.ts' },
    { pid: 20, ppid: 1, cpu: 2, run: 'gate-replay', argv: RUNNER },
    { pid: 21, ppid: 20, cpu: 4, run: 'gate-replay', argv: WORKER },
  ]);
  expect(processesByRun(dir, ['gate-unit', 'gate-twins', 'gate-replay'])).toEqual([
    // What the unit test started (its sub-run's runner and worker, its twin) apart from the run's own runner and worker.
    { group: 'gate-unit', runners: 2, workers: 2, others: 1, cpu: 9.25, byTests: 2.25 },
    { group: 'gate-replay', runners: 1, workers: 1, others: 0, cpu: 6, byTests: 0 },
    { group: GATE_SCRIPT_GROUP, runners: 0, workers: 0, others: 2, cpu: 4, byTests: 0 },
  ]);
});

test('the environment adds the hook to NODE_OPTIONS without dropping what was there, and a Node started with it writes its line', () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'ledger-')), 'processes');
  const env = ledgerEnv(dir, { NODE_OPTIONS: '--max-old-space-size=4096' });
  expect(env.NODE_OPTIONS).toMatch(/^--max-old-space-size=4096 --import=file:\/\/.*\/bench\/lib\/processLedger\.mjs$/);
  expect(env.GATE_PROCESS_LEDGER).toBe(dir);
  expect(processesByRun(dir, ['gate-unit'])).toEqual([]);

  const child = spawnSync(process.execPath, ['-e', 'for (let i = 0; i < 1e6; i++);'], { env: { ...processEnv(), ...env, HARNESS_RUN_NAME: 'gate-unit' } });
  expect(child.status, child.stderr.toString()).toBe(0);
  const [row] = processesByRun(dir, ['gate-unit']);
  expect(row).toMatchObject({ group: 'gate-unit', runners: 0, workers: 0, others: 1, byTests: 0 });
  expect(row!.cpu).toBeGreaterThan(0);
});
