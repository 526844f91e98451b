/**
 * Runs one of the harness's scripts as a process of this very Node, its two streams collected: for the checks
 * and benches that read what a command printed (scripts/verdictsCheck.ts, bench/nightlyTime.ts).
 */
import { spawn } from 'node:child_process';
import { processEnv } from '../../src/config/env.ts';

export interface ScriptRun {
  readonly code: number | null;
  /** Standard output and standard error, in the order they came. */
  readonly output: string;
  readonly seconds: number;
}

export function runScript(args: readonly string[], env: Record<string, string> = {}): Promise<ScriptRun> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { env: { ...processEnv(), ...env } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output, seconds: (performance.now() - started) / 1000 })));
}
