import { FieldErrors } from '../errors.ts';
import { isJsonObject } from '../../serving/requestBody.ts';
import type { StoreState } from '../storeState.ts';
import { formatTimestamp } from '../timestamps.ts';
import type { Product, ProductImage } from '../records.ts';
import { hasField } from './inputFields.ts';
import { storeDomain } from './storeInfo.ts';

export interface ImageDraft {
  readonly src: string;
  readonly position?: number;
  readonly alt?: string[];
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Reads an image: `src`, or a base64 `attachment` with a `filename` (field
 * notes). Without either: 422 {"src":["can't be blank"]} (store.errors.image-src-blank-422).
 */
export function readImageDraft(store: StoreState, input: unknown, errors: FieldErrors): ImageDraft | undefined {
  if (!isJsonObject(input)) {
    errors.add('images', 'must be an array of image objects');
    return undefined;
  }
  let src: string | undefined;
  const rawSrc = input['src'];
  if (hasField(input, 'attachment') && !hasField(input, 'src')) {
    src = readAttachment(store, input, errors);
  } else if (typeof rawSrc !== 'string' || rawSrc.trim() === '') {
    if (rawSrc === undefined || rawSrc === null || typeof rawSrc === 'string') errors.add('src', "can't be blank");
    else errors.add('src', 'must be a string');
  } else if (!isHttpUrl(rawSrc.trim())) {
    errors.add('src', 'is invalid');
  } else {
    src = rawSrc.trim();
  }
  let position: number | undefined;
  if (hasField(input, 'position')) {
    const value = input['position'];
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1) position = value;
    else errors.add('position', 'must be a positive integer');
  }
  let alt: string[] | undefined;
  if (hasField(input, 'alt')) {
    const value = input['alt'];
    if (typeof value === 'string') alt = value.trim() === '' ? [] : [value];
    else if (Array.isArray(value) && value.every((item) => typeof item === 'string')) alt = value as string[];
    else errors.add('alt', 'must be a string or an array of strings');
  }
  if (src === undefined) return undefined;
  return { src, ...(position !== undefined ? { position } : {}), ...(alt !== undefined ? { alt } : {}) };
}

function readAttachment(store: StoreState, input: Readonly<Record<string, unknown>>, errors: FieldErrors): string | undefined {
  const attachment = input['attachment'];
  const filename = input['filename'];
  let ok = true;
  if (typeof attachment !== 'string' || !BASE64.test(attachment.replace(/\s+/g, ''))) {
    errors.add('attachment', 'must be base64-encoded image data');
    ok = false;
  }
  if (typeof filename !== 'string' || filename.trim() === '') {
    errors.add('filename', "can't be blank");
    ok = false;
  }
  if (!ok || typeof filename !== 'string') return undefined;
  return `https://cdn.${storeDomain(store)}/products/${encodeURIComponent(filename.trim())}`;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** Adds an image at its position (default: last), moving later ones down. */
export function addImage(store: StoreState, product: Product, draft: ImageDraft, now: number): ProductImage {
  const position = Math.min(draft.position ?? product.images.length + 1, product.images.length + 1);
  for (const image of product.images) {
    if (image.position >= position) image.position += 1;
  }
  const image: ProductImage = { id: store.nextId(), productId: product.id, src: draft.src, position, alt: draft.alt ?? [], createdAt: now, updatedAt: now };
  product.images.push(image);
  product.images.sort((a, b) => a.position - b.position);
  return image;
}

/** POST /products/{id}/images: 201 with the image; the product counts as updated. */
export function createProductImage(store: StoreState, product: Product, input: Readonly<Record<string, unknown>>): ProductImage {
  const errors = new FieldErrors();
  const draft = readImageDraft(store, input, errors);
  errors.throwIfAny();
  if (draft === undefined) throw new Error('readImageDraft returned nothing without an error');
  const now = store.timestamp();
  const image = addImage(store, product, draft, now);
  product.updatedAt = now;
  store.emit('product/updated', product.id);
  return image;
}

export function renderImage(image: ProductImage): Record<string, unknown> {
  return {
    id: image.id,
    product_id: image.productId,
    src: image.src,
    position: image.position,
    alt: [...image.alt],
    created_at: formatTimestamp(image.createdAt),
    updated_at: formatTimestamp(image.updatedAt),
  };
}
