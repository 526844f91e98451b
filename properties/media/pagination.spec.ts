import { budgetAnnotation, liveRateBudget, RequestBudget } from '../support/liveBudget.ts';
import { observationSink, type ObservationSink } from '../support/observation.ts';
import type { RuleId } from '../../src/rules/catalogues.ts';
import { assertProperty } from '../support/propertyRun.ts';
import { checksRules } from '../support/ruleAnnotations.ts';
import { expect, test } from '../support/fixtures.ts';
import { concurrentWritesProperty, paginationProperty } from './pagination.property.ts';
import { PAGINATION_RULES } from './pagination/oracle.ts';

/** Observations of the same rule over many cases say one thing: the first few are kept, the rest counted in one more. */
function fewPerRule(sink: ObservationSink, kept = 3): { observe: ObservationSink; flush(): void } {
  const seen = new Map<RuleId, number>();
  return {
    observe: (ruleId, message) => {
      const n = (seen.get(ruleId) ?? 0) + 1;
      seen.set(ruleId, n);
      if (n <= kept) sink(ruleId, message);
    },
    flush: () => {
      for (const [ruleId, n] of seen) {
        if (n > kept) sink(ruleId, `${n - kept} more differences from this rule in the property's cases, like the ${kept} above.`);
      }
    },
  };
}

test(
  'any page[limit] and page[offset] give the walk, meta.count and first/last links JSON:API and the client need, and the window and links the field notes describe',
  checksRules(PAGINATION_RULES),
  async ({ mediaArena, target }, testInfo) => {
    if (mediaArena.kind === 'twin') {
      await assertProperty(testInfo, paginationProperty({ arena: mediaArena }), { numRuns: 300 });
      return;
    }
    // Live: the reference reads and walks share one request budget; a walk it cannot pay for stops, with what it saw checked.
    // The field notes' details (offsets, query strings, the window) are observations here, never failures.
    const budget = new RequestBudget(liveRateBudget());
    const observations = fewPerRule(observationSink(testInfo));
    try {
      await assertProperty(testInfo, paginationProperty({ arena: mediaArena, budget, observe: observations.observe }), { numRuns: 12 });
    } finally {
      observations.flush();
    }
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
