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
import { admitOutsideDispatcher } from '../http/outsideAdmission.ts';
import type { Admit } from '../http/interceptors/admission.ts';
import { requestStack } from '../http/requestStack.ts';
import { outage as outageWatch } from '../http/interceptors/outage.ts';
import { OUTAGE_FILE_VARIABLE, ProviderOutages, UNREACHABLE_REFUSED_CODE, type Outage } from '../http/providerOutage.ts';
import { harnessConfig } from '../config/harnessConfig.ts';
import { variable } from '../config/env.ts';

export type LiveApi = 'store' | 'media';

/** Environment variable naming the run's ledger: one line per finished test, the requests it sent. */
export const LEDGER_VARIABLE = 'HARNESS_LIVE_REQUEST_LEDGER';

/** The network error code of a refused request: not retryable, and not counted as sent. */
export const BUDGET_SPENT_CODE = 'HARNESS_LIVE_BUDGET_SPENT';
/** The network error code of a write refused because the API's write flag is off: not retryable, never sent. */
export const WRITE_REFUSED_CODE = 'HARNESS_LIVE_WRITE_REFUSED';

/** The variable that allows writes to each API on live. */
export const WRITE_FLAGS: Readonly<Record<LiveApi, string>> = { store: 'STORE_ALLOW_WRITES', media: 'KITSU_ALLOW_WRITES' };

/** Methods that cannot create, change or delete anything. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isWriteMethod(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

export class LiveWriteRefusedError extends Error {
  readonly code = WRITE_REFUSED_CODE;

  constructor(api: LiveApi, request: string) {
    super(
      `live write guard: ${request} refused before it left: it can create, change or delete on the live ${api} API, and ${WRITE_FLAGS[api]} is not 1. ` +
        `Fix: a test or pact interaction that writes must be skipped without ${WRITE_FLAGS[api]} (mark its rule \`writes: true\`); set ${WRITE_FLAGS[api]}=1 only for a sandbox.`,
    );
    this.name = 'LiveWriteRefusedError';
  }
}

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
  /** Writes refused because the API's write flag is off: the test that sent them fails, even if it caught the error. */
  readonly writesRefused: readonly string[];
  readonly runSpent: number;
}

export class LiveRequestGuard {
  readonly budget: number;
  readonly #ledger: string | undefined;
  readonly #unreported: Record<LiveApi, number> = { store: 0, media: 0 };
  readonly #refused: Record<LiveApi, string[]> = { store: [], media: [] };
  readonly #writesRefused: Record<LiveApi, string[]> = { store: [], media: [] };
  readonly #stacks = new WeakMap<Dispatcher, Partial<Record<LiveApi, Dispatcher>>>();
  /** The outage each API's requests met since its last report (src/http/providerOutage.ts). */
  readonly #unreachable: Record<LiveApi, Outage | undefined> = { store: undefined, media: undefined };
  /** Without a ledger: what this worker reported before. */
  #reportedHere = 0;
  #cleaning = 0;

  /** Whether each API's write flag is on; without it no POST, PUT, PATCH or DELETE leaves, whoever sends it. */
  readonly writes: Readonly<Record<LiveApi, boolean>>;

  /**
   * The providers this worker found unreachable, and those other processes of the run did (an outage, not a verdict):
   * the worker's guard of a live or record run has one (liveRequestGuard); without it no request is watched.
   */
  readonly outages: ProviderOutages | undefined;

  constructor(budget: number, ledger?: string, writes: Readonly<Record<LiveApi, boolean>> = { store: false, media: false }, outages?: ProviderOutages) {
    this.budget = budget;
    this.#ledger = ledger;
    this.writes = writes;
    this.outages = outages;
  }

