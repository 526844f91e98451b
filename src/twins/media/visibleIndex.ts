/**
 * The records a plain index (`GET /anime`) lists for a viewer: those they may
 * read (media.visibility.adult-hidden-from-lists), filtered and sorted. Every GET of the same list asked the same
 * question of every record of the type, so the answer is kept in the render
 * cache (src/twins/serving/renderCache.ts), which every write empties: the same
 * rule, and the same moment, as the rendered records it is listed with.
 */
import { canRead, viewerKey } from './access.ts';
import type { RecordPredicate } from './jsonapi/filters.ts';
import type { RawFilter } from './jsonapi/query.ts';
import type { RecordComparator } from './jsonapi/sort.ts';
import type { MediaState } from './mediaState.ts';
import type { MediaRecord, Viewer } from './model.ts';

export interface IndexSelection {
  /** The filters as read, and the compiled predicate of exactly those. */
  readonly filters: readonly RawFilter[];
  readonly accept: RecordPredicate;
  /** `sort` as sent, and the compiled order of exactly that. */
  readonly sort: string | undefined;
  readonly order: RecordComparator;
}

/** The viewer's readable records of `type` that `selection` keeps, in its order; shared between requests, so never to be changed. */
export function visibleIndex(state: MediaState, viewer: Viewer, type: string, selection: IndexSelection): readonly MediaRecord[] {
  // Filters and sort are all the request adds: the key names them with the type and who asks.
  const key = `index\u0000${type}\u0000${viewerKey(viewer)}\u0000${JSON.stringify(selection.filters)}\u0000${selection.sort ?? ''}`;
  return state.rendered.derived(key, () =>
    state
      .all(type)
      .filter((record) => canRead(state, viewer, record) && selection.accept(record))
      .sort(selection.order),
  );
}
