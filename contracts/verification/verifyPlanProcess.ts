/**
 * The verification of a run's plan as a process of its own (`<node> verifyPlanProcess.js <run>`), started by
 * pact-verify (scripts/pactVerify.ts). Pact's Verifier prints its report from native code straight to the
 * process's stdout, which nothing in JavaScript can redirect; so this process's stdout is the run's output log
 * (the parent copies it there), and the lines a team reads go to the parent through the pipe on fd 3.
 * The parent starts the twins while this process loads, and says on the IPC channel when they answer and the plan is
 * written (or stops this process when it cannot have them); a broker run starts it before fetching the pacts.
 * (Live sandboxes side by side are verified in lanes the parent starts and hears itself: verifyInLanes.ts.)
 * Exit: 0 verified, 1 an interaction failed or the budget was exceeded, 3 the verification itself stopped: said on
 * the lines, and no verdict of the run stands.
 */
import { writeSync } from 'node:fs';
import type { TwinsMessage } from './twinsForPlan.ts';

const LINES_FD = 3;
/** The verification stopped before its last verdict (scripts/pactVerify.ts USAGE names it). */
const VERIFICATION_STOPPED = 3;

const run = process.argv[2];
if (!run || !process.send) {
  console.error('verifyPlanProcess: started by pact-verify only (a run name, and an IPC channel to the parent).');
  process.exitCode = 2;
} else {
  const twinsReady = new Promise<TwinsMessage>((resolve) => process.once('message', (message: TwinsMessage) => resolve(message))).finally(() =>
    process.disconnect(),
  );
  const print = (line: string) => writeSync(LINES_FD, `${line}\n`);
  try {
    const [{ readPlan }, { runPactPlan }] = await Promise.all([import('./outsidePacts.ts'), import('./runPactPlan.ts')]);
    // The plan is written once the parent says so: it may start this process while it still fetches the pacts.
    await twinsReady;
    process.exitCode = await runPactPlan(readPlan(run), run, { twinsReady, print });
  } catch (error) {
    // The harness's failure, not a team's: not exit 1, which says an interaction failed.
    print(
      `pact:verify: the verification stopped: ${error instanceof Error ? error.message : String(error)}. Run it again; nothing of this run is left for publishing.`,
    );
    process.exitCode = VERIFICATION_STOPPED;
  }
}
