/**
 * What a store keeps of its catalogue, as stored (resources/ renders and
 * writes them): StoreState holds them, and each resource's functions take
 * the StoreState, so the records live apart from both.
 */
import type { LocalizedText } from './localized.ts';

/** A product, fields as in the field notes' real shape. */
export interface Product {
  readonly id: number;
  name: LocalizedText;
  description: LocalizedText;
  handle: LocalizedText;
  attributes: LocalizedText[];
  published: boolean;
  freeShipping: boolean;
  requiresShipping: boolean;
  videoUrl: string | null;
  seoTitle: string;
  seoDescription: string;
  brand: string | null;
  /** Comma-separated, as the real service answers it. */
  tags: string;
  readonly createdAt: number;
  updatedAt: number;
  variants: Variant[];
  images: ProductImage[];
  categoryIds: number[];
  /** Lower-case, accent-free names, tags and SKUs: what `q` searches, kept current on every write. */
  searchText: string;
}

/** A product variant, field names as in the field notes. */
export interface Variant {
  readonly id: number;
  readonly productId: number;
  imageId: number | null;
  position: number;
  /** Decimal strings ("10.00"); a null price means "ask for the price". */
  price: string | null;
  promotionalPrice: string | null;
  stockManagement: boolean;
  stock: number | null;
  weight: string | null;
  width: string | null;
  height: string | null;
  depth: string | null;
  sku: string | null;
  values: LocalizedText[];
  barcode: string | null;
  mpn: string | null;
  ageGroup: string | null;
  gender: string | null;
  cost: string | null;
  readonly createdAt: number;
  updatedAt: number;
}

/** A product's image. */
export interface ProductImage {
  readonly id: number;
  readonly productId: number;
  src: string;
  position: number;
  alt: string[];
  readonly createdAt: number;
  updatedAt: number;
}

/** A category of the store's tree. */
export interface Category {
  readonly id: number;
  name: LocalizedText;
  description: LocalizedText;
  handle: LocalizedText;
  parentId: number | null;
  googleShoppingCategory: string | null;
  readonly createdAt: number;
  updatedAt: number;
}
