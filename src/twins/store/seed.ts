import { addCategory } from './resources/categories.ts';
import { indexForSearch } from './resources/products.ts';
import type { Category, Product } from './records.ts';
import { addImage } from './resources/images.ts';
import { buildVariant } from './resources/variants.ts';
import { slugifyLocalized, type LocalizedText } from './localized.ts';
import type { StoreState } from './storeState.ts';

/**
 * Deterministic seed data: the same ids, names and timestamps on every start,
 * so a test can name "product 3 of store 100001" and get the same thing.
 */

/** 'flat': top-level categories only, no subcategories (a small shop, for checking what a live run verifies on one). */
export type CategoryTreeShape = 'three-level' | 'two-level' | 'flat';

/** What a store's data is built from. */
export interface StoreBlueprint {
  readonly languages: readonly string[];
  readonly mainLanguage: string;
  readonly products: number;
  readonly categoryTree: CategoryTreeShape;
}

export type StorePresetName = 'multi-language' | 'single-language';

export const STORE_PRESETS: Readonly<Record<StorePresetName, StoreBlueprint>> = {
  /** 3 roots x 2 children x 2 grandchildren = 21 categories. */
  'multi-language': { languages: ['es', 'pt', 'en'], mainLanguage: 'es', products: 260, categoryTree: 'three-level' },
  /** 2 roots x 2 children = 6 categories. */
  'single-language': { languages: ['pt'], mainLanguage: 'pt', products: 40, categoryTree: 'two-level' },
};

export interface SeededStore extends StoreBlueprint {
  readonly id: number;
  readonly preset: StorePresetName;
  readonly token: string;
  readonly appSecret: string;
}

export function tokenOf(storeId: number): string {
  return `twin-token-${storeId}`;
}

export function appSecretOf(storeId: number): string {
  return `twin-app-secret-${storeId}`;
}

function seeded(id: number, preset: StorePresetName): SeededStore {
  return { id, preset, token: tokenOf(id), appSecret: appSecretOf(id), ...STORE_PRESETS[preset] };
}

/** The stores present at start and after a reset. */
export const SEEDED_STORES: readonly SeededStore[] = [seeded(100001, 'multi-language'), seeded(100002, 'single-language')];

/** Stores created through the control API get ids from here up. */
export const FIRST_CREATED_STORE_ID = 200001;

/** Where a virtual clock starts. */
export const VIRTUAL_CLOCK_START_MS = Date.UTC(2026, 0, 1, 0, 0, 0);

/** Seed timestamps: fixed, in January 2025, before any clock's now. */
export const SEED_STORE_CREATED_MS = Date.UTC(2025, 0, 1, 8, 0, 0);
const SEED_CATEGORIES_FROM_MS = Date.UTC(2025, 0, 2, 9, 0, 0);
const SEED_PRODUCTS_FROM_MS = Date.UTC(2025, 0, 3, 10, 0, 0);
const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

type Words = Readonly<Record<'es' | 'pt' | 'en', string>>;

/** A word in a language; languages without a vocabulary use English. */
function say(words: Words, language: string): string {
  return language === 'es' || language === 'pt' ? words[language] : words.en;
}

function localized(languages: readonly string[], text: (language: string) => string): LocalizedText {
  return Object.fromEntries(languages.map((language) => [language, text(language)]));
}

export function storeName(storeId: number, languages: readonly string[]): LocalizedText {
  return localized(languages, (language) => `${say({ es: 'Tienda Gemela', pt: 'Loja Gêmea', en: 'Twin Store' }, language)} ${storeId}`);
}

const CATEGORY_ROOTS: readonly Words[] = [
  { es: 'Ropa', pt: 'Roupas', en: 'Clothing' },
  { es: 'Hogar', pt: 'Casa', en: 'Home' },
  { es: 'Deportes', pt: 'Esportes', en: 'Sports' },
];
const CATEGORY_CHILDREN: readonly Words[] = [
  { es: 'Mujer', pt: 'Feminino', en: 'Women' },
  { es: 'Hombre', pt: 'Masculino', en: 'Men' },
];
const CATEGORY_GRANDCHILDREN: readonly Words[] = [
  { es: 'Verano', pt: 'Verão', en: 'Summer' },
  { es: 'Invierno', pt: 'Inverno', en: 'Winter' },
];

const PRODUCT_NOUNS: readonly Words[] = [
  { es: 'Camiseta', pt: 'Camiseta', en: 'T-shirt' },
  { es: 'Pantalón', pt: 'Calça', en: 'Trousers' },
  { es: 'Zapatilla', pt: 'Tênis', en: 'Sneaker' },
  { es: 'Mochila', pt: 'Mochila', en: 'Backpack' },
  { es: 'Lámpara', pt: 'Luminária', en: 'Lamp' },
  { es: 'Taza', pt: 'Caneca', en: 'Mug' },
  { es: 'Almohada', pt: 'Travesseiro', en: 'Pillow' },
  { es: 'Pelota', pt: 'Bola', en: 'Ball' },
  { es: 'Botella', pt: 'Garrafa', en: 'Bottle' },
  { es: 'Gorra', pt: 'Boné', en: 'Cap' },
];
const PRODUCT_MATERIALS: readonly Words[] = [
  { es: 'Algodón', pt: 'Algodão', en: 'Cotton' },
  { es: 'Lana', pt: 'Lã', en: 'Wool' },
  { es: 'Bambú', pt: 'Bambu', en: 'Bamboo' },
  { es: 'Cerámica', pt: 'Cerâmica', en: 'Ceramic' },
  { es: 'Cuero', pt: 'Couro', en: 'Leather' },
  { es: 'Lino', pt: 'Linho', en: 'Linen' },
];
const BRANDS: readonly string[] = ['Acme', 'Globex', 'Initech', 'Umbrella'];

