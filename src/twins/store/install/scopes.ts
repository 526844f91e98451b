import type { Scope } from './apps.ts';

/** Resources the products scopes cover: products with their variants and images, and categories (see ASSUMPTIONS.md). */
const PRODUCT_RESOURCES: ReadonlySet<string> = new Set(['products', 'categories']);

/**
 * The scope a call needs (store.oauth.scopes-enforced): reading products or
 * categories needs read_products, any other method write_products; the store
 * and webhooks need none.
 */
export function requiredScope(method: string, resource: readonly string[]): Scope | undefined {
  if (!PRODUCT_RESOURCES.has(resource[0] ?? '')) return undefined;
  return method === 'GET' || method === 'HEAD' ? 'read_products' : 'write_products';
}

/** The scope `granted` lacks for this call, if any; undefined `granted` (a control API token) lacks nothing. */
export function missingScope(granted: readonly string[] | undefined, method: string, resource: readonly string[]): Scope | undefined {
  const needed = requiredScope(method, resource);
  return needed !== undefined && granted !== undefined && !granted.includes(needed) ? needed : undefined;
}
