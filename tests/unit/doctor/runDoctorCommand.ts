/**
 * Runs `npm run doctor`'s script (scripts/doctor.ts) as a child process with
 * exactly the variables given: nothing of the test run's own environment
 * reaches it, so each test's setup is the whole setup.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { loadConfig } from '../../../src/config/harnessConfig.ts';
import { formatChecklist } from '../../../src/doctor/formatChecklist.ts';
import { runDoctor } from '../../../src/doctor/runDoctor.ts';

const ROOT = resolve(import.meta.dirname, '../../..');

export interface DoctorRun {
  /** The exit code: 0 a live run could succeed, 1 it could not, 2 the configuration is refused. */
  readonly status: number | null;
  /** stdout and stderr together. */
  readonly output: string;
}

export function runDoctorCommand(env: Record<string, string>, timeoutMs = 20_000): Promise<DoctorRun> {
  return new Promise((done, fail) => {
    // Async, not spawnSync: a scripted server in this process must be able to answer the doctor.
    const child = spawn(process.execPath, ['scripts/doctor.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      child.kill();
      fail(new Error(`npm run doctor did not finish within ${timeoutMs} ms; it printed:\n${output}`));
    }, timeoutMs);
    child.on('error', fail);
    child.on('close', (status) => {
      clearTimeout(timer);
      done({ status, output });
    });
  });
}

/**
 * What scripts/doctor.ts does, in this process, with exactly the variables given: the checks and
 * the checklist without a Node start per case (a second of CPU each). One test runs the command.
 */
export async function runDoctorInProcess(env: Record<string, string>): Promise<DoctorRun> {
  const report = await runDoctor(() => loadConfig(env));
  return { status: report.exitCode, output: formatChecklist(report) };
}
