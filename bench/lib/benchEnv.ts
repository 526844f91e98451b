/**
 * The benches' variables, read and checked once: a bad value stops the run
 * before anything starts, with a message naming the variable and the fix.
 */
import { variable as readVariable } from '../../src/config/env.ts';
export interface BenchEnv {
  /** BENCH_SECONDS: measured seconds per throughput row (after a warm-up). */
  readonly seconds: number;
  /** BENCH_LOAD_SECONDS: seconds of sustained load per twin. */
  readonly loadSeconds: number;
  /** BENCH_SYNC_SIZES: store sizes the sync bench fetches. */
  readonly syncSizes: readonly number[];
  /** BENCH_BREAK_APIS: the APIs the break-cost bench runs (store, media; default both). */
  readonly breakApis: readonly ('store' | 'media')[];
  /** BENCH_TEAMS: the generated team pacts the nightly-teams bench verifies. */
  readonly teams: number;
  /** BENCH_TEAM_SANDBOXES: the numbers of sandboxes (twin processes, one bucket each) it verifies them against, one run each. */
  readonly teamSandboxes: readonly number[];
}

/** A bench variable with a value it cannot use. */
export class BenchEnvError extends Error {}

// The control API creates stores of at most this many products (src/twins/store/control.ts).
const MAX_STORE_PRODUCTS = 20_000;

function wholeNumber(variable: string, fallback: number, min: number, max: number): number {
  const raw = readVariable(variable)?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new BenchEnvError(
      `${variable}="${raw}" is not a whole number from ${min} to ${max}. Fix it (e.g. ${variable}=${fallback}) or unset it for ${fallback}.`,
    );
  }
  return value;
}

function storeSizes(variable: string, fallback: readonly number[]): readonly number[] {
  const raw = readVariable(variable)?.trim();
  if (raw === undefined || raw === '') return fallback;
  const sizes = raw.split(',').map((part) => part.trim());
  if (!sizes.every((size) => /^\d+$/.test(size) && Number(size) >= 1 && Number(size) <= MAX_STORE_PRODUCTS)) {
    throw new BenchEnvError(
      `${variable}="${raw}" is not a comma-separated list of store sizes from 1 to ${MAX_STORE_PRODUCTS}. Fix it (e.g. ${variable}=1000) or unset it for ${fallback.join(',')}.`,
    );
  }
  return [...new Set(sizes.map(Number))].sort((a, b) => a - b);
}

const BREAK_APIS = ['store', 'media'] as const;

function breakApis(variable: string): readonly (typeof BREAK_APIS)[number][] {
  const raw = readVariable(variable)?.trim();
  if (raw === undefined || raw === '') return BREAK_APIS;
  const apis = raw.split(',').map((part) => part.trim());
  const known = (api: string): api is (typeof BREAK_APIS)[number] => (BREAK_APIS as readonly string[]).includes(api);
  if (!apis.every(known)) {
    throw new BenchEnvError(
      `${variable}="${raw}" names an API the bench does not know. Fix it (e.g. ${variable}=media) or unset it for ${BREAK_APIS.join(',')}.`,
    );
  }
  return BREAK_APIS.filter((api) => apis.includes(api));
}

// Sandbox twins listen from port 5100 on, the refused team's after them: below the ports of other benches' twins.
const MAX_TEAM_SANDBOXES = 8;

function sandboxCounts(variable: string, fallback: readonly number[]): readonly number[] {
  const raw = readVariable(variable)?.trim();
  if (raw === undefined || raw === '') return fallback;
  const counts = raw.split(',').map((part) => part.trim());
  if (!counts.every((count) => /^\d+$/.test(count) && Number(count) >= 1 && Number(count) <= MAX_TEAM_SANDBOXES)) {
    throw new BenchEnvError(
      `${variable}="${raw}" is not a comma-separated list of sandbox counts from 1 to ${MAX_TEAM_SANDBOXES}. Fix it (e.g. ${variable}=1,4) or unset it for ${fallback.join(',')}.`,
    );
  }
  return [...new Set(counts.map(Number))].sort((a, b) => a - b);
}

let read: BenchEnv | undefined;

/** The variables, checked on the first call; throws BenchEnvError. */
export function benchEnv(): BenchEnv {
  read ??= {
    seconds: wholeNumber('BENCH_SECONDS', 5, 1, 600),
    loadSeconds: wholeNumber('BENCH_LOAD_SECONDS', 30, 2, 3600),
    syncSizes: storeSizes('BENCH_SYNC_SIZES', [1_000, 10_000]),
    breakApis: breakApis('BENCH_BREAK_APIS'),
    teams: wholeNumber('BENCH_TEAMS', 100, 1, 999),
    teamSandboxes: sandboxCounts('BENCH_TEAM_SANDBOXES', [1, 2, 4]),
  };
  return read;
}
