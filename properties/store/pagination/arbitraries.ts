/** What the store pagination properties generate: page sizes for a walk, out-of-range asks, and the writes made during a walk. */
import fc from 'fast-check';
import { STORE_CONTRACT } from '../../../src/rules/storeContract.ts';
import { pageSize, type OutOfRangeAsk } from './oracle.ts';

const { defaultPerPage, maxPerPage } = STORE_CONTRACT;

export interface WalkCase {
  readonly products: number;
  readonly perPage: number | undefined;
}

const perPageArbitrary = fc.option(fc.oneof(fc.constantFrom(1, 2, defaultPerPage, maxPerPage - 1, maxPerPage), fc.integer({ min: 1, max: maxPerPage })), {
  nil: undefined,
  freq: 4,
});

/** Sizes around the page boundaries (0, 1, a page, a page ± 1, two), over the maximum page, and anything to 450. */
export const walkCaseArbitrary: fc.Arbitrary<WalkCase> = fc
  .tuple(
    perPageArbitrary,
    fc.oneof(
      fc.constantFrom(0, 1).map((n) => ({ n })),
      fc.record({ pages: fc.integer({ min: 1, max: 2 }), plus: fc.integer({ min: -1, max: 1 }) }),
      fc.integer({ min: maxPerPage + 1, max: maxPerPage + 40 }).map((n) => ({ n })),
      fc.integer({ min: 0, max: 450 }).map((n) => ({ n })),
    ),
  )
  .map(([perPage, shape]) => ({ perPage, products: 'n' in shape ? shape.n : Math.max(0, shape.pages * pageSize(perPage).served + shape.plus) }));

const positiveInteger = /^0*[1-9][0-9]*$/;

/** per_page over 200 (up to absurdly large), or a page/per_page that is not a positive integer: 0, negative, decimal, words. */
export const outOfRangeArbitrary: fc.Arbitrary<OutOfRangeAsk> = fc.oneof(
  fc
    .oneof(fc.constantFrom(maxPerPage + 1, 250, 1_000), fc.integer({ min: maxPerPage + 1, max: 1_000_000 }))
    .map((n) => ({ param: 'per_page' as const, value: String(n), over: true as const })),
  fc
    .record({
      param: fc.constantFrom('page' as const, 'per_page' as const),
      value: fc.oneof(
        fc.constantFrom('0', '00', '-1', '1.5', 'abc'),
        fc.integer({ min: -1_000_000, max: -1 }).map(String),
        fc.string({ minLength: 1, maxLength: 8 }).filter((s) => !positiveInteger.test(s)),
      ),
    })
    .map((r) => ({ ...r, over: false as const })),
);

export type Write = { readonly op: 'create' } | { readonly op: 'delete'; readonly pick: number };

export interface ConcurrentCase {
  readonly products: number;
  readonly perPage: number;
  /** The raw Link walk, or the client's iterateProducts. */
  readonly via: 'links' | 'iterator';
  /** Writes after page 1, after page 2, ...; the pages after the last gap are quiet. */
  readonly gaps: readonly (readonly Write[])[];
}

// Deletes weigh double: enough of them shrink the collection under the cursor, so a next page can be gone.
const writeArbitrary: fc.Arbitrary<Write> = fc.oneof(
  { arbitrary: fc.constant({ op: 'create' as const }), weight: 1 },
  { arbitrary: fc.nat(999).map((pick) => ({ op: 'delete' as const, pick })), weight: 2 },
);

/** Half the cases only append, so the stronger promise of an append-only walk is checked often. */
export const concurrentCaseArbitrary: fc.Arbitrary<ConcurrentCase> = fc
  .record({
    products: fc.integer({ min: 0, max: 24 }),
    perPage: fc.integer({ min: 1, max: 6 }),
    via: fc.constantFrom('links' as const, 'iterator' as const),
    appendsOnly: fc.boolean(),
    gaps: fc.array(fc.array(writeArbitrary, { maxLength: 4 }), { maxLength: 8 }),
  })
  .map(({ appendsOnly, gaps, ...rest }) => ({ ...rest, gaps: appendsOnly ? gaps.map((g) => g.filter((w) => w.op === 'create')) : gaps }));
