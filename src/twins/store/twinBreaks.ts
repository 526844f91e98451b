/**
 * Deliberate breaks a store twin can be started with, one at a time, to prove
 * that the properties (properties/), the storefront checks and the fuzzer
 * (tests/fuzz/) go red when a provider breaks the rule they check. Only tests
 * start a twin with a break (startStoreTwin({ twinBreak })); `npm run twins` and the
 * suites' twin never have one.
 */
import { bucketOfPlan, type StorePlan } from '../../rules/storeContract.ts';
import type { LocalizedWrite } from './localized.ts';

export const STORE_TWIN_BREAKS = {
  'bucket-leaks-fast': 'store.ratelimit.leak-rate: the bucket leaks 3 requests per second instead of 2',
  'bucket-off-by-one': 'store.ratelimit.bucket-429: the 40th request of a burst from empty is refused (the bucket admits 39)',
  'page-drops-item': 'store.pagination.follow-links: every page after the first misses its first item',
  'page-repeats-item': "store.pagination.follow-links: every page after the first starts with the previous page's last item",
  'wrong-last-link': 'store.pagination.link-rels-presence: rel="last" points one page before the last',
  'string-main-language-only': 'store.localized.string-applies-to-all: a plain-string name is stored for the main language only',
  'storefront-callback-without-variant': 'store.storefront.on-change-variant: LS calls the callback with no argument',
  'storefront-element-matches-nothing': 'store.storefront.variant-element: variant.element names no element of the page',
  'sort-within-page-only': 'store.products.sort-by: sort_by orders each page (of the unfiltered listing) alone, not the listing',
  'crash-on-array-name': 'store.errors.validation-422: a product write whose name is a JSON array throws a TypeError (answered 500) instead of 422',
} as const;

export type StoreTwinBreak = keyof typeof STORE_TWIN_BREAKS;

export function isStoreTwinBreak(name: string): name is StoreTwinBreak {
  return Object.hasOwn(STORE_TWIN_BREAKS, name);
}

/** Capacity, leak rate and requests admitted from empty of a new bucket on this plan. */
export function bucketShape(twinBreak: StoreTwinBreak | undefined, plan: StorePlan = 'standard'): { capacity: number; leakPerSecond: number; admits: number } {
  const { bucketSize, leakPerSecond } = bucketOfPlan(plan);
  const shape = { capacity: bucketSize, leakPerSecond, admits: bucketSize };
  if (twinBreak === 'bucket-leaks-fast') return { ...shape, leakPerSecond: leakPerSecond * 1.5 };
  if (twinBreak === 'bucket-off-by-one') return { ...shape, admits: bucketSize - 1 };
  return shape;
}

/** Where a page of `perPage` items starts, 0-based, in the filtered collection. */
export function pageStart(twinBreak: StoreTwinBreak | undefined, page: number, perPage: number): number {
  const start = (page - 1) * perPage;
  if (page === 1) return start;
  if (twinBreak === 'page-drops-item') return start + 1;
  if (twinBreak === 'page-repeats-item') return start - 1;
  return start;
}

/** The page rel="last" names. */
export function lastLinkPage(twinBreak: StoreTwinBreak | undefined, lastPage: number): number {
  return twinBreak === 'wrong-last-link' && lastPage > 1 ? lastPage - 1 : lastPage;
}

/**
 * How a twin with a break reads a product name before validating it:
 * `crash-on-array-name` takes anything that is not an object for a string and
 * trims it, so an array throws a TypeError (the fuzzer's planted crash).
 */
export function prereadProductName(twinBreak: StoreTwinBreak | undefined, raw: unknown): void {
  if (twinBreak === 'crash-on-array-name' && Array.isArray(raw)) (raw as unknown as string).trim();
}

/** A validated localized write as the twin stores it (with its break, if it has one). */
export function storedLocalizedWrite(twinBreak: StoreTwinBreak | undefined, raw: unknown, write: LocalizedWrite, mainLanguage: string): LocalizedWrite {
  if (twinBreak === 'string-main-language-only' && typeof raw === 'string') return { [mainLanguage]: raw };
  return write;
}
