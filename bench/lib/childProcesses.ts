/**
 * The benches' child processes. Every server under test runs in a process of
 * its own, so it never shares an event loop with the load generator (this
 * process). Every child started here is stopped when the bench ends, fails or
 * is interrupted: each bench stops its children in `finally`, and an exit,
 * Ctrl+C or SIGTERM of this process stops whatever is left.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ChildMessage } from './childMessages.ts';
import { processEnv } from '../../src/config/env.ts';

/** The child entries of this folder, wherever the bench is started from. */
export const CHILD_ENTRIES = {
  twin: fileURLToPath(new URL('./twinChild.ts', import.meta.url)),
  replay: fileURLToPath(new URL('./replayChild.ts', import.meta.url)),
  sandboxTwin: fileURLToPath(new URL('./sandboxTwinChild.ts', import.meta.url)),
} as const;

const running = new Set<ChildProcess>();
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;

process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => {
    console.error(`\n[bench] ${signal}: stopping ${running.size} child process(es)`);
    process.exit(code);
  });
}

function track(child: ChildProcess): ChildProcess {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

export interface ForkedServer {
  readonly child: ChildProcess;
  /** `http://127.0.0.1:{port}`, as the child reported it. */
  readonly url: string;
}

export interface ForkOptions {
  /** Handed to the child over IPC before it starts (replayChild.ts: the captured answers). */
  readonly init?: unknown;
  /** Starts the child with --expose-gc, so it can measure what it retains. */
  readonly exposeGc?: boolean;
}

/**
 * Forks a bench child entry (bench/lib/*Child.ts), hands it `init` over IPC if
 * given, and resolves once it reports the URL it listens on.
 */
export function forkServer(entry: string, args: readonly string[] = [], { init, exposeGc = false }: ForkOptions = {}): Promise<ForkedServer> {
  const execArgv = exposeGc ? [...process.execArgv, '--expose-gc'] : process.execArgv;
  const child = track(fork(entry, [...args], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv }));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${entry} did not report ready within ${READY_TIMEOUT_MS / 1000} s`)), READY_TIMEOUT_MS);
    const onMessage = (message: ChildMessage): void => {
      if (message.type !== 'ready') return;
      cleanUp();
      resolve({ child, url: message.url });
    };
    const onExit = (code: number | null): void => fail(new Error(`${entry} exited (${code}) before it was ready`));
    function cleanUp(): void {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    }
    function fail(error: Error): void {
      cleanUp();
      child.kill('SIGKILL');
      reject(error);
    }
    child.on('message', onMessage);
    child.once('exit', onExit);
    if (init !== undefined) child.send(init as object);
  });
}

/** Spawns a program (Prism) as a tracked child; its output is dropped unless it fails to start. */
export function spawnServer(command: string, args: readonly string[], env: Record<string, string>): ChildProcess {
  return track(spawn(command, [...args], { env: { ...processEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] }));
}

/** SIGTERM, then SIGKILL if the child is still there after a few seconds. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
