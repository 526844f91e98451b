/**
 * A plan of outside pacts (outsidePacts.ts: a team's --pact files, or what a broker selected) verified in one
 * process: what `npx api-contract-harness pact-verify` waits for on every pull request, so no test runner starts
 * and no worker loads the harness again (verifyPlanProcess.ts runs it; scripts/pactVerify.ts starts the twins).
 * Each interaction goes through the same steps as under Playwright (verifyListed.ts); what it found goes to the
 * console (pactVerifyConsole.ts), JUnit XML, Allure results, the outcomes a broker is sent, and the live budget line.
 */
import { basename, join } from 'node:path';
import { reportPath } from '../../src/config/env.ts';
import { harnessConfig } from '../../src/config/harnessConfig.ts';
import { slug } from '../../src/recording/cassette.ts';
import { PactVerifyConsole, PROVIDER_NOTE } from '../../src/reporters/pactVerifyConsole.ts';
import { allureMetaFor } from '../../src/reporting/allureMeta.ts';
import { AllureVerdicts } from '../../src/reporting/allureVerdicts.ts';
import { writeJunitXml, type JunitCase } from '../../src/reporting/junitXml.ts';
import { liveRequestGuard } from '../../src/testing/LiveRequestGuard.ts';
import { budgetSummary, liveRequestsOf, NO_REQUESTS } from '../../src/testing/liveRequestCount.ts';
import { writeOutcome } from '../broker/verificationResults.ts';
import { outsideDeclarations } from './outsideDeclared.ts';
import { sandboxOf } from './apiTargets.ts';
import { outputLogPath, type OutsidePact, type VerificationPlan } from './outsidePacts.ts';
import { readPact } from './pactFile.ts';
import { descriptions, verifyListed, type Declared, type VerificationRecord } from './verifyListed.ts';

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
  options: { twinsReady: Promise<unknown>; print?: (line: string) => void },
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
  await Promise.all(
    [...bySandbox.entries()].map(async ([sandbox, group]) => {
      const started = performance.now();
      for (const { pact, declared, n } of group) {
        for (const description of interactions[n]!) reports.add(await verifyOne(declared, pact, description, run), sandbox);
      }
      reports.sandboxDone(sandbox, (performance.now() - started) / 1000);
    }),
  );
  return reports.end();
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
