/**
 * store.products.sort-by: the orders of the field notes' `sort_by` values, as the twin reads them (ASSUMPTIONS.md,
 * Product filters). A price is a product's lowest variant price (none: the highest); a name is the one in the store's main language,
 * compared folded (case and accents aside); ties go by id, as does `user` and `best-selling` (the twin keeps no
 * merchant's arrangement and no sales). The order is the whole listing's: the filters choose, then it sorts, then pages.
 */
import { foldText } from '../../text/foldText.ts';
import { StoreApiError } from './errors.ts';
import type { Product } from './records.ts';

export const SORT_BY_VALUES = [
  'user',
  'price-ascending',
  'price-descending',
  'alpha-ascending',
  'alpha-descending',
  'created-at-ascending',
  'created-at-descending',
  'best-selling',
] as const;

type Compare = (a: Product, b: Product) => number;

const lowestPrice = (product: Product): number =>
  Math.min(...product.variants.flatMap((variant) => (variant.price === null ? [] : [Number(variant.price)])).filter(Number.isFinite));
const byId: Compare = (a, b) => a.id - b.id;

/**
 * The products in the order `sort_by` asks for; as they are (id order) without it. A value not listed is 400 naming it.
 * `withinPagesOf`: the twin break sort-within-page-only, each run of that many products sorted alone.
 */
export function sortedProducts(products: Iterable<Product>, sortBy: string | undefined, mainLanguage: string, withinPagesOf?: number): Iterable<Product> {
  if (sortBy === undefined || sortBy === 'user' || sortBy === 'best-selling') return products;
  const name = (product: Product) => foldText(product.name[mainLanguage] ?? '');
  const key: Record<string, Compare> = {
    'price-ascending': (a, b) => lowestPrice(a) - lowestPrice(b),
    'price-descending': (a, b) => lowestPrice(b) - lowestPrice(a),
    'alpha-ascending': (a, b) => compareText(name(a), name(b)),
    'alpha-descending': (a, b) => compareText(name(b), name(a)),
    'created-at-ascending': (a, b) => a.createdAt - b.createdAt,
    'created-at-descending': (a, b) => b.createdAt - a.createdAt,
  };
  const compare = key[sortBy];
  if (!compare) throw StoreApiError.standard(400, `sort_by must be one of ${SORT_BY_VALUES.join(', ')}`);
  const all = [...products];
  const size = withinPagesOf ?? all.length;
  return Array.from({ length: Math.ceil(all.length / size) }, (_, n) => all.slice(n * size, (n + 1) * size).sort((a, b) => compare(a, b) || byId(a, b))).flat();
}

/** Folded names by code unit: the order a reader can repeat without a collation table. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
