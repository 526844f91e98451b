/**
 * Whether a process's memory stayed flat under load, from samples taken every
 * second. Raw heapUsed is a sawtooth (garbage piles up between collections)
 * and RSS moves in steps when V8 enlarges its heap under load, so neither a
 * slope nor a difference of two samples tells retention from churn. What the
 * process keeps shows in the floors: the lowest heapUsed (just after a
 * collection) and the lowest RSS outside the V8 heap (RSS − heapTotal: code,
 * buffers, native memory). Memory is flat when neither floor rises from the
 * third quarter of the run to the last.
 */

export interface MemorySample {
  /** Seconds since the load started (negative: before it). */
  readonly atS: number;
  readonly rssMb: number;
  readonly heapUsedMb: number;
  readonly heapTotalMb: number;
}

export interface MemoryTrend {
  readonly start: MemorySample;
  readonly afterWarmUp: MemorySample;
  readonly end: MemorySample;
  /** Least-squares slopes over the second half, MB per 10 s (raw samples: steps and sawtooth included). */
  readonly rssMbPer10s: number;
  readonly heapMbPer10s: number;
  /** Lowest heapUsed of the last quarter minus lowest of the third quarter. */
  readonly heapFloorGrowthMb: number;
  /** The same for RSS − heapTotal. */
  readonly outsideHeapGrowthMb: number;
  readonly flat: boolean;
}

/** Floor growth from the third quarter to the last below which memory counts as flat, for each floor. */
export const FLAT_THRESHOLD_MB = 5;

function slopePerSecond(points: readonly (readonly [number, number])[]): number {
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / points.length;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / points.length;
  let covariance = 0;
  let variance = 0;
  for (const [x, y] of points) {
    covariance += (x - meanX) * (y - meanY);
    variance += (x - meanX) ** 2;
  }
  return variance === 0 ? 0 : covariance / variance;
}

function lowest(samples: readonly MemorySample[], value: (sample: MemorySample) => number): number {
  return Math.min(...samples.map(value));
}

/**
 * The trend of samples taken before and during `durationS` seconds of load;
 * `warmUpS` marks the end of warm-up. Undefined without a sample before the
 * load and one in each of the last two quarters (a run shorter than 4 s).
 */
export function memoryTrend(samples: readonly MemorySample[], durationS: number, warmUpS: number): MemoryTrend | undefined {
  const during = samples.filter((s) => s.atS > 0 && s.atS <= durationS);
  const quarter = (n: number): MemorySample[] => during.filter((s) => s.atS > (durationS * (n - 1)) / 4 && s.atS <= (durationS * n) / 4);
  const third = quarter(3);
  const last = quarter(4);
  const start = samples.filter((s) => s.atS <= 0).at(-1);
  const afterWarmUp = during.find((s) => s.atS >= warmUpS);
  const end = during.at(-1);
  if (!start || !afterWarmUp || !end || third.length === 0 || last.length === 0) return undefined;
  const secondHalf = [...third, ...last];
  const outsideHeap = (s: MemorySample): number => s.rssMb - s.heapTotalMb;
  const heapFloorGrowthMb = lowest(last, (s) => s.heapUsedMb) - lowest(third, (s) => s.heapUsedMb);
  const outsideHeapGrowthMb = lowest(last, outsideHeap) - lowest(third, outsideHeap);
  return {
    start,
    afterWarmUp,
    end,
    rssMbPer10s: slopePerSecond(secondHalf.map((s) => [s.atS, s.rssMb])) * 10,
    heapMbPer10s: slopePerSecond(secondHalf.map((s) => [s.atS, s.heapUsedMb])) * 10,
    heapFloorGrowthMb,
    outsideHeapGrowthMb,
    flat: heapFloorGrowthMb < FLAT_THRESHOLD_MB && outsideHeapGrowthMb < FLAT_THRESHOLD_MB,
  };
}
