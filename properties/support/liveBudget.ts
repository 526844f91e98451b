/**
 * What a property may spend on a live service: LIVE_RATE_BUDGET requests per
 * property (default 60), and LIVE_RATE_TOLERANCE_MS of slack on timing beyond
 * the measured round trip (default 250). A property stops sending once the
 * next step would exceed the budget, and says so.
 */
export { DEFAULT_LIVE_RATE_BUDGET, DEFAULT_LIVE_RATE_TOLERANCE_MS, liveRateBudget, liveRateToleranceMs } from '../../src/config/propertyEnv.ts';

export class RequestBudget {
  readonly limit: number;
  #used = 0;
  #refused = 0;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Takes `n` requests from the budget; false (and nothing taken) when they do not fit. */
  take(n: number): boolean {
    if (this.#used + n > this.limit) {
      this.#refused += 1;
      return false;
    }
    this.#used += n;
    return true;
  }

  get used(): number {
    return this.#used;
  }

  /** Whether a step was left out for want of budget: the run stopped early. */
  get stoppedEarly(): boolean {
    return this.#refused > 0;
  }
}

/** The test annotation that says what a live run spent, and whether it stopped early. */
export function budgetAnnotation(budget: RequestBudget, target: string): { type: string; description: string } {
  const early = budget.stoppedEarly ? '; stopped early: the next step would have exceeded the budget' : '';
  return { type: 'budget', description: `${budget.used} of ${budget.limit} requests (LIVE_RATE_BUDGET)${early} on ${target}` };
}
