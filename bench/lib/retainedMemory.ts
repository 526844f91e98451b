/**
 * Whether a process keeps memory under load: what is left after full
 * collections, read at quiet points (no request in flight) after a warm-up and
 * after the load. Per-second samples under load cannot tell retention from
 * churn: heapUsed is a sawtooth of garbage, and RSS steps up for good while V8
 * sizes its heap, compiles hot code and glibc's allocator keeps freed pages
 * (the media twin's RSS rose ~90 MB in its first 20 s of load and then stayed
 * put, while its retained heap did not move). So the verdict is on the
 * retained V8 heap and the retained memory outside it that the process
 * allocates (Buffers and ArrayBuffers: `external`); RSS is printed, not judged.
 */

export interface RetainedSample {
  readonly heapUsedMb: number;
  /** Memory of C++ objects bound to JS, Buffers and ArrayBuffers included. */
  readonly externalMb: number;
  readonly rssMb: number;
}

export interface RetainedVerdict {
  readonly heapGrowthMb: number;
  readonly externalGrowthMb: number;
  /** Heap and external growth together, per request served between the two readings. */
  readonly bytesPerRequest: number;
  readonly flat: boolean;
}

/**
 * Growth of the retained heap or of external memory, from after the warm-up to
 * after the load, at or above which memory is not flat. ~60,000 requests in
 * 30 s make this a leak of ~35 bytes a request: a kept header or URL string
 * would show; JIT code and inline caches still settling (~0.5 MB) do not.
 */
export const RETAINED_GROWTH_LIMIT_MB = 2;

const MB = 1024 * 1024;

export function toRetainedSample(usage: { readonly heapUsed: number; readonly external: number; readonly rss: number }): RetainedSample {
  return { heapUsedMb: usage.heapUsed / MB, externalMb: usage.external / MB, rssMb: usage.rss / MB };
}

export function retainedVerdict(afterWarmUp: RetainedSample, end: RetainedSample, requests: number): RetainedVerdict {
  const heapGrowthMb = end.heapUsedMb - afterWarmUp.heapUsedMb;
  const externalGrowthMb = end.externalMb - afterWarmUp.externalMb;
  return {
    heapGrowthMb,
    externalGrowthMb,
    bytesPerRequest: requests === 0 ? 0 : ((heapGrowthMb + externalGrowthMb) * MB) / requests,
    flat: heapGrowthMb < RETAINED_GROWTH_LIMIT_MB && externalGrowthMb < RETAINED_GROWTH_LIMIT_MB,
  };
}
