/**
 * An unreachable provider is an outage, not a verdict. On a live or record
 * run every attempt a typed client sends to a real provider (and every request
 * of Pact's Verifier, through its front) passes the outage interceptor
 * (interceptors/outage.ts), which tells this watch how it ended. An origin
 * that answers none of its attempts within the retry budget (OUTAGE_BUDGET) is
 * declared unreachable once, with when it stopped answering; from then on a
 * request to it fails at once (ProviderUnreachableError), and the tests it
 * keeps from verifying are skipped as not verified (src/testing/providerUnreachable.ts),
 * never failed. A provider that answers again within the budget loses nothing:
 * its requests were sent again until it did.
 *
 * One watch per process (the worker's LiveRequestGuard). The processes of a run
 * share what they declared through a file the ProviderOutageReporter names in
 * HARNESS_PROVIDER_OUTAGES (src/reporters/ProviderOutageReporter.ts), one JSON
 * line per outage, so a worker started later (another project, or after a failed
 * test) fails fast at once instead of spending the budget again.
 */
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { systemClock, type Clock } from '../clock/Clock.ts';
import { isRetryableNetworkCode } from './networkError.ts';

/**
 * The retry budget of a live run: how long a provider that stops answering is waited for before it is declared
 * unreachable. A request without an answer (connection refused, reset, timed out) is sent again after 0.25, 0.5, 1
 * and 2 s (then every 2 s); the origin is declared unreachable once it has answered none of at least 5 attempts in a
 * row (2 when they timed out, each after `answerTimeoutMs`) over at least 3 s: about 4 s for a refused connection.
 */
export const OUTAGE_BUDGET = {
  /** Attempts in a row without an answer before the origin is declared unreachable. */
  attempts: 5,
  /** Timed-out attempts in a row that are enough (each already waited `answerTimeoutMs`). */
  timedOutAttempts: 2,
  /** The least time from the first attempt without an answer to the declaration. */
  windowMs: 3_000,
  /** The waits before a request without an answer is sent again; the last one repeats. */
  retryAfterMs: [250, 500, 1_000, 2_000],
  /** How long an attempt waits for the answer's status and headers before it counts as timed out. */
  answerTimeoutMs: 20_000,
} as const;

export type OutageBudget = { readonly [K in keyof typeof OUTAGE_BUDGET]: (typeof OUTAGE_BUDGET)[K] extends readonly number[] ? readonly number[] : number };

/** A streak whose last failure is this old starts again: nothing was sent to the origin in between. */
const STREAK_GAP_MS = 60_000;

/** The variable naming the run's file of declared outages (one JSON line each), set by the ProviderOutageReporter. */
export const OUTAGE_FILE_VARIABLE = 'HARNESS_PROVIDER_OUTAGES';

/** The network error code of a request that met the outage: its own attempts were the last the budget allowed. */
export const UNREACHABLE_CODE = 'HARNESS_PROVIDER_UNREACHABLE';
/** The network error code of a request refused before it left: its origin was declared unreachable already. */
export const UNREACHABLE_REFUSED_CODE = 'HARNESS_PROVIDER_UNREACHABLE_REFUSED';

