import { FieldErrors } from '../errors.ts';
import { foldText } from '../../../text/foldText.ts';
import { applyHandleWrite, applyLocalizedWrite, isBlankWrite, renderLocalized, type LocalizedWrite } from '../localized.ts';
import type { StoreState } from '../storeState.ts';
import { formatTimestamp } from '../timestamps.ts';
import { renderCategory } from './categories.ts';
import { addImage, readImageDraft, renderImage } from './images.ts';
import { prereadProductName, storedLocalizedWrite } from '../twinBreaks.ts';
import { describeValue, hasField, readBoolean, readLocalizedField, readLocalizedList, readNullableString, readString } from './inputFields.ts';
import { storeDomain } from './storeInfo.ts';
import { buildVariant, readVariantDraft, renderVariant, type VariantDraft } from './variants.ts';
import type { Product } from '../records.ts';

export function indexForSearch(product: Product): void {
  const parts = [...Object.values(product.name), product.tags, ...product.variants.map((variant) => variant.sku ?? '')];
  product.searchText = foldText(parts.join('\n'));
}

/** The storefront URL of the product's main-language handle. */
export function canonicalUrl(store: StoreState, product: Product): string {
  const section = store.mainLanguage === 'pt' ? 'produtos' : store.mainLanguage === 'en' ? 'products' : 'productos';
  return `https://${storeDomain(store)}/${section}/${product.handle[store.mainLanguage] ?? ''}/`;
}

/** The product as answered; categories are full category objects (field notes). */
export function renderProduct(store: StoreState, product: Product): Record<string, unknown> {
  const categories: Record<string, unknown>[] = [];
  for (const id of product.categoryIds) {
    const category = store.categories.get(id);
    if (category) categories.push(renderCategory(store, category));
  }
  return {
    id: product.id,
    name: renderLocalized(product.name, store.languages),
    description: renderLocalized(product.description, store.languages),
    handle: renderLocalized(product.handle, store.languages),
    attributes: product.attributes.map((attribute) => renderLocalized(attribute, store.languages)),
    published: product.published,
    free_shipping: product.freeShipping,
    requires_shipping: product.requiresShipping,
    canonical_url: canonicalUrl(store, product),
    video_url: product.videoUrl,
    seo_title: product.seoTitle,
    seo_description: product.seoDescription,
    brand: product.brand,
    tags: product.tags,
    created_at: formatTimestamp(product.createdAt),
    updated_at: formatTimestamp(product.updatedAt),
    variants: product.variants.map((variant) => renderVariant(store, variant)),
    images: product.images.map(renderImage),
    categories,
  };
}

interface ProductChanges {
  name?: LocalizedWrite;
  description?: LocalizedWrite;
  handle?: LocalizedWrite;
  attributes?: LocalizedWrite[];
  published?: boolean;
  freeShipping?: boolean;
  requiresShipping?: boolean;
  videoUrl?: string | null;
  seoTitle?: string;
  seoDescription?: string;
  brand?: string | null;
  tags?: string;
  categoryIds?: number[];
}

function readProductChanges(store: StoreState, input: Readonly<Record<string, unknown>>, creating: boolean, errors: FieldErrors): ProductChanges {
  const changes: ProductChanges = {};
  prereadProductName(store.twinBreak, input['name']);
  const name = readLocalizedField(input, 'name', store.languages, errors);
  if (name !== undefined) {
    if (isBlankWrite(name)) errors.add('name', "can't be blank");
    else changes.name = storedLocalizedWrite(store.twinBreak, input['name'], name, store.mainLanguage);
  } else if (creating && !errors.has('name')) {
    errors.add('name', "can't be blank");
  }
  const set = <K extends keyof ProductChanges>(key: K, value: ProductChanges[K] | undefined): void => {
    if (value !== undefined) changes[key] = value;
  };
  set('description', readLocalizedField(input, 'description', store.languages, errors));
  set('handle', readLocalizedField(input, 'handle', store.languages, errors));
  set('attributes', readLocalizedList(input, 'attributes', store.languages, errors));
  set('published', readBoolean(input, 'published', errors));
  set('freeShipping', readBoolean(input, 'free_shipping', errors));
  set('requiresShipping', readBoolean(input, 'requires_shipping', errors));
  set('videoUrl', readNullableString(input, 'video_url', errors));
  set('seoTitle', readString(input, 'seo_title', errors));
  set('seoDescription', readString(input, 'seo_description', errors));
  set('brand', readNullableString(input, 'brand', errors));
  set('tags', readTags(input, errors));
  set('categoryIds', readCategoryIds(store, input, errors));
  return changes;
}

/** Tags as a comma-separated string or an array of strings; answered as one string. */
function readTags(input: Readonly<Record<string, unknown>>, errors: FieldErrors): string | undefined {
  if (!hasField(input, 'tags')) return undefined;
  const value = input['tags'];
  if (value === null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((tag) => typeof tag === 'string')) return value.join(', ');
  errors.add('tags', 'must be a comma-separated string or an array of strings');
  return undefined;
}

