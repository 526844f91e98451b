import { collectionResponse, recordBody, type ApiContext } from '../apiContext.ts';
import { MISSING, StoreApiError } from '../errors.ts';
import { inTimeWindow, readBooleanFilter, readFields, readIdFilter, readTextFilter, readTimeWindow } from '../queryFilters.ts';
import { parseNumericId } from '../../serving/requestTarget.ts';
import { jsonResponse, type TwinResponse } from '../responses.ts';
import type { RouteDefinition } from '../router.ts';
import { createProductImage, renderImage } from '../resources/images.ts';
import { createProduct, deleteProduct, findProductBySku, renderProduct, updateProduct } from '../resources/products.ts';
import type { Product } from '../records.ts';
import { renderVariant } from '../resources/variants.ts';
import { foldText } from '../../../text/foldText.ts';
import { sortedProducts } from '../productOrder.ts';
import { parsePageRequest } from '../pagination.ts';

function productOr404(context: ApiContext, rawId: string | undefined): Product {
  const id = parseNumericId(rawId);
  const product = id === undefined ? undefined : context.store.products.get(id);
  if (!product) throw StoreApiError.standard(404, MISSING.product);
  return product;
}

/**
 * store.products.list, store.products.filters; store.pagination.filters-with-pages: the filters choose the results, then
 * they are paged; store.products.sort-by: in the order sort_by names, across the pages.
 */
function listProducts(context: ApiContext): TwinResponse {
  const { query, store } = context;
  const sinceId = readIdFilter(query, 'since_id');
  const window = readTimeWindow(query);
  const categoryId = readIdFilter(query, 'category_id');
  const published = readBooleanFilter(query, 'published');
  const handle = readTextFilter(query, 'handle');
  const text = readTextFilter(query, 'q');
  const needle = text === undefined ? undefined : foldText(text);
  const withinPages = store.twinBreak === 'sort-within-page-only' ? parsePageRequest(query).perPage : undefined;
  const ordered = sortedProducts(store.products.values(), readTextFilter(query, 'sort_by'), store.mainLanguage, withinPages);
  return collectionResponse(context, ordered, {
    accept: (product) =>
      (sinceId === undefined || product.id > sinceId) &&
      inTimeWindow(window, product.createdAt, product.updatedAt) &&
      (categoryId === undefined || product.categoryIds.includes(categoryId)) &&
      (published === undefined || product.published === published) &&
      (handle === undefined || Object.values(product.handle).includes(handle)) &&
      (needle === undefined || product.searchText.includes(needle)),
    render: (product) => renderProduct(store, product),
    emptyIs404: true,
    fields: readFields(query),
  });
}

export const productRoutes: readonly RouteDefinition<ApiContext>[] = [
  {
    path: 'products',
    methods: {
      GET: listProducts,
      // store.writes.create-reflected: the answer is the product as created, the same render a read by its id gives.
      POST: (context) => jsonResponse(201, renderProduct(context.store, createProduct(context.store, context.body ?? {}))),
    },
  },
  {
    path: 'products/sku/:sku',
    methods: {
      GET: (context, params) => {
        let sku: string | undefined;
        try {
          sku = decodeURIComponent(params['sku'] ?? '');
        } catch {
          sku = undefined; // bad percent-encoding names no SKU
        }
        const product = sku === undefined ? undefined : findProductBySku(context.store, sku);
        if (!product) throw StoreApiError.standard(404, MISSING.productSku);
        return jsonResponse(
          200,
          recordBody(context, 'products', product, (p) => renderProduct(context.store, p)),
        );
      },
    },
  },
  {
    path: 'products/:id',
    methods: {
      // store.products.fetched-by-id: the product of the id in the path.
      GET: (context, params) => {
        const product = productOr404(context, params['id']);
        return jsonResponse(
          200,
          recordBody(context, 'products', product, (p) => renderProduct(context.store, p)),
        );
      },
      // store.writes.update-reflected: the answer renders the product as updated, as later reads do.
      PUT: (context, params) => {
        const product = productOr404(context, params['id']);
        updateProduct(context.store, product, context.body ?? {});
        return jsonResponse(200, renderProduct(context.store, product));
      },
      // store.writes.delete-gone: the product leaves the store's records, so every later read answers 404.
      DELETE: (context, params) => {
        deleteProduct(context.store, productOr404(context, params['id']));
        return jsonResponse(200, {});
      },
    },
  },
  {
    path: 'products/:id/images',
    methods: {
      GET: (context, params) =>
        collectionResponse(context, productOr404(context, params['id']).images, { accept: () => true, render: renderImage, emptyIs404: false }),
      POST: (context, params) => {
        const product = productOr404(context, params['id']);
        return jsonResponse(201, renderImage(createProductImage(context.store, product, context.body ?? {})));
      },
    },
  },
  {
    path: 'products/:id/variants',
    methods: {
      GET: (context, params) =>
        collectionResponse(context, productOr404(context, params['id']).variants, {
          accept: () => true,
          render: (variant) => renderVariant(context.store, variant),
          emptyIs404: false,
        }),
    },
  },
];
