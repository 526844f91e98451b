/**
 * The store's app scopes and what each request needs: one statement for the twin, which enforces them
 * (store.oauth.scopes-enforced), and for the harness, which names the scope a team's app lacks when its token is
 * refused (contracts/verification/whoActs.ts).
 */

/** The scopes the field notes name (OAuth: `"scope":"read_products,write_products"`). */
export const SCOPES = ['read_products', 'write_products'] as const;
export type Scope = (typeof SCOPES)[number];

/** Resources the products scopes cover: products with their variants and images, and categories (see ASSUMPTIONS.md). */
const PRODUCT_RESOURCES: ReadonlySet<string> = new Set(['products', 'categories']);

/**
 * The scope a call needs, from its method and the path's segments after /v1/{store_id}: reading products or
 * categories needs read_products, any other method write_products; the store and webhooks need none.
 */
export function requiredScope(method: string, resource: readonly string[]): Scope | undefined {
  if (!PRODUCT_RESOURCES.has(resource[0] ?? '')) return undefined;
  const upper = method.toUpperCase();
  return upper === 'GET' || upper === 'HEAD' ? 'read_products' : 'write_products';
}
