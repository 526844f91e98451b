/**
 * Which contract schema a Store API answer must satisfy, from its method, path
 * and status. The store suites check every response they see against it, so a
 * body that breaks the contract fails whichever test happened to read it.
 * Only shapes the contract describes are listed: field-notes shapes (webhooks,
 * standard error bodies) are checked by the tests of their own rules.
 */
const ID = '\\d+';
export interface StoreResponseRoute {
  readonly method: string;
  readonly pattern: RegExp;
  readonly status: readonly number[];
  readonly schema: string;
}

/** The table itself: the OpenAPI document (src/openapi/storeOpenApi.ts) is generated from it. */
export const STORE_RESPONSE_ROUTES: readonly StoreResponseRoute[] = [
  { method: 'GET', pattern: new RegExp(`^/products$`), status: [200], schema: 'store/product-list' },
  { method: 'GET', pattern: new RegExp(`^/products/${ID}$`), status: [200], schema: 'store/product' },
  { method: 'POST', pattern: new RegExp(`^/products$`), status: [200, 201], schema: 'store/product' },
  { method: 'PUT', pattern: new RegExp(`^/products/${ID}$`), status: [200], schema: 'store/product' },
  { method: 'GET', pattern: new RegExp(`^/categories$`), status: [200], schema: 'store/category-list' },
  { method: 'GET', pattern: new RegExp(`^/categories/${ID}$`), status: [200], schema: 'store/category' },
  { method: 'POST', pattern: new RegExp(`^/categories$`), status: [200, 201], schema: 'store/category' },
  { method: 'PUT', pattern: new RegExp(`^/categories/${ID}$`), status: [200], schema: 'store/category' },
];

/** `path` is relative to the store base (/v1/{store_id}), without the query. */
export function storeResponseSchema(method: string, path: string, status: number): string | undefined {
  // Errors: "422 — a JSON object whose keys are field names and whose values are arrays of message strings".
  if (status === 422) return 'store/error-validation';
  return STORE_RESPONSE_ROUTES.find((r) => r.method === method && r.status.includes(status) && r.pattern.test(path))?.schema;
}
