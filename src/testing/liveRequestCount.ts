/**
 * What a test sent to the live APIs, as a test annotation: the workers write
 * it (store and media fixtures), the main process's RequestBudgetReporter adds
 * it up. An annotation travels with the test result, so the sum is the same
 * however many workers ran.
 */

export const LIVE_REQUESTS_ANNOTATION = 'live-requests';

/** Requests sent per API, and requests refused because the run's budget was spent. */
export interface LiveRequestCount {
  readonly store: number;
  readonly media: number;
  readonly refused: number;
}

export const NO_REQUESTS: LiveRequestCount = { store: 0, media: 0, refused: 0 };

/** `{ type: 'live-requests', description: '5 store, 0 media' }`, plus `, 2 refused` when any were. */
export function liveRequestsAnnotation(count: Partial<LiveRequestCount>): { type: string; description: string } {
  const refused = count.refused ? `, ${count.refused} refused` : '';
  return { type: LIVE_REQUESTS_ANNOTATION, description: `${count.store ?? 0} store, ${count.media ?? 0} media${refused}` };
}

/** The sum of a result's live-requests annotations (a test using both fixtures has two). */
export function liveRequestsOf(annotations: readonly { type: string; description?: string }[]): LiveRequestCount | undefined {
  const mine = annotations.filter((a) => a.type === LIVE_REQUESTS_ANNOTATION);
  if (mine.length === 0) return undefined;
  const sum = { ...NO_REQUESTS };
  for (const { description = '' } of mine) {
    for (const [, n, what] of description.matchAll(/(\d+) (store|media|refused)\b/g)) sum[what as keyof LiveRequestCount] += Number(n);
  }
  return sum;
}

/** A run's spending against LIVE_REQUEST_BUDGET, as every live run ends: the line, and why it is over (undefined when not). */
export function budgetSummary(spent: LiveRequestCount & { readonly properties?: number }, budget: number): { line: string; over?: string } {
  const properties = spent.properties ?? 0;
  const used = spent.store + spent.media + properties;
  const parts = [`store ${spent.store}`, `media ${spent.media}`, ...(properties > 0 ? [`properties ${properties}`] : [])];
  const line = `live request budget: ${used} of ${budget} requests used (${parts.join(', ')})`;
  if (used <= budget && spent.refused === 0) return { line };
  return { line, over: used > budget ? `over by ${used - budget}` : `${spent.refused} request(s) refused once it was spent` };
}
