import { budgetAnnotation, liveRateBudget, RequestBudget } from '../support/liveBudget.ts';
import { assertProperty } from '../support/propertyRun.ts';
import { checksRules } from '../support/ruleAnnotations.ts';
import { expect, test } from '../support/fixtures.ts';
import { concurrentWritesProperty, paginationProperty } from './pagination.property.ts';
import { PAGINATION_RULES } from './pagination/oracle.ts';

test(
  'any page[limit] and page[offset] give the window, meta.count, links and links.next walk the field notes describe',
  checksRules(PAGINATION_RULES),
  async ({ mediaArena, target }, testInfo) => {
    if (mediaArena.kind === 'twin') {
      await assertProperty(testInfo, paginationProperty({ arena: mediaArena }), { numRuns: 300 });
      return;
    }
    // Live: the reference reads and walks share one request budget; a walk it cannot pay for stops, with what it saw checked.
    const budget = new RequestBudget(liveRateBudget());
    await assertProperty(testInfo, paginationProperty({ arena: mediaArena, budget }), { numRuns: 12 });
    testInfo.annotations.push(budgetAnnotation(budget, target));
    expect(budget.used, 'the property sent at least one request to the live service').toBeGreaterThan(0);
  },
);

test(
  "paging a user's library entries while the user adds and removes entries never fails, shows phantoms or runs forever",
  checksRules(
    ['media.pagination.follow-next', 'media.pagination.meta-count', 'media.pagination.offset'],
    "it writes to a user's library between pages and resets the twin after each case",
  ),
  async ({ mediaArena }, testInfo) => {
    await assertProperty(testInfo, concurrentWritesProperty(mediaArena), { numRuns: 40 });
  },
);
