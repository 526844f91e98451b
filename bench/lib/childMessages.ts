/** What a bench child entry tells the bench over IPC. */
export type ChildMessage =
  /** Listening: the URL to load. */
  | { readonly type: 'ready'; readonly url: string }
  /** What the child keeps: process.memoryUsage() just after full collections, in answer to `measure-retained`. */
  | { readonly type: 'retained'; readonly rss: number; readonly heapUsed: number; readonly external: number; readonly arrayBuffers: number };

/** What the bench asks a child over IPC. */
export type BenchRequest =
  /** Collect all garbage, then answer with a `retained` message (twinChild.ts, started with --expose-gc). */
  { readonly type: 'measure-retained' };

/** Sends one message to the bench; a child started without IPC has nobody to tell. */
export function tellBench(message: ChildMessage): void {
  process.send?.(message);
}
