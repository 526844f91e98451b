import type { FieldErrors } from '../errors.ts';
import { applyLocalizedWrite, renderLocalized, type LocalizedText } from '../localized.ts';
import { isJsonObject } from '../../serving/requestBody.ts';
import type { StoreState } from '../storeState.ts';
import type { Variant } from '../records.ts';
import { formatTimestamp } from '../timestamps.ts';
import { hasField, readLocalizedList } from './inputFields.ts';

/** What a client may set on a variant; absent fields take the defaults of the default variant. */
export type VariantDraft = Partial<Omit<Variant, 'id' | 'productId' | 'imageId' | 'position' | 'values' | 'createdAt' | 'updatedAt'>> & {
  values?: LocalizedText[];
};

const DECIMAL_INPUT = /^-?\d+(?:\.\d+)?$/;
const MAX_DECIMAL = 999_999_999;

/**
 * Reads one variant of a create body. Messages follow the real service's
 * variant errors, which come in the mixed 422 form (field notes, errors.json
 * "422 mixed"): `The price must be at least 0.`
 * Kept in one piece: the decimal and text readers close over this input and its errors, and the list of fields
 * below reads as the variant's writable fields in the order their errors are reported.
 */
export function readVariantDraft(input: unknown, languages: readonly string[], errors: FieldErrors): VariantDraft | undefined {
  if (!isJsonObject(input)) {
    errors.add('variants', 'must be an array of variant objects');
    return undefined;
  }
  const fail = (field: string, message: string): undefined => {
    errors.useMixedShape();
    errors.add(field, message);
    return undefined;
  };
  const label = (field: string): string => field.replace(/_/g, ' ');
  const decimal = (field: string): string | null | undefined => {
    if (!hasField(input, field)) return undefined;
    const value = input[field];
    if (value === null) return null;
    const number = typeof value === 'number' ? value : typeof value === 'string' && DECIMAL_INPUT.test(value.trim()) ? Number(value) : Number.NaN;
    if (!Number.isFinite(number)) return fail(field, `The ${label(field)} must be a number.`);
    if (number < 0) return fail(field, `The ${label(field)} must be at least 0.`);
    if (number > MAX_DECIMAL) return fail(field, `The ${label(field)} may not be greater than ${MAX_DECIMAL}.`);
    return number.toFixed(2);
  };
  const text = (field: string): string | null | undefined => {
    if (!hasField(input, field)) return undefined;
    const value = input[field];
    if (value === null) return null;
    if (typeof value !== 'string') return fail(field, `The ${label(field)} must be a string.`);
    return value.trim() === '' ? null : value;
  };
  const draft: VariantDraft = {};
  const assign = <K extends keyof VariantDraft>(key: K, value: VariantDraft[K] | undefined): void => {
    if (value !== undefined) draft[key] = value;
  };
  assign('price', decimal('price'));
  assign('promotionalPrice', decimal('promotional_price'));
  assign('weight', decimal('weight'));
  assign('width', decimal('width'));
  assign('height', decimal('height'));
  assign('depth', decimal('depth'));
  assign('cost', decimal('cost'));
  assign('sku', text('sku'));
  assign('barcode', text('barcode'));
  assign('mpn', text('mpn'));
  assign('ageGroup', text('age_group'));
  assign('gender', text('gender'));
  if (hasField(input, 'stock_management')) {
    const value = input['stock_management'];
    if (typeof value === 'boolean') draft.stockManagement = value;
    else fail('stock_management', 'The stock management field must be true or false.');
  }
  if (hasField(input, 'stock')) {
    const value = input['stock'];
    if (value === null) draft.stock = null;
    else if (typeof value !== 'number' || !Number.isSafeInteger(value)) fail('stock', 'The stock must be an integer.');
    else if (value < 0) fail('stock', 'The stock must be at least 0.');
    else draft.stock = value;
  }
  const values = readLocalizedList(input, 'values', languages, errors);
  if (values !== undefined) draft.values = values.map((write) => applyLocalizedWrite(undefined, write, languages));
  return draft;
}

/** A variant from a draft; an empty draft is the default variant a product gets when created without variants. */
export function buildVariant(store: StoreState, productId: number, position: number, draft: VariantDraft, now: number): Variant {
  return {
    id: store.nextId(),
    productId,
    imageId: null,
    position,
    price: draft.price === undefined ? '0.00' : draft.price,
    promotionalPrice: draft.promotionalPrice ?? null,
    // Sending a stock implies managing it.
    stockManagement: draft.stockManagement ?? (draft.stock !== undefined && draft.stock !== null),
    stock: draft.stock ?? null,
    weight: draft.weight === undefined ? '0.00' : draft.weight,
    width: draft.width === undefined ? '0.00' : draft.width,
    height: draft.height === undefined ? '0.00' : draft.height,
    depth: draft.depth === undefined ? '0.00' : draft.depth,
    sku: draft.sku ?? null,
    values: draft.values ?? [],
    barcode: draft.barcode ?? null,
    mpn: draft.mpn ?? null,
    ageGroup: draft.ageGroup ?? null,
    gender: draft.gender ?? null,
    cost: draft.cost ?? null,
    createdAt: now,
    updatedAt: now,
  };
}

export function renderVariant(store: StoreState, variant: Variant): Record<string, unknown> {
  return {
    id: variant.id,
    product_id: variant.productId,
    image_id: variant.imageId,
    position: variant.position,
    price: variant.price,
    promotional_price: variant.promotionalPrice,
    stock_management: variant.stockManagement,
    // The 2014 capture: stock is null when it is not managed.
    stock: variant.stockManagement ? variant.stock : null,
    weight: variant.weight,
    width: variant.width,
    height: variant.height,
    depth: variant.depth,
    sku: variant.sku,
    values: variant.values.map((value) => renderLocalized(value, store.languages)),
    barcode: variant.barcode,
    mpn: variant.mpn,
    age_group: variant.ageGroup,
    gender: variant.gender,
    cost: variant.cost,
    created_at: formatTimestamp(variant.createdAt),
    updated_at: formatTimestamp(variant.updatedAt),
  };
}
