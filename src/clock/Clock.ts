/**
 * Time as the harness sees it. The twins and the typed clients take a Clock so
 * that tests move time forward instead of sleeping.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves once `ms` have passed on this clock. */
  sleep(ms: number): Promise<void>;
}

/** Wall-clock time: what live runs and `npm run twins` use. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
};

/**
 * A clock that only moves when told to. `sleep` advances it at once, so code
 * that waits (a pacer, a back-off) runs instantly and deterministically.
 */
export class VirtualClock implements Clock {
  #now: number;

  constructor(startMs: number) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`VirtualClock.advance needs a finite, non-negative ms, got ${ms}`);
    this.#now += ms;
    return this.#now;
  }

  set(ms: number): void {
    if (!Number.isFinite(ms)) throw new RangeError(`VirtualClock.set needs a finite ms, got ${ms}`);
    this.#now = ms;
  }

  async sleep(ms: number): Promise<void> {
    this.advance(Math.max(0, ms));
  }
}

/**
 * The clock of a client on `target`: a replay answers at once, so its pacing
 * and back-off wait on a virtual clock instead of the wall; elsewhere
 * undefined (the client's default, the system clock).
 */
export function replayClock(target: string): VirtualClock | undefined {
  return target === 'replay' ? new VirtualClock(Date.now()) : undefined;
}