/** Categories are written as ids (field notes: "ids in requests"). */
function readCategoryIds(store: StoreState, input: Readonly<Record<string, unknown>>, errors: FieldErrors): number[] | undefined {
  if (!hasField(input, 'categories')) return undefined;
  const value = input['categories'];
  if (!Array.isArray(value)) {
    errors.add('categories', 'must be an array of category ids');
    return undefined;
  }
  const ids: number[] = [];
  for (const id of value) {
    if (typeof id !== 'number' || !store.categories.has(id)) errors.add('categories', `${describeValue(id)} is not the id of a category of this store`);
    else if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/**
 * store.products.create, store.products.create-201: POST /products. Without
 * variants the product gets one default variant (field notes).
 */
export function createProduct(store: StoreState, input: Readonly<Record<string, unknown>>): Product {
  const errors = new FieldErrors();
  const changes = readProductChanges(store, input, true, errors);
  const variantDrafts = readList(input, 'variants', errors, (item) => readVariantDraft(item, store.languages, errors));
  const imageDrafts = readList(input, 'images', errors, (item) => readImageDraft(store, item, errors));
  errors.throwIfAny();
  const now = store.timestamp();
  const name = applyLocalizedWrite(undefined, changes.name ?? {}, store.languages);
  const product: Product = {
    id: store.nextId(),
    name,
    description: applyLocalizedWrite(undefined, changes.description ?? {}, store.languages),
    handle: applyHandleWrite(undefined, changes.handle, name, store.languages),
    attributes: (changes.attributes ?? []).map((write) => applyLocalizedWrite(undefined, write, store.languages)),
    published: changes.published ?? true,
    freeShipping: changes.freeShipping ?? false,
    requiresShipping: changes.requiresShipping ?? true,
    videoUrl: changes.videoUrl ?? null,
    // The documented create response shows seo_title filled from the name.
    seoTitle: changes.seoTitle ?? name[store.mainLanguage] ?? '',
    seoDescription: changes.seoDescription ?? '',
    brand: changes.brand ?? null,
    tags: changes.tags ?? '',
    createdAt: now,
    updatedAt: now,
    variants: [],
    images: [],
    categoryIds: changes.categoryIds ?? [],
    searchText: '',
  };
  const drafts: VariantDraft[] = variantDrafts && variantDrafts.length > 0 ? variantDrafts : [{}];
  product.variants = drafts.map((draft, index) => buildVariant(store, product.id, index + 1, draft, now));
  for (const draft of imageDrafts ?? []) addImage(store, product, draft, now);
  indexForSearch(product);
  store.products.set(product.id, product);
  store.emit('product/created', product.id);
  return product;
}

function readList<T>(
  input: Readonly<Record<string, unknown>>,
  field: string,
  errors: FieldErrors,
  readItem: (item: unknown) => T | undefined,
): T[] | undefined {
  if (!hasField(input, field)) return undefined;
  const value = input[field];
  if (!Array.isArray(value)) {
    errors.add(field, `must be an array of ${field === 'images' ? 'image' : 'variant'} objects`);
    return undefined;
  }
  return value.flatMap((item) => {
    const read = readItem(item);
    return read === undefined ? [] : [read];
  });
}

/**
 * store.products.crud: PUT /products/{id}. Only named fields change (a name
 * change keeps the handle); variants and images are left to their own
 * resources. An update that changes nothing leaves updated_at alone.
 */
export function updateProduct(store: StoreState, product: Product, input: Readonly<Record<string, unknown>>): void {
  const errors = new FieldErrors();
  const changes = readProductChanges(store, input, false, errors);
  errors.throwIfAny();
  const before = JSON.stringify(renderProduct(store, product));
  if (changes.name) product.name = applyLocalizedWrite(product.name, changes.name, store.languages);
  if (changes.description) product.description = applyLocalizedWrite(product.description, changes.description, store.languages);
  if (changes.handle) product.handle = applyHandleWrite(product.handle, changes.handle, product.name, store.languages);
  if (changes.attributes) product.attributes = changes.attributes.map((write) => applyLocalizedWrite(undefined, write, store.languages));
  if (changes.published !== undefined) product.published = changes.published;
  if (changes.freeShipping !== undefined) product.freeShipping = changes.freeShipping;
  if (changes.requiresShipping !== undefined) product.requiresShipping = changes.requiresShipping;
  if (changes.videoUrl !== undefined) product.videoUrl = changes.videoUrl;
  if (changes.seoTitle !== undefined) product.seoTitle = changes.seoTitle;
  if (changes.seoDescription !== undefined) product.seoDescription = changes.seoDescription;
  if (changes.brand !== undefined) product.brand = changes.brand;
  if (changes.tags !== undefined) product.tags = changes.tags;
  if (changes.categoryIds !== undefined) product.categoryIds = changes.categoryIds;
  if (JSON.stringify(renderProduct(store, product)) === before) return;
  product.updatedAt = store.timestamp();
  indexForSearch(product);
  store.emit('product/updated', product.id);
}

/** store.products.crud: DELETE /products/{id}, that one only (store.writes.delete-removes-one). */
export function deleteProduct(store: StoreState, product: Product): void {
  store.products.delete(product.id);
  store.emit('product/deleted', product.id);
}

/** GET /products/sku/{sku}: the first product (lowest id) with a variant of that SKU. */
export function findProductBySku(store: StoreState, sku: string): Product | undefined {
  for (const product of store.products.values()) {
    if (product.variants.some((variant) => variant.sku === sku)) return product;
  }
  return undefined;
}
