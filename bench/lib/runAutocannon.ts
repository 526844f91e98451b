/**
 * One autocannon run in this process, summed up as the benches report it.
 * Refusals (non-2xx), errors and timeouts are always counted: a row that has
 * any where none were meant is not a valid measurement.
 */
import autocannon, { type AutocannonRequest } from 'autocannon';

export interface LoadOptions {
  readonly url: string;
  readonly connections: number;
  readonly seconds: number;
  /** Headers of a plain GET of url. */
  readonly headers?: Record<string, string>;
  /** A mix sent in turn by every connection, instead of a GET of url. */
  readonly requests?: AutocannonRequest[];
}

export interface LoadResult {
  readonly requests: number;
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly kbPerAnswer: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  /** Answers by status code, as strings: {"200": 1234, "404": 56}. */
  readonly byStatus: Readonly<Record<string, number>>;
}

export async function runAutocannon(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.requests ? { requests: options.requests } : {}),
  });
  const answers = result.requests.total;
  return {
    requests: answers,
    reqPerSec: answers / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    kbPerAnswer: answers > 0 ? result.throughput.total / answers / 1024 : 0,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    byStatus: Object.fromEntries(Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count])),
  };
}

/** Whether a run is a valid measurement of answering `2xx` only: nothing refused, nothing failed. */
export function isClean(result: LoadResult): boolean {
  return result.non2xx === 0 && result.errors === 0 && result.timeouts === 0;
}
