import { observationSink } from '../support/observation.ts';
import type { TestInfo } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { assertProperty } from '../support/propertyRun.ts';
import { budgetAnnotation, liveRateBudget, RequestBudget } from '../support/liveBudget.ts';
import { checksRules } from '../support/ruleAnnotations.ts';
import { notVerified, unmetPreconditionText } from '../../src/testing/ruleTest.ts';
import type { StoreArena } from '../support/storeArena.ts';
import { STORE_CONTRACT } from '../../src/rules/storeContract.ts';
import { concurrentWritesProperty, liveOutOfRangeProperty, liveWalkProperty, outOfRangeProperty, walkProperty } from './pagination.property.ts';
import {
  catalogueSize,
  DEFAULT_SIZE,
  FOLLOW,
  FULL_URLS,
  INVALID,
  MAX_SIZE,
  OVER_MAX,
  pageSize,
  PAST_LAST,
  RELS,
  TOTAL,
  walkCost,
  type Pager,
} from './pagination/oracle.ts';

const { maxPerPage } = STORE_CONTRACT;

/** Live: a paced client, the budget, and field-notes rules kept as observation annotations rather than failures. */
async function livePager(storeArena: StoreArena, testInfo: TestInfo): Promise<Pager & { budget: RequestBudget }> {
  const store = await storeArena.openStore();
  return {
    client: store.client({ pace: true }),
    forms: new Set(),
    budget: new RequestBudget(liveRateBudget()),
    observe: observationSink(testInfo),
  };
}

test(
  'following Link next visits every product once, in a stable order, with X-Total-Count, page sizes and rels that agree',
  checksRules([FOLLOW, TOTAL, RELS, FULL_URLS, DEFAULT_SIZE, MAX_SIZE, PAST_LAST]),
  async ({ storeArena, target }, testInfo) => {
    if (storeArena.kind === 'twin') {
      await assertProperty(testInfo, walkProperty(storeArena), { numRuns: 25 });
      return;
    }
    // Live: the catalogue as it is; only per_page varies, within the budget.
    const numRuns = 3;
    const pager = await livePager(storeArena, testInfo);
    const catalogue = await catalogueSize(pager);
    const perCase = Math.floor((pager.budget.limit - pager.budget.used) / numRuns);
    const property = liveWalkProperty(pager, catalogue, perCase);
    const cost = walkCost(catalogue, pageSize(maxPerPage));
    test.skip(
      !property,
      `a walk of the ${catalogue} products costs ${cost} requests at ${maxPerPage} per page, over ${perCase}, a third of what LIVE_RATE_BUDGET leaves.`,
    );
    await assertProperty(testInfo, property!, { numRuns });
    testInfo.annotations.push(budgetAnnotation(pager.budget, target));
    // A catalogue that fits one default page shows neither page size: those rules stay unverified, never passed.
    const { defaultPerPage } = STORE_CONTRACT;
    if (catalogue <= defaultPerPage)
      notVerified(testInfo, DEFAULT_SIZE, unmetPreconditionText(`at least ${defaultPerPage + 1} products (the store has ${catalogue})`));
    if (catalogue <= maxPerPage) notVerified(testInfo, MAX_SIZE, unmetPreconditionText(`at least ${maxPerPage + 1} products (the store has ${catalogue})`));
    expect(pager.budget.used, 'the property sent at least one request to the live store').toBeGreaterThan(0);
  },
);

test(
  'per_page over 200 is served as 200; a page or per_page that is not a positive integer answers 400',
  checksRules([OVER_MAX, INVALID, PAST_LAST]),
  async ({ storeArena, target }, testInfo) => {
    if (storeArena.kind === 'twin') {
      await assertProperty(testInfo, outOfRangeProperty(storeArena), { numRuns: 30 });
      return;
    }
    // Live: both rules come from the field notes, so a difference is an observation, not a failure.
    const pager = await livePager(storeArena, testInfo);
    await assertProperty(testInfo, liveOutOfRangeProperty(pager), { numRuns: 5 });
    testInfo.annotations.push(budgetAnnotation(pager.budget, target));
  },
);

// What offset paging over ascending ids promises a client while products are
// created and deleted between pages (the property's comment says why each holds):
// the walk ends without throwing; each page's X-Total-Count is the size then;
// every item given was there then; ids ascend, so none comes twice; an item
// whose offset never changed is seen; with no deletes, the walk gives exactly
// the last request's collection. Skipping an item behind which deletes happened is allowed.
test(
  'paging while products are created and deleted between pages keeps what offset paging promises',
  checksRules([FOLLOW, TOTAL, PAST_LAST], 'it creates and deletes products between pages of a store arranged for each case'),
  async ({ storeArena }, testInfo) => {
    await assertProperty(testInfo, concurrentWritesProperty(storeArena), { numRuns: 25 });
  },
);
