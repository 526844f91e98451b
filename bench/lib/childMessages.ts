/** What a bench child entry tells the bench over IPC. */
export type ChildMessage =
  /** Listening: the URL to load. */
  | { readonly type: 'ready'; readonly url: string }
  /** process.memoryUsage() of the child, in bytes, sent every second by twinChild.ts. */
  | { readonly type: 'memory'; readonly rss: number; readonly heapUsed: number; readonly heapTotal: number };

/** Sends one message to the bench; a child started without IPC has nobody to tell. */
export function tellBench(message: ChildMessage): void {
  process.send?.(message);
}
