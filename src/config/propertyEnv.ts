/**
 * The properties' variables, read and checked once with the rest of the
 * configuration (playwright.config.ts calls these before any test): FC_NUM_RUNS,
 * FC_SEED, FC_PATH and FC_REPLAY_PATH for every property (README "Properties"),
 * LIVE_RATE_BUDGET and LIVE_RATE_TOLERANCE_MS for what a property may spend on a
 * live service. A bad value names the variable and the fix.
 */

export const DEFAULT_LIVE_RATE_BUDGET = 60;
export const DEFAULT_LIVE_RATE_TOLERANCE_MS = 250;

/** What the environment asks of every property (README "Properties"). */
export interface PropertyEnv {
  /** FC_NUM_RUNS: cases per property, instead of each property's default. */
  readonly numRuns: number | undefined;
  /** FC_SEED: the seed a failure printed. */
  readonly seed: number | undefined;
  /** FC_PATH: the path a failure printed; with FC_SEED, replays exactly that shrunk case. */
  readonly path: string | undefined;
  /** FC_REPLAY_PATH: for model-based properties, the commands' replay path a failure printed (fc.commands' replayPath). */
  readonly replayPath?: string | undefined;
}

export class PropertyEnvError extends Error {}

/** Reads and checks FC_NUM_RUNS, FC_SEED and FC_PATH; a bad value names the variable and the fix. */
export function readPropertyEnv(env: Readonly<Record<string, string | undefined>> = process.env): PropertyEnv {
  const problems: string[] = [];
  const numRunsRaw = env.FC_NUM_RUNS?.trim();
  let numRuns: number | undefined;
  if (numRunsRaw) {
    numRuns = Number(numRunsRaw);
    if (!/^\d+$/.test(numRunsRaw) || numRuns < 1 || numRuns > 1_000_000) {
      problems.push(`FC_NUM_RUNS is "${numRunsRaw}": set it to a whole number of cases from 1 to 1000000, or unset it for each property's default.`);
    }
  }
  const seedRaw = env.FC_SEED?.trim();
  let seed: number | undefined;
  if (seedRaw) {
    seed = Number(seedRaw);
    if (!/^-?\d+$/.test(seedRaw) || !Number.isSafeInteger(seed) || Math.abs(seed) > 2 ** 31) {
      problems.push(`FC_SEED is "${seedRaw}": set it to the integer seed a failed property printed, or unset it.`);
    }
  }
  const path = env.FC_PATH?.trim() || undefined;
  if (path !== undefined && !/^\d+(:\d+)*$/.test(path)) {
    problems.push(`FC_PATH is "${path}": set it to the path a failed property printed (digits separated by colons, e.g. 4:0:1), or unset it.`);
  }
  if (path !== undefined && seed === undefined) problems.push('FC_PATH needs FC_SEED: a path only means something for the seed it was found with.');
  const replayPath = env.FC_REPLAY_PATH?.trim() || undefined;
  if (replayPath !== undefined && (path === undefined || !/^[A-Za-z0-9+/=:]+$/.test(replayPath))) {
    problems.push(`FC_REPLAY_PATH is "${replayPath}": set it, with FC_SEED and FC_PATH, to the replayPath a failed model-based property printed, or unset it.`);
  }
  if (problems.length > 0) throw new PropertyEnvError(problems.join('\n'));
  return { numRuns, seed, path, replayPath };
}

function readWhole(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number, min: number, max: number, what: string): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new PropertyEnvError(`${name} is "${raw}": set it to a whole number of ${what} from ${min} to ${max}, or unset it for ${fallback}.`);
  }
  return value;
}

export function liveRateBudget(env: Readonly<Record<string, string | undefined>> = process.env): number {
  return readWhole(env, 'LIVE_RATE_BUDGET', DEFAULT_LIVE_RATE_BUDGET, 1, 100_000, 'requests');
}

export function liveRateToleranceMs(env: Readonly<Record<string, string | undefined>> = process.env): number {
  return readWhole(env, 'LIVE_RATE_TOLERANCE_MS', DEFAULT_LIVE_RATE_TOLERANCE_MS, 0, 60_000, 'milliseconds');
}
