import { renderVariant } from '../resources/variants.ts';
import type { Variant } from '../records.ts';
import type { StoreState } from '../storeState.ts';

/**
 * The variant object LS hands to a registered callback (spec, Variant
 * (storefront script object)): `element` plus the variant fields of the field
 * notes a storefront shows. Costs, dimensions and codes stay out: they are the
 * merchant's, not the shopper's.
 */
export interface StorefrontVariant {
  /** A selector for the container of this variant's form (store.storefront.variant-element). */
  readonly element: string;
  readonly id: number;
  readonly product_id: number;
  readonly image_id: number | null;
  readonly position: number;
  /** Decimal string; null means "ask for the price" (field notes, Variant). */
  readonly price: string | null;
  readonly promotional_price: string | null;
  /** null when the stock is not managed (field notes, Variant). */
  readonly stock: number | null;
  readonly sku: string | null;
  /** Localized objects, as the API answers them. */
  readonly values: readonly Record<string, string>[];
}

/** The id of a variant's form container on the product page. */
export function formContainerId(variant: Variant): string {
  return `product_form_${variant.id}`;
}

/** The members the storefront object shares with the API's variant: the same values, rendered once (resources/variants.ts). */
const SHARED_WITH_API = ['id', 'product_id', 'image_id', 'position', 'price', 'promotional_price', 'stock', 'sku', 'values'] as const;

export function storefrontVariant(store: StoreState, variant: Variant): StorefrontVariant {
  // The break names a container that does not exist (dashes instead of underscores).
  const element = store.twinBreak === 'storefront-element-matches-nothing' ? `#product-form-${variant.id}` : `#${formContainerId(variant)}`;
  const api = renderVariant(store, variant);
  return { element, ...Object.fromEntries(SHARED_WITH_API.map((member) => [member, api[member]])) } as StorefrontVariant;
}
