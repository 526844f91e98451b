/**
 * The line for a check whose request the live request guard refused: the
 * doctor itself would have gone over LIVE_REQUEST_BUDGET.
 */
import { BUDGET_SPENT_CODE } from '../testing/LiveRequestGuard.ts';
import { problem, type Check, type CheckScope } from './Check.ts';

/** Whether a network error's code is the guard's refusal rather than the network's. */
export function isBudgetSpent(code: string): boolean {
  return code === BUDGET_SPENT_CODE;
}

export function budgetSpent(scope: CheckScope, name: string): Check {
  return problem(
    scope,
    name,
    "not checked: its request would take the doctor's requests over LIVE_REQUEST_BUDGET",
    'raise LIVE_REQUEST_BUDGET (unset, it is 2000); a live run needs hundreds of requests',
  );
}
