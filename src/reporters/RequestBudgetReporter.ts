/**
 * Keeps a whole live or record run within LIVE_REQUEST_BUDGET. Adds up what
 * every test sent to the live APIs (the live-requests annotations of the store
 * and media fixtures and of the pact verification, whose Verifier requests
 * count as its API's; the properties' own budget annotations), whichever
 * worker ran it, and prints one line at the end:
 *
 *   live request budget: 812 of 2000 requests used (store 530, media 282)
 *
 * Over the budget, or when the fixtures' guard refused requests because it was
 * spent, it names the tests that used the most and fails the run. While the run
 * goes it keeps the running total in a ledger file the workers' guard reads
 * (src/testing/LiveRequestGuard.ts). Tests that ran with no count are named by
 * project, so the figure never claims more than it covers. The twins and
 * replays cost nothing: there it prints nothing.
 */
import { appendFileSync } from 'node:fs';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { harnessConfig } from '../config/harnessConfig.ts';
import { budgetSummary, liveRequestsOf, NO_REQUESTS, type LiveRequestCount } from '../testing/liveRequestCount.ts';
import { LEDGER_VARIABLE } from '../testing/LiveRequestGuard.ts';
import { processEnv } from '../config/env.ts';
import { shareWithWorkers, type RunSharedFile } from './runSharedFile.ts';

/** What a property spent, from its `budget` annotation (properties/support/liveBudget.ts, budgetAnnotation). */
const PROPERTY_BUDGET = /^(\d+) of \d+ requests \(LIVE_RATE_BUDGET\)/;

/** How many of the heaviest tests an over-budget run names. */
const HEAVIEST = 5;

/** A test's or the run's spending: the fixtures' count plus what the properties counted themselves. */
type Spending = { -readonly [K in keyof LiveRequestCount]: number } & { properties: number };

export interface RequestBudgetOptions {
  /** LIVE_REQUEST_BUDGET; undefined on the twins and replays (default: the harness configuration). */
  budget?: number | undefined;
  log?: (message: string) => void;
  /** Where the workers will find the ledger's name (default the process environment, which they inherit). */
  workerEnv?: Record<string, string | undefined>;
}

export default class RequestBudgetReporter implements Reporter {
  readonly #budget: number | undefined;
  readonly #log: (message: string) => void;
  readonly #byTest = new Map<string, number>();
  readonly #uncounted = new Map<string, number>();
  readonly #total: Spending = { ...NO_REQUESTS, properties: 0 };
  readonly #workerEnv: Record<string, string | undefined>;
  #ledger: RunSharedFile | undefined;

  constructor(options: RequestBudgetOptions = {}) {
    this.#budget = 'budget' in options ? options.budget : harnessConfig().liveRequestBudget;
    this.#log = options.log ?? ((message) => console.error(message));
    this.#workerEnv = options.workerEnv ?? processEnv();
  }

  onBegin(): void {
    if (this.#budget === undefined) return;
    // Called before the first worker starts; workers inherit this process's environment.
    this.#ledger = shareWithWorkers('live-requests', LEDGER_VARIABLE, this.#workerEnv);
  }

  printsToStdio(): boolean {
    return false;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    if (this.#budget === undefined) return;
    const spent = spendingOf(result.annotations);
    const project = test.parent.project()?.name ?? '';
    if (!spent) {
      if (result.status !== 'skipped') this.#uncounted.set(project, (this.#uncounted.get(project) ?? 0) + 1);
      return;
    }
    const sent = spent.store + spent.media + spent.properties;
    for (const key of ['store', 'media', 'refused', 'properties'] as const) this.#total[key] += spent[key];
    const title = test.titlePath().filter(Boolean).join(' › ');
    this.#byTest.set(title, (this.#byTest.get(title) ?? 0) + sent);
    if (this.#ledger) appendFileSync(this.#ledger.path, `${sent}\n`);
  }

  async onEnd(_result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    const budget = this.#budget;
    if (budget === undefined) return undefined;
    this.#ledger?.remove();
    const { line, over } = budgetSummary(this.#total, budget);
    this.#log(line);
    if (this.#uncounted.size > 0) {
      const projects = [...this.#uncounted].map(([project, n]) => `${project} ${n}`).join(', ');
      this.#log(
        `  not counted: tests that ran with no count of their own (${projects}); requests sent other than through the store and media fixtures' clients and Pact's Verifier are not in the figure above`,
      );
    }
    if (!over) return undefined;
    const heaviest = [...this.#byTest]
      .filter(([, n]) => n > 0)
      .sort((a, b) => b[1] - a[1])
      .slice(0, HEAVIEST)
      .map(([title, n]) => `  ${String(n).padStart(6)}  ${title}`);
    this.#log(
      [
        `live request budget exceeded: ${over}. The tests that used the most:`,
        ...heaviest,
        'Fix: make these tests send fewer requests, or raise LIVE_REQUEST_BUDGET if the run really needs more.',
      ].join('\n'),
    );
    return { status: 'failed' };
  }
}

/** A test's spending: the fixtures' live-requests annotations and a property's budget annotation. */
function spendingOf(annotations: TestResult['annotations']): Spending | undefined {
  const fixtures = liveRequestsOf(annotations);
  const property = annotations.map((a) => (a.type === 'budget' ? PROPERTY_BUDGET.exec(a.description ?? '') : null)).find(Boolean);
  if (!fixtures && !property) return undefined;
  return { ...(fixtures ?? NO_REQUESTS), properties: property ? Number(property[1]) : 0 };
}
