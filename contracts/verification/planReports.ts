/**
 * Where a plan's verdicts go, in the order they come (runPactPlan.ts, verifyInLanes.ts): the outcomes a broker is
 * sent, the console (pactVerifyConsole.ts), JUnit XML, Allure results, and the live budget line.
 */
import { appendFileSync } from 'node:fs';
import { basename } from 'node:path';
import { reportPath } from '../../src/config/env.ts';
import { harnessConfig } from '../../src/config/harnessConfig.ts';
import { PactVerifyConsole, PROVIDER_NOTE } from '../../src/reporters/pactVerifyConsole.ts';
import { allureMetaFor } from '../../src/reporting/allureMeta.ts';
import { AllureVerdicts } from '../../src/reporting/allureVerdicts.ts';
import { writeJunitXml, type JunitCase } from '../../src/reporting/junitXml.ts';
import { liveRequestGuard } from '../../src/testing/LiveRequestGuard.ts';
import { budgetSummary, liveRequestsOf, NO_REQUESTS } from '../../src/testing/liveRequestCount.ts';
import { writeOutcome } from '../broker/verificationResults.ts';
import type { Verdict } from './interactionRecord.ts';
import { outputLogPath } from './outsidePacts.ts';

export class PlanReports {
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
