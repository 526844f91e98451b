/**
 * The write bodies of the Store API as documented: a valid body per resource,
 * the members a create requires, and for each member what it accepts and
 * values it refuses with 422. Sources: the contract (Localized properties),
 * the field notes (Product, Category, Webhooks) and ASSUMPTIONS.md, whose
 * rows are quoted by each member.
 */
import fc from 'fast-check';
import { isRegistrableEvent } from '../../../src/twins/store/resources/webhooks.ts';
import type { FuzzRoute } from '../fuzzRoute.ts';
import type { Verdict } from '../verdict.ts';

/** What a store holds that decides whether a value is accepted. */
export interface StoreFacts {
  readonly languages: readonly string[];
  readonly categoryIds: readonly number[];
}

export interface StoreMember {
  readonly name: string;
  /** 'refused': a 422 naming the member; 'unclear' where the documentation does not settle the value. */
  readonly accepts: (value: unknown, store: StoreFacts) => Verdict;
  /** Values the documentation refuses (422 naming the member). */
  readonly wrong: fc.Arbitrary<unknown>;
  /** Read on create only: "Variants and images are set on create only; a product PUT ignores them". */
  readonly createOnly?: boolean;
}

export interface StoreWriteBody {
  /** A body every write of the resource accepts. */
  readonly valid: Readonly<Record<string, unknown>>;
  /** Members a create must name. */
  readonly required: readonly string[];
  readonly members: readonly StoreMember[];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * "A localized value that is not a string or an object of strings is 422
 * naming the field; null clears every language"; "A language code the store
 * lacks: 422" (ASSUMPTIONS.md, Filters and localization).
 */
function localizedAccepts(value: unknown, store: StoreFacts, required: boolean): boolean {
  const texts =
    typeof value === 'string'
      ? [value]
      : isObject(value) && Object.entries(value).every(([code, text]) => store.languages.includes(code) && typeof text === 'string')
        ? (Object.values(value) as string[])
        : value === null
          ? []
          : undefined;
  if (texts === undefined) return false;
  // "`name` is blank when every language given is empty or whitespace: 422".
  return !required || texts.some((text) => text.trim() !== '');
}

const wrongLocalizedArb = (required: boolean): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.constantFrom(42, true, [], ['a'], { xx: 'fuzz' }, { es: 5 }, { es: ['a'] }),
    fc.array(fc.string({ maxLength: 8 }), { minLength: 1, maxLength: 3 }),
    ...(required ? [fc.constantFrom(null, '', '   ', {})] : []),
  );

const verdict = (accepted: boolean): Verdict => (accepted ? 'accepted' : 'refused');

function localized(name: string, required = false): StoreMember {
  return { name, accepts: (value, store) => verdict(localizedAccepts(value, store, required)), wrong: wrongLocalizedArb(required) };
}

/** Booleans of the field notes' real product shape; anything else is a field in the body that is invalid (contract, Errors: 422). */
function boolean(name: string): StoreMember {
  return { name, accepts: (value) => verdict(typeof value === 'boolean'), wrong: fc.constantFrom('true', 1, 0, null, [], {}) };
}

/** Strings of the field notes' real product shape; null is not settled. */
function text(name: string): StoreMember {
  return { name, accepts: (value) => (value === null ? 'unclear' : verdict(typeof value === 'string')), wrong: fc.constantFrom(5, true, [], {}, ['a']) };
}

/**
 * A list of objects (variants, images): not a list, or an item that is not
 * an object, is refused; an object's own members are judged by `item`.
 */
function listOf(name: string, item: (value: Record<string, unknown>, store: StoreFacts) => Verdict, wrong: readonly unknown[]): StoreMember {
  return {
    name,
    createOnly: true,
    accepts: (value, store) => {
      if (!Array.isArray(value)) return 'refused';
      const verdicts = value.map((each) => (isObject(each) ? item(each, store) : 'refused'));
      return verdicts.includes('refused') ? 'refused' : verdicts.includes('unclear') ? 'unclear' : 'accepted';
    },
    wrong: fc.constantFrom('x', 5, {}, null, [5], [null], [[]], ...wrong),
  };
}

/** "An image needs src (http or https URL) or a base64 attachment with a filename". */
function imageSrcAccepts(value: unknown): boolean {
  return typeof value === 'string' && URL.canParse(value.trim()) && ['http:', 'https:'].includes(new URL(value.trim()).protocol);
}

