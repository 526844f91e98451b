import { FieldErrors, StoreApiError } from '../errors.ts';
import { applyHandleWrite, applyLocalizedWrite, isBlankWrite, renderLocalized, type LocalizedWrite } from '../localized.ts';
import type { StoreState } from '../storeState.ts';
import type { Category } from '../records.ts';
import { formatTimestamp } from '../timestamps.ts';
import { describeValue, hasField, readLocalizedField, readNullableString } from './inputFields.ts';

/** The real service's category limit, from its 422 "limit" error (field notes). */
export const MAX_CATEGORIES = 5000;

/**
 * The category as answered (store.categories.get-category): parent is the
 * parent's id or null (store.categories.parent-null-top-level), subcategories
 * the ids of the direct children, [] when none
 * (store.categories.subcategories-empty-array, store.categories.tree-references).
 */
export function renderCategory(store: StoreState, category: Category): Record<string, unknown> {
  return {
    id: category.id,
    name: renderLocalized(category.name, store.languages),
    description: renderLocalized(category.description, store.languages),
    handle: renderLocalized(category.handle, store.languages),
    parent: category.parentId,
    subcategories: store.childrenOf(category.id),
    google_shopping_category: category.googleShoppingCategory,
    created_at: formatTimestamp(category.createdAt),
    updated_at: formatTimestamp(category.updatedAt),
  };
}

interface CategoryChanges {
  name?: LocalizedWrite;
  description?: LocalizedWrite;
  handle?: LocalizedWrite;
  parentId?: number | null;
  googleShoppingCategory?: string | null;
}

function readCategoryChanges(store: StoreState, input: Readonly<Record<string, unknown>>, current: Category | undefined): CategoryChanges {
  const errors = new FieldErrors();
  const changes: CategoryChanges = {};
  const name = readLocalizedField(input, 'name', store.languages, errors);
  if (name !== undefined) {
    if (isBlankWrite(name)) errors.add('name', "can't be blank");
    else changes.name = name;
  } else if (current === undefined && !errors.has('name')) {
    errors.add('name', "can't be blank"); // only name is required on create (field notes)
  }
  const description = readLocalizedField(input, 'description', store.languages, errors);
  if (description !== undefined) changes.description = description;
  const handle = readLocalizedField(input, 'handle', store.languages, errors);
  if (handle !== undefined) changes.handle = handle;
  if (hasField(input, 'parent')) {
    const parent = input['parent'];
    if (parent === null) changes.parentId = null;
    else if (typeof parent !== 'number' || !store.categories.has(parent)) {
      errors.add('parent', `must be the id of a category of this store or null, got ${describeValue(parent)}`);
    } else if (current !== undefined && (parent === current.id || isDescendantOf(store, parent, current.id))) {
      errors.add('parent', "can't be the category itself or one of its subcategories");
    } else changes.parentId = parent;
  }
  const google = readNullableString(input, 'google_shopping_category', errors);
  if (google !== undefined) changes.googleShoppingCategory = google;
  errors.throwIfAny();
  return changes;
}

function isDescendantOf(store: StoreState, candidateId: number, ancestorId: number): boolean {
  let parentId = store.categories.get(candidateId)?.parentId ?? null;
  while (parentId !== null) {
    if (parentId === ancestorId) return true;
    parentId = store.categories.get(parentId)?.parentId ?? null;
  }
  return false;
}

/** store.categories.crud: POST /categories, one record (store.writes.create-adds-one). */
export function createCategory(store: StoreState, input: Readonly<Record<string, unknown>>): Category {
  const changes = readCategoryChanges(store, input, undefined);
  if (store.categories.size >= MAX_CATEGORIES) {
    throw StoreApiError.standard(422, `Store has reached maximum limit of ${MAX_CATEGORIES} allowed categories`);
  }
  const now = store.timestamp();
  const name = applyLocalizedWrite(undefined, changes.name ?? {}, store.languages);
  const category: Category = {
    id: store.nextId(),
    name,
    description: applyLocalizedWrite(undefined, changes.description ?? {}, store.languages),
    handle: applyHandleWrite(undefined, changes.handle, name, store.languages),
    parentId: changes.parentId ?? null,
    googleShoppingCategory: changes.googleShoppingCategory ?? null,
    createdAt: now,
    updatedAt: now,
  };
  addCategory(store, category);
  store.emit('category/created', category.id);
  return category;
}

/** Puts a category in the store and its parent's children (the seed uses it too). */
export function addCategory(store: StoreState, category: Category): void {
  store.categories.set(category.id, category);
  if (category.parentId !== null) store.linkChild(category.parentId, category.id);
}

/**
 * store.categories.crud: PUT /categories/{id}; an empty update changes nothing, not even updated_at. What it was not sent,
 * created_at and the other categories stay as they were (store.writes.update-leaves-the-rest).
 */
export function updateCategory(store: StoreState, category: Category, input: Readonly<Record<string, unknown>>): void {
  const changes = readCategoryChanges(store, input, category);
  const before = JSON.stringify(renderCategory(store, category));
  if (changes.name) category.name = applyLocalizedWrite(category.name, changes.name, store.languages);
  if (changes.description) category.description = applyLocalizedWrite(category.description, changes.description, store.languages);
  if (changes.handle) category.handle = applyHandleWrite(category.handle, changes.handle, category.name, store.languages);
  if (changes.googleShoppingCategory !== undefined) category.googleShoppingCategory = changes.googleShoppingCategory;
  if (changes.parentId !== undefined && changes.parentId !== category.parentId) {
    if (category.parentId !== null) store.unlinkChild(category.parentId, category.id);
    category.parentId = changes.parentId;
    if (category.parentId !== null) store.linkChild(category.parentId, category.id);
  }
  if (JSON.stringify(renderCategory(store, category)) === before) return;
  category.updatedAt = store.timestamp();
  store.emit('category/updated', category.id);
}

/**
 * store.categories.crud: DELETE /categories/{id}. Its subcategories go with it
 * and products lose the deleted categories (see ASSUMPTIONS.md).
 */
export function deleteCategory(store: StoreState, category: Category): void {
  const doomed: number[] = [];
  const pending = [category.id]; // a loop, not recursion: a chain can be thousands deep
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    doomed.push(id);
    pending.push(...store.childrenOf(id).reverse());
  }
  if (category.parentId !== null) store.unlinkChild(category.parentId, category.id);
  for (const id of doomed) {
    store.categories.delete(id);
    store.forgetChildren(id);
  }
  const gone = new Set(doomed);
  for (const product of store.products.values()) {
    if (product.categoryIds.some((id) => gone.has(id))) product.categoryIds = product.categoryIds.filter((id) => !gone.has(id));
  }
  for (const id of doomed) store.emit('category/deleted', id);
}