/** Codes of a failure before the request reached the provider: sending it again cannot repeat a write. */
const NOT_CONNECTED: ReadonlySet<string> = new Set(['ECONNREFUSED', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
/** Codes of an attempt that waited its time out. */
const TIMED_OUT: ReadonlySet<string> = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Whether an attempt that failed with `code` never reached the provider. */
export function notConnected(code: string): boolean {
  return NOT_CONNECTED.has(code);
}

/** An origin declared unreachable. Names its host only: never a path, a query or a credential. */
export interface Outage {
  /** The API whose requests met it: `store`, `media`. */
  readonly api: string;
  /** scheme://host:port */
  readonly origin: string;
  /** host:port, as the line names it. */
  readonly host: string;
  /** Epoch ms of the first attempt of the streak that found no answer: when it stopped answering. */
  readonly since: number;
  /** Epoch ms of the declaration. */
  readonly declaredAt: number;
  /** The last attempt's network error code. */
  readonly code: string;
  /** Attempts without an answer that decided it. */
  readonly attempts: number;
}

const CODE_WORDS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ECONNABORTED: 'connection aborted',
  EPIPE: 'connection closed',
  ETIMEDOUT: 'connection timed out',
  EAI_AGAIN: 'host name not resolved',
  ENETUNREACH: 'network unreachable',
  EHOSTUNREACH: 'host unreachable',
  UND_ERR_SOCKET: 'connection closed',
  UND_ERR_CLOSED: 'connection closed',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_HEADERS_TIMEOUT: `no answer within ${OUTAGE_BUDGET.answerTimeoutMs / 1000} s`,
  UND_ERR_BODY_TIMEOUT: 'the answer stopped',
};

/** A network error code in words: `connection refused`. */
export function codeWords(code: string): string {
  return CODE_WORDS[code] ?? code;
}

/** hh:mm:ss UTC of an epoch ms. */
function clockTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 19)} UTC`;
}

/** What the outage is, in one line without the harness's conclusion: `the media API at 127.0.0.1:4120 stopped answering at 22:51:07 UTC (connection refused)`. */
export function outageWhat(outage: Outage): string {
  return `the ${outage.api} API at ${outage.host} stopped answering at ${clockTime(outage.since)} (${codeWords(outage.code)})`;
}

/** The line a run says once when it declares an outage. */
export function outageLine(outage: Outage): string {
  return `provider unreachable: ${outageWhat(outage)}; the tests it keeps from verifying are not verified`;
}

/** What a request that met an outage fails with: not retryable, and named by its code. */
export class ProviderUnreachableError extends Error {
  readonly code: string;
  readonly outage: Outage;
  /** The last attempt's own error. Not `cause`: the clients read a network error's code off its cause first (networkError.ts). */
  readonly lastError: unknown;

  /** `left`: this request's own attempts went unanswered (false: refused before it left, the origin already declared). */
  constructor(outage: Outage, left: boolean, lastError?: unknown) {
    super(
      `${outageLine(outage)}. ${left ? `No answer within the retry budget (${OUTAGE_BUDGET.attempts} attempts over ${OUTAGE_BUDGET.windowMs / 1000} s or more)` : 'Refused before it left'}: an outage, not a verdict`,
    );
    this.name = 'ProviderUnreachableError';
    this.code = left ? UNREACHABLE_CODE : UNREACHABLE_REFUSED_CODE;
    this.outage = outage;
    this.lastError = lastError;
  }
}

/** Whether an error (or one it wraps, as the clients' transport errors do) met an outage. */
export function outageOf(error: unknown): Outage | undefined {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof ProviderUnreachableError) return e.outage;
  }
  return undefined;
}

interface Streak {
  since: number;
  last: number;
  failures: number;
  timedOut: number;
  code: string;
}

export interface ProviderOutagesOptions {
  /** The clock the budget is measured and waited on (the system clock on a live run). */
  readonly clock?: Clock;
  /** The run's file of declared outages (OUTAGE_FILE_VARIABLE); without it, this process alone. */
  readonly shared?: string | undefined;
  readonly budget?: OutageBudget;
}

/** Per origin: the attempts in a row without an answer, and the declared outages of the run. */
export class ProviderOutages {
  readonly clock: Clock;
  readonly budget: OutageBudget;
  readonly #shared: string | undefined;
  readonly #streaks = new Map<string, Streak>();
  readonly #declared = new Map<string, Outage>();
  #sharedSize = 0;

  constructor(options: ProviderOutagesOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.budget = options.budget ?? OUTAGE_BUDGET;
    this.#shared = options.shared;
  }

  /** The outage declared for `origin` (an origin or any URL of it) in this run, by this process or another. */
  declared(origin: string): Outage | undefined {
    const key = originOf(origin);
    const known = this.#declared.get(key);
    if (known) return known;
    this.#readShared();
    return this.#declared.get(key);
  }

  /** Every outage declared in this run. */
  all(): Outage[] {
    this.#readShared();
    return [...this.#declared.values()];
  }

  /** An answer came from `origin`: its streak is over. */
  answered(origin: string): void {
    this.#streaks.delete(originOf(origin));
  }

  /**
   * An attempt to `origin` ended with network error `code` and no answer. Answers the outage when this attempt
   * spent the budget (declared here, once), or the one declared before; undefined while the budget lasts, and for a
   * code that says nothing about the provider being reachable (a guard's refusal, a bug).
   */
  failed(origin: string, code: string, api: string): Outage | undefined {
    const key = originOf(origin);
    const before = this.declared(key);
    if (before || !isRetryableNetworkCode(code)) return before;
    const now = this.clock.now();
    let streak = this.#streaks.get(key);
    if (!streak || now - streak.last > STREAK_GAP_MS) this.#streaks.set(key, (streak = { since: now, last: now, failures: 0, timedOut: 0, code }));
    streak.failures += 1;
    if (TIMED_OUT.has(code)) streak.timedOut += 1;
    streak.last = now;
    streak.code = code;
    const { attempts, timedOutAttempts, windowMs } = this.budget;
    const spent = now - streak.since >= windowMs && (streak.failures >= attempts || streak.timedOut >= timedOutAttempts);
    if (!spent) return undefined;
    const outage: Outage = { api, origin: key, host: new URL(key).host, since: streak.since, declaredAt: now, code, attempts: streak.failures };
    this.#declared.set(key, outage);
    this.#streaks.delete(key);
    if (this.#shared) {
      try {
        appendFileSync(this.#shared, `${JSON.stringify(outage)}\n`);
      } catch {
        // The run's file is gone (the run is ending): this process still knows.
      }
    }
    return outage;
  }

  /** How long to wait before a request's retry number `retry` (0 for the first retry). */
  retryAfterMs(retry: number): number {
    const waits = this.budget.retryAfterMs;
    return waits[Math.min(retry, waits.length - 1)] ?? 0;
  }

  /** Learns what other processes of the run declared; read again only when the file grew. */
  #readShared(): void {
    if (!this.#shared) return;
    let size: number;
    try {
      size = statSync(this.#shared).size;
    } catch {
      return;
    }
    if (size === this.#sharedSize) return;
    this.#sharedSize = size;
    for (const outage of readOutages(this.#shared)) if (!this.#declared.has(outage.origin)) this.#declared.set(outage.origin, outage);
  }
}

/** The outages a run's file holds, first declaration of each origin first. */
export function readOutages(file: string): Outage[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const byOrigin = new Map<string, Outage>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const outage = JSON.parse(line) as Outage;
      if (typeof outage.origin === 'string' && !byOrigin.has(outage.origin)) byOrigin.set(outage.origin, outage);
    } catch {
      // A line cut short while another process wrote it: the next read has it whole.
    }
  }
  return [...byOrigin.values()];
}

/** scheme://host:port of an origin or a URL. */
export function originOf(url: string): string {
  return new URL(url).origin;
}