  /**
   * The outage watch of `api`'s requests, an undici interceptor (src/http/interceptors/outage.ts): on the stack of
   * `dispatcher`, and on what forwards Pact's Verifier's requests. Each attempt it sends again is counted.
   */
  outageInterceptor(api: LiveApi): Dispatcher.DispatcherComposeInterceptor | undefined {
    if (!this.outages) return undefined;
    return outageWatch({
      watch: this.outages,
      api,
      onUnreachable: (met) => void (this.#unreachable[api] ??= met),
      onResend: () => void (this.#unreported[api] += 1),
    });
  }

  /** The outage `api`'s requests met since its last report: the running test could not verify what it sent them for. */
  unreachable(api: LiveApi): Outage | undefined {
    return this.#unreachable[api];
  }

  /** The outage declared in this run for the origin of `url`, if any: a test of it is not verified before it starts. */
  outageAt(url: string): Outage | undefined {
    return this.outages?.declared(url);
  }

  /** Requests the run has sent: finished tests (the ledger) and what this worker has not reported yet. */
  spent(): number {
    const before = this.#ledger ? ledgerTotal(this.#ledger) : this.#reportedHere;
    return before + this.#unreported.store + this.#unreported.media;
  }

  /**
   * The interceptor stack of `api` (src/http/requestStack.ts) on `base`: the write guard, then the
   * request budget, each an undici interceptor, so every request a client sends on it asks both before
   * it leaves, the PUT without Content-Length included (the stack's base sends it). Pact's Verifier, which
   * sends from its own core, asks the same stack through `admitOutsideDispatcher`. Under the guards, the outage
   * watch (outageInterceptor) sees each attempt on the wire. One stack per API and base.
   */
  dispatcher(api: LiveApi, base: Dispatcher = getGlobalDispatcher()): Dispatcher {
    let stacks = this.#stacks.get(base);
    if (!stacks) this.#stacks.set(base, (stacks = {}));
    const request = (method: string, path: string) => `${method} ${path.split('?')[0]}`;
    const writeGuard: Admit = (method, path) => this.#admitWrite(api, request(method, path), method);
    const requestBudget: Admit = (method, path) => this.#admitBudget(api, request(method, path));
    return (stacks[api] ??= requestStack([writeGuard, requestBudget], base, this.outageInterceptor(api)));
  }

  /** What a typed client of `api` needs to be counted and refused by this guard. */
  clientOptions(api: LiveApi): { dispatcher: Dispatcher; onExchange: (exchange: Exchange) => void } {
    return { dispatcher: this.dispatcher(api), onExchange: (exchange) => this.sent(api, exchange) };
  }

  /**
   * Throws LiveWriteRefusedError for a write while `api`'s write flag is off (clean-up included: a run
   * without the flag created nothing to clean up), and LiveBudgetSpentError when the budget is spent,
   * unless a clean-up is running.
   */
  admit(api: LiveApi, request: string, method = request.split(' ')[0] ?? 'GET'): void {
    this.#admitWrite(api, request, method);
    this.#admitBudget(api, request);
  }

  #admitWrite(api: LiveApi, request: string, method: string): void {
    if (isWriteMethod(method) && !this.writes[api]) {
      this.#writesRefused[api].push(request);
      throw new LiveWriteRefusedError(api, request);
    }
  }

  #admitBudget(api: LiveApi, request: string): void {
    const spent = this.spent();
    if (this.#cleaning > 0 || spent < this.budget) return;
    this.#refused[api].push(request);
    throw new LiveBudgetSpentError(this.budget, spent, request);
  }

  /**
   * Admits and counts one request sent outside the typed clients (Pact's Verifier's, `"GET /path (who)"`):
   * it asks `api`'s stack, as the requests of the clients do; a refused one throws and is not counted.
   */
  take(api: LiveApi, request: string): void {
    const [method = 'GET', ...path] = request.split(' ');
    admitOutsideDispatcher(this.dispatcher(api), method, path.join(' '));
    this.#unreported[api] += 1;
  }

  /** Counts one attempt a client reported, unless the guard refused it (it never left). */
  sent(api: LiveApi, exchange: Exchange): void {
    const code = exchange.error?.code;
    if (code !== BUDGET_SPENT_CODE && code !== WRITE_REFUSED_CODE && code !== UNREACHABLE_REFUSED_CODE) this.#unreported[api] += 1;
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
    const report = { sent: this.#unreported[api], refused: this.#refused[api], writesRefused: this.#writesRefused[api], runSpent: this.spent() };
    this.#reportedHere += report.sent;
    this.#unreported[api] = 0;
    this.#refused[api] = [];
    this.#writesRefused[api] = [];
    this.#unreachable[api] = undefined;
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

/** The refusal a test that was refused requests fails with, after its clean-up; undefined when nothing was refused. */
export function refusalError(guard: LiveRequestGuard, api: LiveApi, report: GuardReport): Error | undefined {
  if (report.writesRefused.length > 0) {
    const more = report.writesRefused.length > 1 ? ` and ${report.writesRefused.length - 1} more` : '';
    return new LiveWriteRefusedError(api, `${report.writesRefused[0]}${more}`);
  }
  if (report.refused.length === 0) return undefined;
  return new LiveBudgetSpentError(guard.budget, report.runSpent, `${report.refused.length} ${api} request(s) of this test (first: ${report.refused[0]})`);
}

let shared: LiveRequestGuard | undefined;
let installed: LiveRequestGuard | undefined;

/** The worker's guard on live and record targets; undefined on the twins and replays, which cost nothing. */
export function liveRequestGuard(): LiveRequestGuard | undefined {
  if (installed) return installed;
  const config = harnessConfig();
  const budget = config.liveRequestBudget;
  if (budget === undefined) return undefined;
  shared ??= new LiveRequestGuard(
    budget,
    variable(LEDGER_VARIABLE) || undefined,
    { store: config.store.allowWrites, media: config.media.allowWrites },
    new ProviderOutages({ shared: variable(OUTAGE_FILE_VARIABLE) || undefined }),
  );
  return shared;
}

/**
 * Makes `guard` the guard of every client this process makes, the twins' too, whatever the target,
 * until called with undefined: for a unit test that shows which senders pass it
 * (tests/unit/http/senders.test.ts).
 */
export function installLiveRequestGuard(guard: LiveRequestGuard | undefined): void {
  installed = guard;
}

/** The guard installLiveRequestGuard installed, if any. */
export function installedLiveRequestGuard(): LiveRequestGuard | undefined {
  return installed;
}
