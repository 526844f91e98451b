/**
 * A plan of outside pacts (outsidePacts.ts: a team's --pact files, or what a broker selected) verified in one
 * process: what `npx api-contract-harness pact-verify` waits for on every pull request, so no test runner starts
 * and no worker loads the harness again (verifyPlanProcess.ts runs it; scripts/pactVerify.ts starts the twins).
 * Each interaction goes through the same steps as under Playwright (verifyListed.ts); what it found goes to the
 * console (pactVerifyConsole.ts), JUnit XML, Allure results, the outcomes a broker is sent, and the live budget line.
 * On live, several sandboxes are verified in lane processes the caller starts, one per core (verifyInLanes), this one
 * writing what they found.
 */
import type { ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { processEnv, reportPath, setProcessVariable } from '../../src/config/env.ts';
import { harnessConfig } from '../../src/config/harnessConfig.ts';
import { slug } from '../../src/recording/cassette.ts';
import { PactVerifyConsole, PROVIDER_NOTE } from '../../src/reporters/pactVerifyConsole.ts';
import { allureMetaFor } from '../../src/reporting/allureMeta.ts';
import { AllureVerdicts } from '../../src/reporting/allureVerdicts.ts';
import { writeJunitXml, type JunitCase } from '../../src/reporting/junitXml.ts';
import { LEDGER_VARIABLE, liveRequestGuard } from '../../src/testing/LiveRequestGuard.ts';
import { OUTAGE_FILE_VARIABLE } from '../../src/http/providerOutage.ts';
import { shareWithWorkers, type RunSharedFile } from '../../src/reporters/runSharedFile.ts';
import { budgetSummary, liveRequestsOf, NO_REQUESTS } from '../../src/testing/liveRequestCount.ts';
import { writeOutcome } from '../broker/verificationResults.ts';
import { outsideDeclarations } from './outsideDeclared.ts';
import { sandboxOf } from './sandboxes.ts';
import { outputLogPath, readPlan, type OutsidePact, type VerificationPlan } from './outsidePacts.ts';
import { readPact } from './pactFile.ts';
import { descriptions, verifyListed, type Declared, type VerificationRecord } from './verifyListed.ts';
import { LANE_ARGUMENT } from './laneProcess.ts';

/** One interaction's record: what verifyListed writes, kept for the reports. */
class InteractionRecord implements VerificationRecord {
  readonly annotations: { type: string; description?: string }[] = [];
  readonly attachments: { name: string; body: string; contentType: string }[] = [];
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
  }

  async attach(name: string, options: { body: string; contentType: string }): Promise<void> {
    this.attachments.push({ name, ...options });
  }

  outputPath(...segments: string[]): string {
    return join(this.#dir, ...segments);
  }

  annotation(type: string): string | undefined {
    return this.annotations.find((a) => a.type === type)?.description;
  }
}

/** One interaction's verdict and what its verification recorded. */
interface Verdict {
  readonly pact: OutsidePact;
  readonly description: string;
  readonly status: 'passed' | 'failed' | 'skipped';
  /** A failure's message or a skip's reason. */
  readonly text?: string;
  readonly start: number;
  readonly stop: number;
  readonly record: InteractionRecord;
}

/**
 * Verifies every interaction of the plan, in each file's order; 0 when each was verified or skipped with its
 * reason, 1 when one failed or the live budget was exceeded. `twinsReady` resolves once the twins the plan needs
 * answer (scripts/pactVerify.ts starts them beside this process while it loads); `print` takes the console's lines.
 */
export async function runPactPlan(
  plan: VerificationPlan,
  run: string,
  options: {
    twinsReady: Promise<unknown>;
    print?: (line: string) => void;
    /**
     * Lane processes the caller started (scripts/pactVerify.ts, which decides how many, before the plan is known):
     * given, every sandbox is verified in them, never in this process; those not wanted are stopped.
     */
    lanes?: readonly ChildProcess[];
  },
): Promise<number> {
  const lanes = options.lanes ?? [];
  try {
    return await runPlan(plan, run, options, lanes);
  } finally {
    // Whatever the plan wanted: none outlives the run waiting for sandboxes.
    for (const lane of lanes) if (lane.connected) lane.disconnect();
  }
}

async function runPlan(
  plan: VerificationPlan,
  run: string,
  options: { twinsReady: Promise<unknown>; print?: (line: string) => void },
  lanes: readonly ChildProcess[],
): Promise<number> {
  const reports = new PlanReports(run, options.print);
  const declare = outsideDeclarations(plan);
  // Listed first, as the files are now: the console says how many before the first verdict.
  const listed = plan.pacts.map((pact) => ({ pact, declared: declare(pact) }));
  const interactions = listed.map(({ declared }) => descriptions(readPact(declared.names)));
  await options.twinsReady;
  reports.begin(
    interactions.reduce((sum, of) => sum + of.length, 0),
    listed.length,
  );
  // On a live store each sandbox (a team's own app, or the harness's) has a bucket of its own: its pacts are verified
  // in order, beside the other sandboxes'; the run takes as long as its busiest bucket, not the sum of them.
  const target = harnessConfig().target;
  const bySandbox = Map.groupBy(
    listed.map((entry, n) => ({ ...entry, n })),
    ({ pact }) => (target === 'live' || target === 'record' ? sandboxOf(pact.api, pact.consumer).label : 'one'),
  );
  // Live sandboxes wait for their buckets side by side, but one process verifying them all is busy from a few on:
  // given lanes (one per core: laneProcess.ts), they run in those, and this one writes what they found. Processes, not
  // threads: Pact's core keeps state per process, and two threads verifying at once corrupt it.
  const sandboxes = [...bySandbox].map(([sandbox, group]) => ({ sandbox, pacts: group.map(({ n }) => n) }));
  if (lanes.length > 0) {
    const groups = sandboxes.map((one) => ({ ...one, interactions: one.pacts.reduce((sum, n) => sum + interactions[n]!.length, 0) }));
    await verifyInLanes(run, groups, lanes.slice(0, sandboxes.length), reports);
    return reports.end();
  }
  await verifySandboxes(sandboxes, (n) => ({ ...listed[n]!, interactions: interactions[n]! }), run, {
    verdict: (verdict, sandbox) => reports.add(verdict, sandbox),
    done: (sandbox, seconds) => reports.sandboxDone(sandbox, seconds),
  });
  return reports.end();
}

/**
 * Each sandbox's pacts in order, the sandboxes side by side, every verdict and each sandbox's end told to `found`:
 * in this process, or in a lane's (verifyLane).
 */
async function verifySandboxes(
  sandboxes: Lane['sandboxes'],
  entryOf: (n: number) => { pact: OutsidePact; declared: Declared; interactions: readonly string[] },
  run: string,
  found: { verdict(verdict: Verdict, sandbox: string, n: number): void; done(sandbox: string, seconds: number): void },
): Promise<void> {
  await Promise.all(
    sandboxes.map(async ({ sandbox, pacts }) => {
      const started = performance.now();
      for (const n of pacts) {
        const { pact, declared, interactions } = entryOf(n);
        for (const description of interactions) found.verdict(await verifyOne(declared, pact, description, run), sandbox, n);
      }
      found.done(sandbox, (performance.now() - started) / 1000);
    }),
  );
}

/** Sandboxes a lane verifies, each its pacts (by their place in the plan) in order. */
interface Lane {
  readonly run: string;
  /** Variables to set before it verifies: the run's shared files (the live ledger, the declared outages). */
  readonly env: Readonly<Record<string, string>>;
  readonly sandboxes: readonly { readonly sandbox: string; readonly pacts: readonly number[] }[];
}

/** What a lane tells this process: each verdict as it comes (the record's findings, sent as data), each sandbox's end, its own end. */
type LaneMessage =
  | ({ readonly type: 'verdict'; readonly sandbox: string; readonly n: number } & Omit<Verdict, 'pact' | 'record'> &
      Pick<InteractionRecord, 'annotations' | 'attachments'>)
  | { readonly type: 'sandbox-done'; readonly sandbox: string; readonly seconds: number }
  | { readonly type: 'done' };

/**
 * The sandboxes spread over `count` lanes, the busiest first, each to the lane with the fewest interactions so far.
 * The lanes send what each verification found; the reports are written here, in the order verdicts arrive. The run's
 * live request ledger and declared outages are files the lanes share, so the budget and an outage hold across them
 * (src/reporters/runSharedFile.ts).
 */
async function verifyInLanes(
  run: string,
  groups: readonly { sandbox: string; pacts: number[]; interactions: number }[],
  started: readonly ChildProcess[],
  reports: PlanReports,
): Promise<void> {
  const lanes = Array.from({ length: started.length }, () => ({ load: 0, sandboxes: [] as Lane['sandboxes'][number][] }));
  for (const group of [...groups].sort((a, b) => b.interactions - a.interactions)) {
    const lightest = lanes.reduce((least, lane) => (lane.load < least.load ? lane : least));
    lightest.load += group.interactions;
    lightest.sandboxes.push({ sandbox: group.sandbox, pacts: group.pacts });
  }
  const env = { ...processEnv() };
  const shared: RunSharedFile[] = [];
  if (liveRequestGuard()) {
    if (!env[LEDGER_VARIABLE]) shared.push(shareWithWorkers('live-requests', LEDGER_VARIABLE, env));
    if (!env[OUTAGE_FILE_VARIABLE]) shared.push(shareWithWorkers('provider-outages', OUTAGE_FILE_VARIABLE, env));
  }
  reports.ledger = env[LEDGER_VARIABLE];
  // The lanes were started before the files were made: each is told them with its sandboxes.
  const shares = Object.fromEntries([LEDGER_VARIABLE, OUTAGE_FILE_VARIABLE].flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
  try {
    await Promise.all(lanes.map(({ sandboxes }, i) => laneProcess({ run, sandboxes, env: shares }, started[i]!, reports)));
  } finally {
    for (const file of shared) file.remove();
  }
}

/**
 * One lane's process (this module, as its entry: laneProcess.ts starts it), given its sandboxes: its stdout and stderr
 * are this process's, so Pact's own report goes to the run's output log. Resolves once it has sent its last verdict.
 */
function laneProcess(lane: Lane, child: ChildProcess, reports: PlanReports): Promise<void> {
  const plan = readPlan(lane.run);
  let done = false;
  return new Promise((resolve, reject) => {
    // Started early, it may have stopped before it was given anything.
    if (child.exitCode !== null || child.signalCode !== null) {
      reject(new Error(`a lane of the verification stopped (${child.signalCode ?? `exit ${child.exitCode}`}) before it was given its sandboxes`));
      return;
    }
    child.on('message', (message: LaneMessage) => {
      if (message.type === 'done') {
        done = true;
        return;
      }
      if (message.type === 'sandbox-done') {
        reports.sandboxDone(message.sandbox, message.seconds);
        return;
      }
      const { sandbox, n, annotations, attachments, type: _type, ...verdict } = message;
      const pact = plan.pacts[n]!;
      const record = new InteractionRecord(reportPath('test-output', lane.run, slug(pact.title), slug(verdict.description)));
      record.annotations.push(...annotations);
      record.attachments.push(...attachments);
      reports.add({ ...verdict, pact, record }, sandbox);
    });
    child.once('error', reject);
    // Once its channel is closed too: every message it sent has been read.
    child.once('close', (code, signal) =>
      done ? resolve() : reject(new Error(`a lane of the verification stopped (${signal ?? `exit ${code}`}) before its last verdict`)),
    );
    child.send(lane);
  });
}

/** In a lane's process: its sandboxes side by side, as the run does in one process, each verdict sent as it comes; `done` is the caller's. */
async function verifyLane({ run, sandboxes }: Lane, send: (message: LaneMessage) => void): Promise<void> {
  const plan = readPlan(run);
  const declare = outsideDeclarations(plan);
  const entryOf = (n: number) => {
    const pact = plan.pacts[n]!;
    const declared = declare(pact);
    return { pact, declared, interactions: descriptions(readPact(declared.names)) };
  };
  await verifySandboxes(sandboxes, entryOf, run, {
    verdict: ({ pact: _pact, record, ...verdict }, sandbox, n) =>
      send({ type: 'verdict', sandbox, n, ...verdict, annotations: record.annotations, attachments: record.attachments }),
    done: (sandbox, seconds) => send({ type: 'sandbox-done', sandbox, seconds }),
  });
}

/** One interaction through verifyListed.ts: a thrown failure becomes a failed verdict with its message. */
async function verifyOne(declared: Declared, pact: OutsidePact, description: string, run: string): Promise<Verdict> {
  const record = new InteractionRecord(reportPath('test-output', run, slug(pact.title), slug(description)));
  const start = Date.now();
  try {
    const outcome = await verifyListed(declared, description, record);
    const skipped = outcome.status === 'skipped' ? { status: 'skipped' as const, text: outcome.reason } : { status: 'passed' as const };
    return { pact, description, ...skipped, start, stop: Date.now(), record };
  } catch (error) {
    return { pact, description, status: 'failed', text: error instanceof Error ? error.message : String(error), start, stop: Date.now(), record };
  }
}

/** Where each verdict goes: the outcomes a broker is sent, the console, JUnit XML, Allure results, the live budget. */
class PlanReports {
  readonly #run: string;
  readonly #console: PactVerifyConsole;
  readonly #allure = new AllureVerdicts(reportPath('allure-results'));
  readonly #junit: JunitCase[] = [];
  readonly #spent = { ...NO_REQUESTS };
  readonly #target = harnessConfig().target;
  /** The live request ledger the lanes' guards read (verifyInLanes), when the run has lanes. */
  ledger: string | undefined;

  constructor(run: string, print?: (line: string) => void) {
    this.#run = run;
    this.#console = new PactVerifyConsole({ outputLog: outputLogPath(run), ...(print ? { print } : {}) });
  }

  begin(interactions: number, pacts: number): void {
    this.#console.begin(interactions, pacts);
  }

  /** Per sandbox verified side by side: its counts and, once done, its wall time (the table a run of several ends with). */
  readonly #sandboxes = new Map<string, { verified: number; failed: number; skipped: number; seconds?: number }>();

  sandboxDone(sandbox: string, seconds: number): void {
    const tally = this.#sandboxes.get(sandbox);
    if (tally) tally.seconds = seconds;
  }

  add({ pact, description, status, text, start, stop, record }: Verdict, sandbox?: string): void {
    if (sandbox !== undefined) {
      const tally = this.#sandboxes.get(sandbox) ?? { verified: 0, failed: 0, skipped: 0 };
      tally[status === 'passed' ? 'verified' : status] += 1;
      this.#sandboxes.set(sandbox, tally);
    }
    const counted = liveRequestsOf(record.annotations);
    if (counted) for (const key of ['store', 'media', 'refused'] as const) this.#spent[key] += counted[key];
    // With lanes, the run's spending so far, for their guards.
    if (counted && this.ledger) appendFileSync(this.ledger, `${counted.store + counted.media}\n`);
    writeOutcome({ pact: pact.title, description, status, ...(text ? { reason: text } : {}) }, this.#run);
    const where = record.annotation('pact interaction');
    const note = record.annotation(PROVIDER_NOTE);
    this.#console.verdict({
      pact: pact.title,
      description,
      status,
      message: record.annotations.some((a) => a.type === 'pact message'),
      ...(text ? (status === 'failed' ? { failure: text } : { reason: text }) : {}),
      ...(where ? { where } : {}),
      ...(note ? { note } : {}),
    });
    this.#junit.push({ suite: pact.title, name: description, seconds: (stop - start) / 1000, status, ...(text ? { text } : {}) });
    const identity = { project: 'contracts-outside', file: `contracts/${pact.api}/${basename(pact.path)}`, title: description, ruleIds: [] };
    this.#allure.write({
      name: description,
      fullName: `${pact.title} › ${description}`,
      meta: allureMetaFor(identity, this.#target),
      status,
      ...(text ? { message: text } : {}),
      start,
      stop,
      attachments: record.attachments,
    });
  }

  /** The run's exit code, once the budget line, JUnit and the counts are written. */
  async end(): Promise<number> {
    writeJunitXml(reportPath('junit', `${this.#run}.xml`), this.#junit);
    if (this.#sandboxes.size > 1) {
      this.#console.line(`${this.#sandboxes.size} sandboxes, verified side by side, one bucket each:`);
      for (const [sandbox, t] of this.#sandboxes)
        this.#console.line(`  ${sandbox}: ${t.verified} verified, ${t.failed} failed, ${t.skipped} not verified in ${(t.seconds ?? 0).toFixed(1)} s`);
    }
    const overBudget = budgetLine(this.#spent);
    await this.#console.end();
    return this.#console.counts.failed > 0 || overBudget ? 1 : 0;
  }
}

/** On live and record: what the Verifier's requests cost, as every live run ends; true when over the budget. */
function budgetLine(spent: { store: number; media: number; refused: number }): boolean {
  const guard = liveRequestGuard();
  if (!guard) return false;
  const { line, over } = budgetSummary(spent, guard.budget);
  console.error(line);
  if (over) console.error(`live request budget exceeded: ${over}. Fix: verify fewer interactions per run, or raise LIVE_REQUEST_BUDGET.`);
  return over !== undefined;
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
