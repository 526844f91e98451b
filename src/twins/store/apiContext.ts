import { jsonArray } from '../serving/jsonText.ts';
import { assertPageExists, paginationHeaders, parsePageRequest, selectPage } from './pagination.ts';
import { pickFields, readFields } from './queryFilters.ts';
import { jsonResponse, type TwinResponse } from './responses.ts';
import type { StoreState } from './storeState.ts';

/** What a Store API route handler sees once the pipeline has let the request through. */
export interface ApiContext {
  readonly store: StoreState;
  /** GET also for HEAD: HEAD runs the GET handler. */
  readonly method: string;
  readonly query: URLSearchParams;
  /** The JSON object body, undefined when the request had none. */
  readonly body: Readonly<Record<string, unknown>> | undefined;
  /** `http://{host}/v1/{store_id}`, from the request's Host header. */
  readonly storeUrl: string;
  /** The path after the store id: `products`, `products/12/images`. */
  readonly resourcePath: string;
}

export interface CollectionOptions<T extends object> {
  readonly accept: (item: T) => boolean;
  readonly render: (item: T) => Record<string, unknown>;
  /** Products and categories answer 404 "Last page is 0" when empty (see pagination.ts). */
  readonly emptyIs404: boolean;
  readonly fields?: ReadonlySet<string> | undefined;
}

/**
 * A paginated collection answer: a bare JSON array (store.pagination.collection-is-array),
 * X-Total-Count and Link headers, page past the last 404.
 */
export function collectionResponse<T extends object>(context: ApiContext, source: Iterable<T>, options: CollectionOptions<T>): TwinResponse {
  const request = parsePageRequest(context.query);
  const slice = selectPage(source, options.accept, request, context.store.twinBreak);
  assertPageExists(slice, request, { emptyIs404: options.emptyIs404 });
  const headers = paginationHeaders(slice, {
    collectionUrl: `${context.storeUrl}/${context.resourcePath}`,
    query: context.query,
    request,
    twinBreak: context.store.twinBreak,
  });
  const { fields, render } = options;
  // Whole records come from the render cache (the collection path names the render); a fields= pick is rendered afresh.
  const body = fields
    ? slice.items.map((item) => pickFields(render(item), fields))
    : jsonArray(slice.items.map((item) => context.store.rendered.json(item, context.resourcePath, () => render(item))));
  return jsonResponse(200, body, headers);
}

/**
 * One record as GET answers it: from the render cache under `collection` (the
 * path its list renders it under, so both share an entry), or with only the
 * `fields=` asked for.
 */
export function recordBody<T extends object>(context: ApiContext, collection: string, record: T, render: (record: T) => Record<string, unknown>): unknown {
  const fields = readFields(context.query);
  return fields ? pickFields(render(record), fields) : context.store.rendered.json(record, collection, () => render(record));
}
