/** What the media pagination properties generate: page[limit] and page[offset] choices, and the library writes made during a walk. */
import fc from 'fast-check';
import { MEDIA_SEED } from '../../../src/twins/media/seedFacts.ts';

/** page[limit], independent of the collection; resolved against its maximum. */
export type LimitChoice =
  | { readonly kind: 'absent' }
  | { readonly kind: 'small'; readonly n: number }
  | { readonly kind: 'within'; readonly n: number }
  | { readonly kind: 'max' }
  | { readonly kind: 'over'; readonly by: number }
  | { readonly kind: 'zero' };

/** page[offset], independent of the collection; resolved against its size. */
export type OffsetChoice =
  | { readonly kind: 'absent' }
  | { readonly kind: 'at'; readonly n: number }
  | { readonly kind: 'inside'; readonly k: number }
  | { readonly kind: 'fromEnd'; readonly back: number }
  | { readonly kind: 'past'; readonly by: number };

export interface PagingCase {
  readonly collection: string;
  readonly limit: LimitChoice;
  readonly offset: OffsetChoice;
}

export const limitChoice: fc.Arbitrary<LimitChoice> = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 5 }).map((n) => ({ kind: 'small', n }) as const), weight: 4 },
  { arbitrary: fc.integer({ min: 1, max: 25 }).map((n) => ({ kind: 'within', n }) as const), weight: 3 },
  { arbitrary: fc.constant({ kind: 'absent' } as const), weight: 1 },
  { arbitrary: fc.constant({ kind: 'max' } as const), weight: 1 },
  { arbitrary: fc.integer({ min: 1, max: 3 }).map((by) => ({ kind: 'over', by }) as const), weight: 1 },
  { arbitrary: fc.constant({ kind: 'zero' } as const), weight: 1 },
);

export const offsetChoice: fc.Arbitrary<OffsetChoice> = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 45 }).map((n) => ({ kind: 'at', n }) as const), weight: 2 },
  { arbitrary: fc.integer({ min: 0, max: 45 }).map((k) => ({ kind: 'inside', k }) as const), weight: 2 },
  { arbitrary: fc.constant({ kind: 'absent' } as const), weight: 2 },
  { arbitrary: fc.integer({ min: 1, max: 3 }).map((back) => ({ kind: 'fromEnd', back }) as const), weight: 1 },
  { arbitrary: fc.integer({ min: 0, max: 5 }).map((by) => ({ kind: 'past', by }) as const), weight: 1 },
);

/** Library entries the owner creates or deletes between two pages of the walk. */
export type LibraryWrite = { readonly kind: 'create'; readonly anime: number } | { readonly kind: 'delete'; readonly pick: number };

export interface ConcurrentCase {
  readonly limit: number;
  readonly offset: number;
  /** Writes before page i + 1 (i from 0); more lists than pages are never used. */
  readonly between: readonly (readonly LibraryWrite[])[];
}

export const libraryWrite: fc.Arbitrary<LibraryWrite> = fc.oneof(
  fc.integer({ min: 1, max: MEDIA_SEED.animeCount }).map((anime) => ({ kind: 'create', anime }) as const),
  fc.nat(20).map((pick) => ({ kind: 'delete', pick }) as const),
);
