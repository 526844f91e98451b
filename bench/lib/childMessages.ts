/** What a bench child entry tells the bench over IPC. */
export type ChildMessage =
  /** Listening: the URL to load. */
  | { readonly type: 'ready'; readonly url: string }
  /** What the child keeps: process.memoryUsage() just after full collections, in answer to `measure-retained`. */
  | { readonly type: 'retained'; readonly rss: number; readonly heapUsed: number; readonly external: number; readonly arrayBuffers: number }
  /** The Store API requests a twin answered, per token (so per bucket of its store), and its CPU time, in answer to `count-requests`. */
  | { readonly type: 'requests'; readonly byToken: Readonly<Record<string, RequestCount>>; readonly cpuSeconds: number };

/**
 * Store API requests on one token: every one answered; those its bucket admitted (they cost it one: the answer carries
 * the rate headers and is no 402 or 429; a request refused before the bucket, for its User-Agent, token or scopes,
 * costs nothing); and those refused for the rate (429) or a scope (403).
 */
export interface RequestCount {
  readonly answered: number;
  readonly admitted: number;
  readonly rateRefused: number;
  readonly scopeRefused: number;
}

/** What the bench asks a child over IPC. */
export type BenchRequest =
  /** Collect all garbage, then answer with a `retained` message (twinChild.ts, started with --expose-gc). */
  | { readonly type: 'measure-retained' }
  /** Answer with a `requests` message: what the twin answered so far (sandboxTwinChild.ts). */
  | { readonly type: 'count-requests' };

/** Sends one message to the bench; a child started without IPC has nobody to tell. */
export function tellBench(message: ChildMessage): void {
  process.send?.(message);
}
