/**
 * Live sandboxes side by side in lane processes, one per core (laneProcess.ts starts them, verifySandboxes.ts is
 * their entry): this process spreads the sandboxes over them and writes what they find (planReports.ts). Processes,
 * not threads: Pact's core keeps state per process, and two threads verifying at once corrupt it. The lanes are given
 * their sandboxes before the reports load: the run's first request waits for nothing it does not need.
 */
import type { ChildProcess } from 'node:child_process';
import { processEnv } from '../../src/config/env.ts';
import { LEDGER_VARIABLE, liveRequestGuard } from '../../src/testing/LiveRequestGuard.ts';
import { OUTAGE_FILE_VARIABLE } from '../../src/http/providerOutage.ts';
import { shareWithWorkers, type RunSharedFile } from '../../src/reporters/runSharedFile.ts';
import { InteractionRecord } from './interactionRecord.ts';
import { planSandboxes, type VerificationPlan } from './outsidePacts.ts';
import type { PlanReports } from './planReports.ts';
import type { Lane, LaneMessage } from './verifySandboxes.ts';

/**
 * Verifies the plan in `started` (the lane processes pact-verify started before it knew the plan; those not wanted
 * are stopped), as runPactPlan.ts does in one process: the same reports and exit code.
 */
export async function verifyInLanes(
  plan: VerificationPlan,
  run: string,
  options: {
    started: readonly ChildProcess[];
    print?: (line: string) => void;
    /** Called once every lane has its sandboxes: what the caller does meanwhile. */
    given?: () => void;
  },
): Promise<number> {
  try {
    const { read, sandboxes } = planSandboxes(plan);
    const lanes = spread(
      sandboxes.map((one) => ({ ...one, interactions: one.pacts.reduce((sum, n) => sum + read[n]!.count, 0) })),
      Math.min(options.started.length, sandboxes.length),
    );
    const env = { ...processEnv() };
    const shared: RunSharedFile[] = [];
    // The run's live request ledger and declared outages are files the lanes share, so the budget and an outage hold
    // across them (src/reporters/runSharedFile.ts).
    if (liveRequestGuard()) {
      if (!env[LEDGER_VARIABLE]) shared.push(shareWithWorkers('live-requests', LEDGER_VARIABLE, env));
      if (!env[OUTAGE_FILE_VARIABLE]) shared.push(shareWithWorkers('provider-outages', OUTAGE_FILE_VARIABLE, env));
    }
    // The lanes were started before the files were made: each is told them with its sandboxes.
    const shares = Object.fromEntries([LEDGER_VARIABLE, OUTAGE_FILE_VARIABLE].flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
    const heard = lanes.map((sandboxes, i) => hear({ run, sandboxes, env: shares }, options.started[i]!));
    options.given?.();
    try {
      const { PlanReports } = await import('./planReports.ts');
      const reports = new PlanReports(run, options.print);
      reports.ledger = env[LEDGER_VARIABLE];
      reports.begin(
        read.reduce((sum, pact) => sum + pact.count, 0),
        plan.pacts.length,
      );
      await Promise.all(heard.map((lane) => lane.writeTo(reports, plan)));
      return await reports.end();
    } finally {
      for (const file of shared) file.remove();
    }
  } finally {
    // Whatever the plan wanted: none outlives the run waiting for sandboxes.
    for (const lane of options.started) if (lane.connected) lane.disconnect();
  }
}

/** The sandboxes spread over `count` lanes, the busiest first, each to the lane with the fewest interactions so far. */
function spread(groups: readonly { sandbox: string; pacts: readonly number[]; interactions: number }[], count: number): Lane['sandboxes'][] {
  const lanes = Array.from({ length: count }, () => ({ load: 0, sandboxes: [] as Lane['sandboxes'][number][] }));
  for (const group of [...groups].sort((a, b) => b.interactions - a.interactions)) {
    const lightest = lanes.reduce((least, lane) => (lane.load < least.load ? lane : least));
    lightest.load += group.interactions;
    lightest.sandboxes.push({ sandbox: group.sandbox, pacts: group.pacts });
  }
  return lanes.map(({ sandboxes }) => sandboxes);
}

/**
 * Gives one lane's process its sandboxes and keeps what it sends until the reports are there to write it to, in the
 * order it came. Its stdout and stderr are this process's, so Pact's own report goes to the run's output log.
 */
function hear(lane: Lane, child: ChildProcess): { writeTo(reports: PlanReports, plan: VerificationPlan): Promise<void> } {
  const heard: LaneMessage[] = [];
  let write: ((message: LaneMessage) => void) | undefined;
  const ended = new Promise<void>((resolve, reject) => {
    // Started early, it may have stopped before it was given anything.
    if (child.exitCode !== null || child.signalCode !== null) {
      reject(new Error(`a lane of the verification stopped (${child.signalCode ?? `exit ${child.exitCode}`}) before it was given its sandboxes`));
      return;
    }
    let done = false;
    child.on('message', (message: LaneMessage) => {
      if (message.type === 'done') done = true;
      else if (write) write(message);
      else heard.push(message);
    });
    child.once('error', reject);
    // Once it has exited too: every message it sent has been read, and no lane outlives the run.
    child.once('close', (code, signal) =>
      done ? resolve() : reject(new Error(`a lane of the verification stopped (${signal ?? `exit ${code}`}) before its last verdict`)),
    );
    child.send(lane);
  });
  // Heard before anything awaits it: a lane that stops early is still the run's failure, once the reports ask.
  ended.catch(() => {});
  return {
    writeTo(reports, plan) {
      write = (message) => {
        if (message.type === 'sandbox-done') {
          reports.sandboxDone(message.sandbox, message.seconds);
          return;
        }
        if (message.type !== 'verdict') return;
        const { sandbox, n, annotations, attachments, type: _type, ...verdict } = message;
        const pact = plan.pacts[n]!;
        const record = new InteractionRecord(lane.run, pact, verdict.description);
        record.annotations.push(...annotations);
        record.attachments.push(...attachments);
        reports.add({ ...verdict, pact, record }, sandbox);
      };
      for (const message of heard.splice(0)) write(message);
      return ended;
    },
  };
}
