/**
 * Each sandbox's pacts in order, the sandboxes side by side, one verdict per interaction through verifyListed.ts:
 * in the run's own process (runPactPlan.ts), or in a lane's (this module as its entry: laneProcess.ts starts it). A
 * lane loads only this and Pact's core, not the reports: the run that started it writes those from what it sends
 * (verifyInLanes.ts).
 */
import { setProcessVariable } from '../../src/config/env.ts';
import { InteractionRecord, type Verdict } from './interactionRecord.ts';
import { outsideDeclarations } from './outsideDeclared.ts';
import { readPlan, type OutsidePact } from './outsidePacts.ts';
import { descriptions, readPact, type PactDocument } from './pactFile.ts';
import { verifyListed, type Declared } from './verifyListed.ts';
import { LANE_ARGUMENT } from './laneProcess.ts';

/** Sandboxes a lane verifies, each its pacts (by their place in the plan) in order. */
export interface Lane {
  readonly run: string;
  /** Variables to set before it verifies: the run's shared files (the live ledger, the declared outages). */
  readonly env: Readonly<Record<string, string>>;
  readonly sandboxes: readonly { readonly sandbox: string; readonly pacts: readonly number[] }[];
}

/** What a lane tells the run: each verdict as it comes (the record's findings, sent as data), each sandbox's end, its own end. */
export type LaneMessage =
  | ({ readonly type: 'verdict'; readonly sandbox: string; readonly n: number } & Omit<Verdict, 'pact' | 'record'> &
      Pick<InteractionRecord, 'annotations' | 'attachments'>)
  | { readonly type: 'sandbox-done'; readonly sandbox: string; readonly seconds: number }
  | { readonly type: 'done' };

/**
 * Each sandbox's pacts in order, the sandboxes side by side, every verdict and each sandbox's end told to `found`.
 * Each pact file is read once (`read`): a plan's pacts are not written while it runs.
 */
export async function verifySandboxes(
  sandboxes: Lane['sandboxes'],
  entryOf: (n: number) => { pact: OutsidePact; declared: Declared; read: PactDocument },
  run: string,
  found: { verdict(verdict: Verdict, sandbox: string, n: number): void; done(sandbox: string, seconds: number): void },
): Promise<void> {
  await Promise.all(
    sandboxes.map(async ({ sandbox, pacts }) => {
      const started = performance.now();
      for (const n of pacts) {
        const { pact, declared, read } = entryOf(n);
        for (const description of descriptions(read)) found.verdict(await verifyOne(declared, pact, read, description, run), sandbox, n);
      }
      found.done(sandbox, (performance.now() - started) / 1000);
    }),
  );
}

/** One interaction through verifyListed.ts: a thrown failure becomes a failed verdict with its message. */
async function verifyOne(declared: Declared, pact: OutsidePact, read: PactDocument, description: string, run: string): Promise<Verdict> {
  const record = new InteractionRecord(run, pact, description);
  const start = Date.now();
  try {
    const outcome = await verifyListed(declared, description, record, read);
    const skipped = outcome.status === 'skipped' ? { status: 'skipped' as const, text: outcome.reason } : { status: 'passed' as const };
    return { pact, description, ...skipped, start, stop: Date.now(), record };
  } catch (error) {
    return { pact, description, status: 'failed', text: error instanceof Error ? error.message : String(error), start, stop: Date.now(), record };
  }
}

/** In a lane's process: its sandboxes side by side, each verdict sent as it comes; `done` is the caller's. */
async function verifyLane({ run, sandboxes }: Lane, send: (message: LaneMessage) => void): Promise<void> {
  const plan = readPlan(run);
  const declare = outsideDeclarations(plan);
  const entryOf = (n: number) => {
    const pact = plan.pacts[n]!;
    const declared = declare(pact);
    return { pact, declared, read: readPact(declared.names) };
  };
  await verifySandboxes(sandboxes, entryOf, run, {
    verdict: ({ pact: _pact, record, ...verdict }, sandbox, n) =>
      send({ type: 'verdict', sandbox, n, ...verdict, annotations: record.annotations, attachments: record.attachments }),
    done: (sandbox, seconds) => send({ type: 'sandbox-done', sandbox, seconds }),
  });
}

if (import.meta.main && process.argv[2] === LANE_ARGUMENT && process.send) {
  // The run it belongs to is gone (stopped, or failed): so is its lane.
  process.once('disconnect', () => process.exit(1));
  // Started before the run knows its pacts: Pact's core (which verifyListed.ts loads on first use) loads meanwhile.
  const core = import('./verifyInteraction.ts');
  const lane = await new Promise<Lane>((resolve) => process.once('message', (message: Lane) => resolve(message)));
  await core;
  for (const [name, value] of Object.entries(lane.env)) setProcessVariable(name, value);
  await verifyLane(lane, (message) => process.send!(message));
  // Its keep-alive connections would hold it: it ends once the channel has written its last message, and those before it.
  process.send({ type: 'done' } satisfies LaneMessage, () => process.exit(0));
}
