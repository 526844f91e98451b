/**
 * Where a measured gate's CPU went: every Node process it started writes one
 * line at exit (processLedger.mjs, loaded through NODE_OPTIONS), and this reads
 * them back per gate run and per kind of process. Process starts are the
 * gate's main cost on two cores (a Playwright worker's start is about half a
 * second of CPU), and unlike CPU seconds their count does not move with the
 * VM's speed, so two commits' counts compare even when their CPU cannot.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

interface LedgerLine {
  pid: number;
  ppid: number;
  cpu: number;
  run: string;
  argv: string;
}

export interface RunProcesses {
  /** A gate run's name, or the gate script itself with the twin processes it starts for the recording. */
  readonly group: string;
  /** Playwright runners: the run's own and its tests' sub-runs. */
  readonly runners: number;
  readonly workers: number;
  /** Other Node processes: twins, scripts the tests start, tools. */
  readonly others: number;
  readonly cpu: number;
  /**
   * Of `cpu`, what the run's tests started (a sub-run's runner and workers, a twin, a tool): the rest is the run's own
   * runner and workers, the floor of what the run costs whatever its self-tests do.
   */
  readonly byTests: number;
}

export const GATE_SCRIPT_GROUP = 'gate script and its twins';

/** The environment that makes every Node process of a run write its line into `dir` (emptied first). */
export function ledgerEnv(dir: string, env: NodeJS.ProcessEnv): Record<string, string> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const hook = `--import=${pathToFileURL(resolve(import.meta.dirname, 'processLedger.mjs')).href}`;
  return { NODE_OPTIONS: [env.NODE_OPTIONS, hook].filter(Boolean).join(' '), GATE_PROCESS_LEDGER: resolve(dir) };
}

function readLines(dir: string): LedgerLine[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) =>
      readFileSync(join(dir, name), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as LedgerLine),
    );
}

/**
 * Each process counted under the gate run it was started for: its own run name when it is one of `runs`,
 * else its nearest ancestor's (a test's sub-run names itself, and belongs to the run whose test started it).
 */
export function processesByRun(dir: string, runs: readonly string[]): RunProcesses[] {
  const lines = readLines(dir);
  const byPid = new Map(lines.map((line) => [line.pid, line]));
  const groupOf = (line: LedgerLine): string => {
    for (let at: LedgerLine | undefined = line; at; at = byPid.get(at.ppid)) if (runs.includes(at.run)) return at.run;
    return GATE_SCRIPT_GROUP;
  };
  const isWorker = (line: LedgerLine) => /workerProcessEntry\.js/.test(line.argv);
  // Started by a test: some ancestor is a Playwright worker.
  const byTest = (line: LedgerLine): boolean => {
    for (let at = byPid.get(line.ppid); at; at = byPid.get(at.ppid)) if (isWorker(at)) return true;
    return false;
  };
  const groups = new Map<string, { runners: number; workers: number; others: number; cpu: number; byTests: number }>();
  for (const line of lines) {
    const group = groupOf(line);
    const row = groups.get(group) ?? { runners: 0, workers: 0, others: 0, cpu: 0, byTests: 0 };
    groups.set(group, row);
    // By what the process runs: a test's sub-run, or a twin a test starts, inherits its worker's variables.
    if (isWorker(line)) row.workers += 1;
    else if (/playwright\/(test\/)?cli\.js$|\.bin\/playwright$/.test(line.argv)) row.runners += 1;
    else row.others += 1;
    row.cpu += line.cpu;
    if (byTest(line)) row.byTests += line.cpu;
  }
  return [...runs, GATE_SCRIPT_GROUP].filter((group) => groups.has(group)).map((group) => ({ group, ...groups.get(group)! }));
}
