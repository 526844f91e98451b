/**
 * A lane of a live verification: a process of its own (verifySandboxes.ts as its entry) that verifies the sandboxes it
 * is given over IPC. Kept light, so a run can start its lanes as soon as it knows it will want them: they load the
 * harness and Pact's core while the run fetches its pacts (scripts/pactVerify.ts).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { processEnv } from '../../src/config/env.ts';
import { harnessModule } from '../../src/config/harnessRoot.ts';

/** How a lane's process is started: verifySandboxes.ts, with this argument and its lane over IPC. */
export const LANE_ARGUMENT = '--verify-lane';

/** How many lanes verify `sandboxes` live sandboxes side by side: one per core, at most one per sandbox. */
export function laneCount(sandboxes: number): number {
  return Math.min(availableParallelism(), sandboxes);
}

/**
 * A lane's process, waiting for its sandboxes. Its stdout, where Pact's core prints its report, is a pipe the caller
 * writes to the run's output log; its stderr is this process's.
 */
export function startLaneProcess(env: NodeJS.ProcessEnv = processEnv()): ChildProcess {
  return fork(harnessModule('contracts/verification/verifySandboxes'), [LANE_ARGUMENT], { env, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
}
