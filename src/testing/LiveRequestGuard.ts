/**
 * Keeps a live run within LIVE_REQUEST_BUDGET while it runs, instead of only
 * saying so at the end. One guard per worker process, shared by the store and
 * media fixtures and by Pact's Verifier (its request filter, which sees what
 * the typed clients do not). The RequestBudgetReporter (main process) appends
 * what every finished test sent to a ledger file it names in
 * HARNESS_LIVE_REQUEST_LEDGER, so workers of other projects, and the worker
 * Playwright starts again after a failed test, see the whole run's spending;
 * without that reporter a worker sees only what it sent itself. Once the run
 * has spent its budget the next request is refused before it leaves, and the
 * test fails saying why.
 * Clean-up is never refused: deleting what a test made keeps the live
 * service as it was. The ledger learns of a test when it ends, so another
 * worker's running test is not in it yet: with two workers the guard can let
 * that much past; the reporter's total at the end is exact and fails the run.
 */
import { readFileSync } from 'node:fs';
import { getGlobalDispatcher, type Dispatcher } from 'undici';
import type { Exchange } from '../http/Exchange.ts';
import { harnessConfig } from '../config/harnessConfig.ts';

export type LiveApi = 'store' | 'media';

/** Environment variable naming the run's ledger: one line per finished test, the requests it sent. */
export const LEDGER_VARIABLE = 'HARNESS_LIVE_REQUEST_LEDGER';

/** The network error code of a refused request: not retryable, and not counted as sent. */
export const BUDGET_SPENT_CODE = 'HARNESS_LIVE_BUDGET_SPENT';

export class LiveBudgetSpentError extends Error {
  readonly code = BUDGET_SPENT_CODE;

  constructor(budget: number, spent: number, request: string) {
    super(
      `live request budget: ${request} refused, the run has sent ${spent} of its ${budget} requests (LIVE_REQUEST_BUDGET). ` +
        'Fix: find the tests that use the most in the run summary, or raise LIVE_REQUEST_BUDGET if the run really needs more.',
    );
    this.name = 'LiveBudgetSpentError';
  }
}

/** What one fixture's API sent during a test, the requests the guard refused it, and the run's spending then. */
export interface GuardReport {
  readonly sent: number;
  readonly refused: readonly string[];
  readonly runSpent: number;
}

export class LiveRequestGuard {
  readonly budget: number;
  readonly #ledger: string | undefined;
  readonly #unreported: Record<LiveApi, number> = { store: 0, media: 0 };
  readonly #refused: Record<LiveApi, string[]> = { store: [], media: [] };
  /** Without a ledger: what this worker reported before. */
  #reportedHere = 0;
  #cleaning = 0;

  constructor(budget: number, ledger?: string) {
    this.budget = budget;
    this.#ledger = ledger;
  }

  /** Requests the run has sent: finished tests (the ledger) and what this worker has not reported yet. */
  spent(): number {
    const before = this.#ledger ? ledgerTotal(this.#ledger) : this.#reportedHere;
    return before + this.#unreported.store + this.#unreported.media;
  }

  /** A dispatcher for `api`'s client that asks the guard before each request leaves. */
  dispatcher(api: LiveApi, base: Dispatcher = getGlobalDispatcher()): Dispatcher {
    return base.compose((dispatch) => (options, handler) => {
      this.admit(api, `${options.method} ${options.path.split('?')[0]}`);
      return dispatch(options, handler);
    });
  }

  /** What a typed client of `api` needs to be counted and refused by this guard. */
  clientOptions(api: LiveApi): { dispatcher: Dispatcher; onExchange: (exchange: Exchange) => void } {
    return { dispatcher: this.dispatcher(api), onExchange: (exchange) => this.sent(api, exchange) };
  }

  /** Throws LiveBudgetSpentError when the budget is spent, unless a clean-up is running. */
  admit(api: LiveApi, request: string): void {
    const spent = this.spent();
    if (this.#cleaning > 0 || spent < this.budget) return;
    this.#refused[api].push(request);
    throw new LiveBudgetSpentError(this.budget, spent, request);
  }

  /** Admits and counts one request sent outside the typed clients (Pact's Verifier); a refused one throws and is not counted. */
  take(api: LiveApi, request: string): void {
    this.admit(api, request);
    this.#unreported[api] += 1;
  }

  /** Counts one attempt a client reported, unless the guard refused it (it never left). */
  sent(api: LiveApi, exchange: Exchange): void {
    if (exchange.error?.code !== BUDGET_SPENT_CODE) this.#unreported[api] += 1;
  }

  /** Runs a clean-up, whose requests are counted but never refused. */
  async cleaningUp(cleanUp: () => Promise<void>): Promise<void> {
    this.#cleaning += 1;
    try {
      await cleanUp();
    } finally {
      this.#cleaning -= 1;
    }
  }

  /**
   * What `api` sent since its last report (the worker's own setup requests
   * land on its first test) and what was refused; the test's annotation
   * carries it to the reporter, which adds it to the ledger.
   */
  report(api: LiveApi): GuardReport {
    const report = { sent: this.#unreported[api], refused: this.#refused[api], runSpent: this.spent() };
    this.#reportedHere += report.sent;
    this.#unreported[api] = 0;
    this.#refused[api] = [];
    return report;
  }
}

function ledgerTotal(file: string): number {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return 0; // nothing finished yet
  }
  return text.split('\n').reduce((sum, line) => sum + (Number(line) || 0), 0);
}

/** The refusal a test that was refused requests fails with, after its clean-up. */
export function refusalError(guard: LiveRequestGuard, api: LiveApi, report: GuardReport): Error {
  return new LiveBudgetSpentError(guard.budget, report.runSpent, `${report.refused.length} ${api} request(s) of this test (first: ${report.refused[0]})`);
}

let shared: LiveRequestGuard | undefined;

/** The worker's guard on live and record targets; undefined on the twins and replays, which cost nothing. */
export function liveRequestGuard(): LiveRequestGuard | undefined {
  const budget = harnessConfig().liveRequestBudget;
  if (budget === undefined) return undefined;
  shared ??= new LiveRequestGuard(budget, process.env[LEDGER_VARIABLE] || undefined);
  return shared;
}
