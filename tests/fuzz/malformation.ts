/**
 * What the fuzzer does to a well-formed request of a route, one change per
 * case, so a counterexample names one cause. The oracles do not read this
 * label: they judge the request it produced (requestView.ts).
 */
import fc from 'fast-check';
import { previewBytes } from './rawRequest.ts';
import type { FuzzRoute } from './fuzzRoute.ts';

/** A header line removed, set (replacing every line of that name), or added (so the name may repeat). */
export type HeaderChange =
  | { readonly action: 'remove'; readonly name: string }
  | { readonly action: 'set'; readonly name: string; readonly value: string }
  | { readonly action: 'add'; readonly name: string; readonly value: string };

/** A path no route has: another first segment, segments past any route's depth, or another API version. */
export type RouteChange =
  | { readonly how: 'unknown-resource'; readonly segment: string }
  | { readonly how: 'extra-segments'; readonly segments: readonly string[] }
  | { readonly how: 'other-version'; readonly version: string };

/** Requests that break HTTP/1.1 itself, written with `node:net` since no client library sends them. */
export type BrokenHttp =
  | 'no-host'
  | 'control-char-in-header'
  | 'space-in-target'
  | 'raw-unicode-in-target'
  | 'bad-chunk'
  | 'length-and-chunked'
  | 'bad-content-length'
  | 'truncated-body';

export type Malformation =
  | { readonly kind: 'bad-json'; readonly body: Buffer }
  | { readonly kind: 'non-object-json'; readonly json: string }
  /** Members of the route's body replaced by values of a type the documentation does not take. */
  | { readonly kind: 'wrong-member-types'; readonly members: Readonly<Record<string, unknown>> }
  | { readonly kind: 'empty-body'; readonly framing: 'content-length-0' | 'chunked' | 'no-length' }
  | { readonly kind: 'huge-body'; readonly bytes: number; readonly framing: 'length' | 'chunked' }
  | { readonly kind: 'header'; readonly change: HeaderChange }
  | { readonly kind: 'unknown-route'; readonly change: RouteChange }
  | { readonly kind: 'odd-method'; readonly method: string }
  | { readonly kind: 'bad-query'; readonly params: readonly (readonly [string, string])[] }
  | { readonly kind: 'odd-path-param'; readonly param: string; readonly value: string }
  | { readonly kind: 'broken-http'; readonly how: BrokenHttp };

function preview(text: string, limit = 80): string {
  return text.length > limit ? `${JSON.stringify(text.slice(0, limit))}… (${text.length} chars)` : JSON.stringify(text);
}

function describeMalformation(malformation: Malformation): string {
  switch (malformation.kind) {
    case 'bad-json':
      return `body that is not JSON: ${previewBytes(malformation.body, 80)}`;
    case 'non-object-json':
      return `JSON body that is not an object: ${preview(malformation.json)}`;
    case 'wrong-member-types':
      return `members of the wrong type: ${preview(JSON.stringify(malformation.members))}`;
    case 'empty-body':
      return `empty body (${malformation.framing})`;
    case 'huge-body':
      return `huge body of ${malformation.bytes} bytes (${malformation.framing})`;
    case 'header': {
      const { change } = malformation;
      return change.action === 'remove'
        ? `header ${change.name} removed`
        : `header ${change.name} ${change.action === 'set' ? 'set to' : 'added as'} ${preview(change.value)}`;
    }
    case 'unknown-route': {
      const { change } = malformation;
      if (change.how === 'unknown-resource') return `unknown resource segment ${preview(change.segment)}`;
      if (change.how === 'extra-segments') return `extra path segments ${preview(change.segments.join('/'))}`;
      return `API version ${preview(change.version)}`;
    }
    case 'odd-method':
      return `method ${preview(malformation.method)}`;
    case 'bad-query':
      return `query ${preview(malformation.params.map(([key, value]) => `${key}=${value}`).join('&'))}`;
    case 'odd-path-param':
      return `path parameter ${malformation.param} = ${preview(malformation.value)}`;
    case 'broken-http':
      return `broken HTTP: ${malformation.how}`;
  }
}

/** One generated case: a route of the table and what is done to its request. */
export interface FuzzCase {
  readonly route: FuzzRoute;
  readonly malformation: Malformation;
}

/** A case that prints as one line in fast-check's reports (a huge body would otherwise be printed whole). */
export function fuzzCase(route: FuzzRoute, malformation: Malformation): FuzzCase {
  return {
    route,
    malformation,
    [fc.toStringMethod]: () => `${route.key} with ${describeMalformation(malformation)}`,
  } as FuzzCase;
}
