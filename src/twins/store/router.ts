import type { TwinResponse } from './responses.ts';

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type RouteHandler<C> = (context: C, params: Readonly<Record<string, string>>) => TwinResponse | Promise<TwinResponse>;

/** One path and the handlers of its methods; `:name` segments are parameters. */
export interface RouteDefinition<C> {
  readonly path: string;
  readonly methods: Readonly<Partial<Record<RouteMethod, RouteHandler<C>>>>;
}

export type RouteMatch<C> =
  | { readonly kind: 'found'; readonly handler: RouteHandler<C>; readonly params: Readonly<Record<string, string>> }
  | { readonly kind: 'method-not-allowed'; readonly allow: string }
  | { readonly kind: 'not-found' };

const METHOD_ORDER: readonly RouteMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

interface CompiledRoute<C> {
  readonly segments: readonly string[];
  readonly methods: Readonly<Partial<Record<RouteMethod, RouteHandler<C>>>>;
  readonly allow: string;
}

/**
 * Matches path segments to routes, first match wins (list literal paths such
 * as `products/sku/:sku` before `products/:id`). A known path with another
 * method is 405 with Allow; HEAD runs the GET handler.
 */
export class Router<C> {
  readonly #routes: readonly CompiledRoute<C>[];

  constructor(routes: readonly RouteDefinition<C>[]) {
    this.#routes = routes.map((route) => {
      const methods = METHOD_ORDER.filter((method) => route.methods[method] !== undefined);
      const allow = methods.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method])).join(', ');
      return { segments: route.path.split('/'), methods: route.methods, allow };
    });
  }

  match(method: string, segments: readonly string[]): RouteMatch<C> {
    for (const route of this.#routes) {
      const params = matchSegments(route.segments, segments);
      if (params === undefined) continue;
      const key = method === 'HEAD' ? 'GET' : method;
      const handler = isRouteMethod(key) ? route.methods[key] : undefined;
      return handler ? { kind: 'found', handler, params } : { kind: 'method-not-allowed', allow: route.allow };
    }
    return { kind: 'not-found' };
  }
}

function isRouteMethod(method: string): method is RouteMethod {
  return (METHOD_ORDER as readonly string[]).includes(method);
}

function matchSegments(pattern: readonly string[], segments: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i += 1) {
    const expected = pattern[i] ?? '';
    const actual = segments[i] ?? '';
    if (expected.startsWith(':')) {
      if (actual === '') return undefined;
      params[expected.slice(1)] = actual;
    } else if (expected !== actual) {
      return undefined;
    }
  }
  return params;
}