/** A URL that is https, or http on a loopback host (ASSUMPTIONS.md, Webhooks: twin allowance). */
function webhookUrlAccepts(value: unknown): boolean {
  if (typeof value !== 'string' || !URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === 'https:' || (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname.toLowerCase()));
}

const BODIES: Readonly<Record<string, StoreWriteBody>> = {
  products: {
    valid: { name: 'Fuzz product' },
    required: ['name'],
    members: [
      localized('name', true),
      localized('description'),
      localized('handle'),
      boolean('published'),
      boolean('free_shipping'),
      boolean('requires_shipping'),
      text('seo_title'),
      text('seo_description'),
      {
        // Field notes: "attributes (array of localized objects)".
        name: 'attributes',
        accepts: (value, store) => verdict(Array.isArray(value) && value.every((each) => localizedAccepts(each, store, false))),
        wrong: fc.constantFrom('x', 5, {}, [5], [[]], [{ xx: 'a' }]),
      },
      // "Variant field errors use the mixed 422 form ... price must be at least 0": the variant members beyond that are not settled.
      listOf(
        'variants',
        (variant) =>
          typeof variant['price'] === 'string' && Number(variant['price']) < 0 ? 'refused' : Object.keys(variant).length === 0 ? 'accepted' : 'unclear',
        [[{ price: '-1' }], [{ price: 'abc' }], [{ stock: -5 }], [{ sku: 5 }], [{ values: 'x' }], [{ weight: [] }]],
      ),
      listOf('images', (image) => (Object.hasOwn(image, 'attachment') ? 'unclear' : verdict(imageSrcAccepts(image['src']))), [
        [{}],
        [{ src: 5 }],
        [{ src: 'ftp://example.com/a.png' }],
        [{ attachment: '!!!', filename: 'a.png' }],
        [{ src: 'https://example.com/a.png', position: -1 }],
      ]),
      {
        // "`categories` is written as ids ...; an id that is not a category of the store is 422 {"categories":[...]}".
        name: 'categories',
        accepts: (value, store) => verdict(Array.isArray(value) && value.every((id) => typeof id === 'number' && store.categoryIds.includes(id))),
        wrong: fc.constantFrom('1', 7, {}, [999_999_999_999], ['x'], [true], [null]),
      },
    ],
  },
  categories: {
    valid: { name: 'Fuzz category' },
    required: ['name'],
    members: [
      localized('name', true),
      localized('description'),
      localized('handle'),
      {
        // "`parent` must be an existing category (not the category itself or a descendant), else 422 {"parent":[...]}".
        name: 'parent',
        accepts: (value, store) => verdict(value === null || (typeof value === 'number' && store.categoryIds.includes(value))),
        wrong: fc.constantFrom('abc', -1, 999_999_999_999, true, [], {}, '1'),
      },
    ],
  },
  webhooks: {
    valid: { event: 'product/created', url: 'https://fuzz.example.test/hook' },
    required: ['event', 'url'],
    members: [
      {
        // "A 422 names only the invalid keys: `event` ... and/or `url`".
        name: 'event',
        accepts: (value) => verdict(isRegistrableEvent(value)),
        wrong: fc.constantFrom(42, 'product/exploded', '', null, ['product/created'], { event: 'product/created' }),
      },
      {
        name: 'url',
        accepts: (value) => verdict(webhookUrlAccepts(value)),
        wrong: fc.constantFrom(42, 'not a url', 'http://example.com/hook', 'ftp://example.com/hook', '', null, []),
      },
    ],
  },
  images: {
    valid: { src: 'https://fuzz.example.test/image.png' },
    required: ['src'],
    members: [
      {
        // "An image needs `src` (http or https URL) ...; without either: 422 {"src":["can't be blank"]}".
        name: 'src',
        accepts: (value) => verdict(imageSrcAccepts(value)),
        wrong: fc.constantFrom(42, '', '  ', 'ftp://example.com/a.png', 'not a url', null, [], {}),
      },
    ],
  },
};

/** The resource a write route writes: the last literal segment of its path (`products/:id/images` writes images). */
export function writeBodyOf(route: FuzzRoute): StoreWriteBody | undefined {
  if (route.method !== 'POST' && route.method !== 'PUT') return undefined;
  const literals = route.segments.flatMap((segment) => ('literal' in segment ? [segment.literal] : []));
  return BODIES[literals[literals.length - 1] ?? ''];
}
