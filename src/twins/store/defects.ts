/**
 * Deliberate defects a store twin can be started with, one at a time, to prove
 * that the properties (properties/), the storefront checks and the fuzzer
 * (tests/fuzz/) go red when a provider breaks the rule they check. Only tests
 * start a defective twin (startStoreTwin({ defect })); `npm run twins` and the
 * suites' twin never have one.
 */
import { bucketOfPlan, type StorePlan } from '../../rules/storeContract.ts';
import type { LocalizedWrite } from './localized.ts';

export const STORE_DEFECTS = {
  'bucket-leaks-fast': 'store.ratelimit.leak-rate: the bucket leaks 3 requests per second instead of 2',
  'bucket-off-by-one': 'store.ratelimit.bucket-429: the 40th request of a burst from empty is refused (the bucket admits 39)',
  'page-drops-item': 'store.pagination.follow-links: every page after the first misses its first item',
  'page-repeats-item': "store.pagination.follow-links: every page after the first starts with the previous page's last item",
  'wrong-last-link': 'store.pagination.link-rels-presence: rel="last" points one page before the last',
  'string-main-language-only': 'store.localized.string-applies-to-all: a plain-string name is stored for the main language only',
  'storefront-callback-without-variant': 'store.storefront.on-change-variant: LS calls the callback with no argument',
  'storefront-element-matches-nothing': 'store.storefront.variant-element: variant.element names no element of the page',
  'crash-on-array-name': 'store.errors.validation-422: a product write whose name is a JSON array throws a TypeError (answered 500) instead of 422',
} as const;

export type StoreDefect = keyof typeof STORE_DEFECTS;

export function isStoreDefect(name: string): name is StoreDefect {
  return Object.hasOwn(STORE_DEFECTS, name);
}

/** Capacity, leak rate and requests admitted from empty of a new bucket on this plan. */
export function bucketShape(defect: StoreDefect | undefined, plan: StorePlan = 'standard'): { capacity: number; leakPerSecond: number; admits: number } {
  const { bucketSize, leakPerSecond } = bucketOfPlan(plan);
  const shape = { capacity: bucketSize, leakPerSecond, admits: bucketSize };
  if (defect === 'bucket-leaks-fast') return { ...shape, leakPerSecond: leakPerSecond * 1.5 };
  if (defect === 'bucket-off-by-one') return { ...shape, admits: bucketSize - 1 };
  return shape;
}

/** Where a page of `perPage` items starts, 0-based, in the filtered collection. */
export function pageStart(defect: StoreDefect | undefined, page: number, perPage: number): number {
  const start = (page - 1) * perPage;
  if (page === 1) return start;
  if (defect === 'page-drops-item') return start + 1;
  if (defect === 'page-repeats-item') return start - 1;
  return start;
}

/** The page rel="last" names. */
export function lastLinkPage(defect: StoreDefect | undefined, lastPage: number): number {
  return defect === 'wrong-last-link' && lastPage > 1 ? lastPage - 1 : lastPage;
}

/**
 * How a defective twin reads a product name before validating it:
 * `crash-on-array-name` takes anything that is not an object for a string and
 * trims it, so an array throws a TypeError (the fuzzer's planted crash).
 */
export function prereadProductName(defect: StoreDefect | undefined, raw: unknown): void {
  if (defect === 'crash-on-array-name' && Array.isArray(raw)) (raw as unknown as string).trim();
}

/** A validated localized write as the (possibly defective) twin stores it. */
export function storedLocalizedWrite(defect: StoreDefect | undefined, raw: unknown, write: LocalizedWrite, mainLanguage: string): LocalizedWrite {
  if (defect === 'string-main-language-only' && typeof raw === 'string') return { [mainLanguage]: raw };
  return write;
}