/** "Lámpara de Cerámica 5" / "Luminária de Cerâmica 5" / "Ceramic Lamp 5": unique by number. */
export function productName(index: number, language: string): string {
  const noun = PRODUCT_NOUNS[index % PRODUCT_NOUNS.length] ?? PRODUCT_NOUNS[0]!;
  const material = PRODUCT_MATERIALS[Math.floor(index / PRODUCT_NOUNS.length) % PRODUCT_MATERIALS.length] ?? PRODUCT_MATERIALS[0]!;
  const number = index + 1;
  if (language === 'es' || language === 'pt') return `${say(noun, language)} de ${say(material, language)} ${number}`;
  return `${say(material, language)} ${say(noun, language)} ${number}`;
}

/** Fills a new store with its categories and products. */
export function seedCatalog(store: StoreState, blueprint: StoreBlueprint): void {
  const leaves = seedCategories(store, blueprint.categoryTree);
  for (let index = 0; index < blueprint.products; index += 1) seedProduct(store, index, leaves);
}

/**
 * Builds the category tree depth first; answers the ids of its leaves. One function: the ids and creation times
 * count up in the order the nested loops visit the tree.
 */
function seedCategories(store: StoreState, shape: CategoryTreeShape): number[] {
  const { languages } = store;
  const leaves: number[] = [];
  let index = 0;
  const add = (name: (language: string) => string, parentId: number | null): Category => {
    const createdAt = SEED_CATEGORIES_FROM_MS + index * MINUTE_MS;
    const nameText = localized(languages, name);
    const category: Category = {
      id: store.nextId(),
      name: nameText,
      description: localized(languages, () => ''),
      handle: slugifyLocalized(nameText, languages),
      parentId,
      googleShoppingCategory: null,
      createdAt,
      updatedAt: index % 4 === 3 ? createdAt + 5 * DAY_MS : createdAt,
    };
    index += 1;
    addCategory(store, category);
    return category;
  };
  const roots = shape === 'three-level' ? CATEGORY_ROOTS : CATEGORY_ROOTS.slice(0, 2);
  for (const root of roots) {
    const rootCategory = add((language) => say(root, language), null);
    if (shape === 'flat') {
      leaves.push(rootCategory.id);
      continue;
    }
    for (const child of CATEGORY_CHILDREN) {
      const childName = (language: string): string => `${say(root, language)} ${say(child, language)}`;
      const childCategory = add(childName, rootCategory.id);
      if (shape === 'two-level') {
        leaves.push(childCategory.id);
        continue;
      }
      for (const grandchild of CATEGORY_GRANDCHILDREN) {
        leaves.push(add((language) => `${childName(language)} ${say(grandchild, language)}`, childCategory.id).id);
      }
    }
  }
  return leaves;
}

/**
 * One seeded product with its variants and images. Kept whole: every field derives from `index`, and the
 * ids it takes in turn (product, variants, images) must stay in this order for the seed to be the same on every start.
 */
function seedProduct(store: StoreState, index: number, leaves: readonly number[]): void {
  const { languages } = store;
  const createdAt = SEED_PRODUCTS_FROM_MS + index * 13 * MINUTE_MS;
  const name = localized(languages, (language) => productName(index, language));
  const handle = slugifyLocalized(name, languages);
  const categoryIds: number[] = [];
  const first = leaves[index % Math.max(1, leaves.length)];
  if (first !== undefined) categoryIds.push(first);
  const second = leaves[(index + 3) % Math.max(1, leaves.length)];
  if (index % 5 === 0 && second !== undefined && second !== first) categoryIds.push(second);
  const product: Product = {
    id: store.nextId(),
    name,
    description: localized(languages, (language) => `<p>${productName(index, language)}</p>`),
    handle,
    attributes: [],
    published: index % 10 !== 9,
    freeShipping: index % 8 === 0,
    requiresShipping: true,
    videoUrl: null,
    seoTitle: name[store.mainLanguage] ?? '',
    seoDescription: '',
    brand: index % 3 === 0 ? null : (BRANDS[index % BRANDS.length] ?? null),
    tags: index % 5 === 0 ? 'oferta, nuevo' : '',
    createdAt,
    updatedAt: index % 7 === 0 ? createdAt + 9 * DAY_MS : createdAt,
    variants: [],
    images: [],
    categoryIds,
    searchText: '',
  };
  const price = (((index * 37) % 9000) + 500) / 100;
  const managed = index % 4 !== 0;
  product.variants.push(
    buildVariant(
      store,
      product.id,
      1,
      {
        price: price.toFixed(2),
        promotionalPrice: index % 6 === 0 ? (price * 0.9).toFixed(2) : null,
        stockManagement: managed,
        stock: managed ? (index * 13) % 50 : null,
        weight: (((index % 9) + 1) * 0.25).toFixed(2),
        sku: `SKU-${store.id}-${String(index + 1).padStart(5, '0')}`,
      },
      createdAt,
    ),
  );
  const imageCount = index % 6 === 0 ? 2 : index % 3 === 0 ? 1 : 0;
  for (let n = 1; n <= imageCount; n += 1) {
    addImage(store, product, { src: `https://cdn.store-${store.id}.twin.test/products/${handle[store.mainLanguage] ?? product.id}-${n}.jpg` }, createdAt);
  }
  indexForSearch(product);
  store.products.set(product.id, product);
}
