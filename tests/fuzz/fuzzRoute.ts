/**
 * A route of a twin's table as the fuzzer walks it: one method and one path
 * template, its segments split into literals and named parameters.
 */

export type PathSegment = { readonly literal: string } | { readonly param: string };

export interface FuzzRoute {
  /** `GET products/:id`, `PATCH /anime/{id}`: the route as its table writes it. */
  readonly key: string;
  readonly method: string;
  readonly path: string;
  readonly segments: readonly PathSegment[];
}

/** Splits a template; `param` tells a parameter segment (`:id`, `{id}`) and returns its name. */
export function fuzzRoute(method: string, path: string, param: (segment: string) => string | undefined): FuzzRoute {
  const segments = path
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment): PathSegment => {
      const name = param(segment);
      return name === undefined ? { literal: segment } : { param: name };
    });
  return { key: `${method} ${path}`, method, path, segments };
}

export function paramNames(route: FuzzRoute): string[] {
  return route.segments.flatMap((segment) => ('param' in segment ? [segment.param] : []));
}

/** Whether raw path segments fit the route's template (literals equal, parameters not empty). */
export function matchesPath(route: FuzzRoute, segments: readonly string[]): boolean {
  return (
    route.segments.length === segments.length &&
    route.segments.every((segment, i) => ('literal' in segment ? segment.literal === segments[i] : (segments[i] ?? '') !== ''))
  );
}

/** The raw value of each parameter in `segments` (which fit the route). */
export function paramValues(route: FuzzRoute, segments: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  route.segments.forEach((segment, i) => {
    if ('param' in segment) values[segment.param] = segments[i] ?? '';
  });
  return values;
}
