/**
 * The Store API routes the fuzzer walks: one entry per method of each route
 * definition of the twin (src/twins/store/routes/), in the order the twin's
 * router (routes/apiRoutes.ts) lists the modules. The paths are relative to
 * /v1/{store_id}.
 */
import { categoryRoutes } from '../../../src/twins/store/routes/categoryRoutes.ts';
import { productRoutes } from '../../../src/twins/store/routes/productRoutes.ts';
import { storeRoutes } from '../../../src/twins/store/routes/storeRoutes.ts';
import { webhookRoutes } from '../../../src/twins/store/routes/webhookRoutes.ts';
import type { ApiContext } from '../../../src/twins/store/apiContext.ts';
import type { RouteDefinition } from '../../../src/twins/store/router.ts';
import { fuzzRoute, type FuzzRoute } from '../fuzzRoute.ts';

const DEFINITIONS: readonly RouteDefinition<ApiContext>[] = [...storeRoutes, ...productRoutes, ...categoryRoutes, ...webhookRoutes];

/** Every method of every Store API route, `GET products/:id` style. */
export function storeFuzzRoutes(): FuzzRoute[] {
  return DEFINITIONS.flatMap((definition) =>
    Object.keys(definition.methods).map((method) => fuzzRoute(method, definition.path, (segment) => (segment.startsWith(':') ? segment.slice(1) : undefined))),
  );
}

/** The methods the twin defines for a path template, with HEAD after GET (the Router's Allow). */
export function definedMethods(routes: readonly FuzzRoute[], path: string): string[] {
  return routes.filter((route) => route.path === path).flatMap((route) => (route.method === 'GET' ? ['GET', 'HEAD'] : [route.method]));
}

/** What the parameter at segment `index` names: the literal before it (`products/:id` a product, `products/sku/:sku` a SKU). */
export function paramResource(route: FuzzRoute, index: number): string {
  const owner = route.segments[index - 1];
  return owner && 'literal' in owner ? owner.literal : '';
}
