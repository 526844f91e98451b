import type { RateHeaders } from './types.ts';

/**
 * The rate headers of a response (store.ratelimit.headers), from a map with
 * lower-case names. Undefined when none of the three is there or readable.
 */
export function rateHeaders(headers: Readonly<Record<string, string>>): RateHeaders | undefined {
  const rate: RateHeaders = {
    limit: numberOf(headers['x-rate-limit-limit']),
    remaining: numberOf(headers['x-rate-limit-remaining']),
    reset: numberOf(headers['x-rate-limit-reset']),
  };
  return rate.limit === undefined && rate.remaining === undefined && rate.reset === undefined ? undefined : rate;
}

function numberOf(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw.trim());
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}
