import { collectionResponse, recordBody, type ApiContext } from '../apiContext.ts';
import { MISSING, StoreApiError } from '../errors.ts';
import { inTimeWindow, readFields, readIdFilter, readTextFilter, readTimeWindow } from '../queryFilters.ts';
import { parseNumericId } from '../../serving/requestTarget.ts';
import { jsonResponse, type TwinResponse } from '../responses.ts';
import type { RouteDefinition } from '../router.ts';
import { createCategory, deleteCategory, renderCategory, updateCategory } from '../resources/categories.ts';
import type { Category } from '../records.ts';

/** A non-numeric or unknown id: 404 (store.errors.missing-resource-404). */
function categoryOr404(context: ApiContext, rawId: string | undefined): Category {
  const id = parseNumericId(rawId);
  const category = id === undefined ? undefined : context.store.categories.get(id);
  if (!category) throw StoreApiError.standard(404, MISSING.category);
  return category;
}

function listCategories(context: ApiContext): TwinResponse {
  const { query, store } = context;
  const sinceId = readIdFilter(query, 'since_id');
  // parent_id=0 lists the top-level categories (see ASSUMPTIONS.md).
  const parentId = readIdFilter(query, 'parent_id');
  const handle = readTextFilter(query, 'handle');
  const window = readTimeWindow(query);
  return collectionResponse(context, store.categories.values(), {
    accept: (category) =>
      (sinceId === undefined || category.id > sinceId) &&
      (parentId === undefined || (category.parentId ?? 0) === parentId) &&
      (handle === undefined || Object.values(category.handle).includes(handle)) &&
      inTimeWindow(window, category.createdAt, category.updatedAt),
    render: (category) => renderCategory(store, category),
    emptyIs404: true,
    fields: readFields(query),
  });
}

/** store.categories.get-category, store.categories.crud */
export const categoryRoutes: readonly RouteDefinition<ApiContext>[] = [
  {
    path: 'categories',
    methods: {
      GET: listCategories,
      // store.writes.create-reflected: the answer is the category as created, the same render a read by its id gives.
      POST: (context) => jsonResponse(201, renderCategory(context.store, createCategory(context.store, context.body ?? {}))),
    },
  },
  {
    path: 'categories/:id',
    methods: {
      // store.categories.fetched-by-id: the category of the id in the path.
      GET: (context, params) =>
        jsonResponse(
          200,
          recordBody(context, 'categories', categoryOr404(context, params['id']), (c) => renderCategory(context.store, c)),
        ),
      // store.writes.update-reflected: the answer renders the category as updated, as later reads do.
      PUT: (context, params) => {
        const category = categoryOr404(context, params['id']);
        updateCategory(context.store, category, context.body ?? {});
        return jsonResponse(200, renderCategory(context.store, category));
      },
      // store.writes.delete-gone: the category leaves the store's records, so every later read answers 404.
      DELETE: (context, params) => {
        deleteCategory(context.store, categoryOr404(context, params['id']));
        return jsonResponse(200, {});
      },
    },
  },
];
