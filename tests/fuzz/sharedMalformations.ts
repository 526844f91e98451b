/**
 * The malformations any route of either twin can meet, weighted by what the
 * route reads. Each API adds its own: wrong member types for its bodies, and
 * odd values for its path parameters.
 */
import fc from 'fast-check';
import type { FuzzRoute } from './fuzzRoute.ts';
import type { HeaderChange, Malformation } from './malformation.ts';
import { badJsonArb, brokenHttpArb, emptyBodyArb, hugeBodyArb, nonObjectJsonArb, oddMethodArb, routeChangeArb } from './malformedValues.ts';

export interface RouteReads {
  readonly headerChanges: fc.Arbitrary<HeaderChange>;
  /** Whether the route reads a JSON body (a write): body malformations weigh more. */
  readonly takesBody: boolean;
  /** A bad query parameter of this API, and how much query malformations weigh on a GET. */
  readonly queryParam: fc.Arbitrary<readonly [string, string]>;
  readonly queryWeightOnGet: number;
  /** The name a repeated parameter takes when the case has none to repeat. */
  readonly repeatedName: string;
}

export function sharedMalformations(route: FuzzRoute, reads: RouteReads): fc.WeightedArbitrary<Malformation>[] {
  const bodyWeight = (weight: number) => (reads.takesBody ? weight : 1);
  return [
    { weight: 4, arbitrary: reads.headerChanges.map((change) => ({ kind: 'header', change })) },
    { weight: bodyWeight(3), arbitrary: badJsonArb.map((bytes) => ({ kind: 'bad-json', body: bytes })) },
    { weight: bodyWeight(3), arbitrary: nonObjectJsonArb.map((json) => ({ kind: 'non-object-json', json })) },
    { weight: 1, arbitrary: hugeBodyArb },
    { weight: bodyWeight(2), arbitrary: emptyBodyArb },
    { weight: 1, arbitrary: routeChangeArb.map((change) => ({ kind: 'unknown-route', change })) },
    { weight: 2, arbitrary: oddMethodArb(route.method).map((method) => ({ kind: 'odd-method', method })) },
    {
      weight: route.method === 'GET' ? reads.queryWeightOnGet : 1,
      arbitrary: fc
        .array(reads.queryParam, { minLength: 1, maxLength: 3 })
        .chain((pairs) =>
          // A repeated parameter: the same name again with another value.
          fc.oneof(
            fc.constant(pairs),
            reads.queryParam.map(([, value]) => [...pairs, [pairs[0]?.[0] ?? reads.repeatedName, value] as const]),
          ),
        )
        .map((pairs): Malformation => ({ kind: 'bad-query', params: pairs })),
    },
    { weight: 1, arbitrary: brokenHttpArb.map((how) => ({ kind: 'broken-http', how })) },
  ];
}
