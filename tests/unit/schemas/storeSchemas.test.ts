import { readFileSync } from 'node:fs';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { formatIssues, validate } from '../../../src/schemas/validate.ts';

const FIXTURES = new URL('../../captured/store/', import.meta.url);

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8'));
}

function expectValid(schemaId: string, data: unknown): void {
  const result = validate(schemaId, data);
  expect(result.valid, `expected a valid ${schemaId}:\n${formatIssues(result.errors)}`).toBe(true);
}

/** Validates, expects a failure, and returns the readable lines. */
function rejected(schemaId: string, data: unknown): string {
  const result = validate(schemaId, data);
  expect(result.valid, `expected ${schemaId} to reject ${JSON.stringify(data)}`).toBe(false);
  expect(result.errors.length).toBeGreaterThan(0);
  return formatIssues(result.errors);
}

const TIMESTAMP = 'must match the contract timestamp format YYYY-MM-DDTHH:MM:SS+0000';

function category(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 105190,
    name: { es: 'Pantalones', en: 'Pantalones' },
    description: { es: '', en: '' },
    handle: { es: 'pantalones', en: 'pantalones' },
    parent: null,
    subcategories: [],
    created_at: '2012-02-19T17:34:36+0000',
    updated_at: '2014-01-28T14:10:12+0000',
    ...overrides,
  };
}

test.describe('real and documented examples', () => {
  test('the 2014 capture of a real product is a valid store/product', () => {
    expectValid('store/product', fixture('product.2014-capture.json'));
    expectValid('store/product-list', [fixture('product.2014-capture.json')]);
  });

  // The docs' examples write timestamps as -03:00 (with a colon); the contract's
  // format (and the real service) writes the offset without one: +0000. That is the
  // only documented difference, so a schema that follows the contract rejects those
  // fields and nothing else.
  test('the docs category example fails only at its -03:00 timestamps (the documented timestamp difference)', () => {
    const result = validate('store/category', fixture('category.docs-example.json'));
    expect(result.valid).toBe(false);
    expect(result.errors.map((issue) => issue.path).sort()).toEqual(['/created_at', '/updated_at']);
    expect(formatIssues(result.errors)).toContain(`/created_at: ${TIMESTAMP} (got "2013-01-03T09:11:51-03:00")`);
  });

  test('the docs create-response example fails only at its -03:00 timestamps: product, its category, its variant', () => {
    const result = validate('store/product', fixture('product.create-response.docs-example.json'));
    expect(result.valid).toBe(false);
    expect(result.errors.map((issue) => issue.path).sort()).toEqual([
      '/categories/0/created_at',
      '/categories/0/updated_at',
      '/created_at',
      '/variants/0/created_at',
      '/variants/0/updated_at',
    ]);
    expect(result.errors.every((issue) => issue.message.startsWith(TIMESTAMP))).toBe(true);
    expect(formatIssues(result.errors)).toContain(`/categories/0/created_at: ${TIMESTAMP} (got "2013-01-03T09:11:51-03:00")`);
  });

  test('with the offsets written the contract way, the docs examples are valid', () => {
    const contractForm = (name: string): unknown => JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8').replaceAll('-03:00"', '-0300"'));
    expectValid('store/category', contractForm('category.docs-example.json'));
    expectValid('store/product', contractForm('product.create-response.docs-example.json'));
  });
});

test.describe('error bodies (errors.json)', () => {
  const errors = fixture('errors.json') as Record<string, unknown>;
  const schemaOf: Record<string, string> = {
    '400 invalid json': 'store/error-invalid-json',
    '400 bad input': 'store/error-standard',
    '401': 'store/error-standard',
    '404 missing': 'store/error-standard',
    '404 null description': 'store/error-standard',
    '404 past last page (observed)': 'store/error-standard',
    '415': 'store/error-standard',
    '422 field': 'store/error-validation',
    '422 image src': 'store/error-validation',
    '422 limit': 'store/error-standard',
    '422 mixed': 'store/error-validation',
    '422 webhook': 'store/error-validation',
    '500': 'store/error-standard',
  };

  test('every entry has a matching error schema in this table', () => {
    expect(Object.keys(errors).sort()).toEqual(Object.keys(schemaOf).sort());
  });

  for (const [entry, schemaId] of Object.entries(schemaOf)) {
    test(`"${entry}" is a valid ${schemaId}`, () => {
      expectValid(schemaId, errors[entry]);
    });
  }

  test('the schemas tell the shapes apart: a field-error body is no standard error and a standard error no field-error body', () => {
    expect(rejected('store/error-standard', errors['422 field'])).toContain('/code: required member is missing');
    expect(rejected('store/error-validation', errors['422 limit'])).toContain(
      '(root): must not be a body without any field key (only code, message, description, none of them holding messages)',
    );
    // Products and categories have a description field: its messages make a field-error body.
    expectValid('store/error-validation', { description: ['is too long (maximum is 1000 characters)'] });
    expect(rejected('store/error-invalid-json', errors['401'])).toContain('/error: required member is missing');
  });

  test('store.errors.validation-422: field messages must be arrays of strings', () => {
    expect(rejected('store/error-validation', { name: "can't be blank" })).toBe(`/name: must be an array of message strings (got string "can't be blank")`);
  });

  test('store.errors.error-body-shape: description is a string or null, code an integer', () => {
    expect(rejected('store/error-standard', { code: '404', message: 'Not Found', description: 404 })).toBe(
      ['/code: must be integer (got string "404")', '/description: must be string or null (got number 404)'].join('\n'),
    );
  });
});

test.describe('what the contract rejects, each with a readable message', () => {
  test('store.localized.always-object: a plain string where a localized object is expected', () => {
    expect(rejected('store/product', { name: 'Ultra Ball' })).toBe(
      '/name: must be a localized object keyed by language code, e.g. {"es": "...", "pt": "..."} (got string "Ultra Ball")',
    );
    expect(rejected('store/category', category({ description: 'Pantalones' }))).toContain('/description: must be a localized object');
  });

  test('store.localized.always-object: an empty object, a non-string value, a key that is no language code', () => {
    expect(rejected('store/localized', {})).toBe(
      '(root): must have at least 1 member: a localized object keyed by language code, e.g. {"es": "...", "pt": "..."} (got object {})',
    );
    expect(rejected('store/localized', { es: 1 })).toBe('/es: must be string (got number 1)');
    expect(rejected('store/localized', { Spanish: 'x' })).toBe('/Spanish: key must match a language code such as es, pt, es_AR or pt-BR (got "Spanish")');
  });

  test('store.localized.always-object: language codes with a region and empty strings are accepted', () => {
    expectValid('store/localized', { es: '', pt: '', en: '' });
    expectValid('store/localized', { es_AR: 'Pantalones', 'pt-BR': 'Calças' });
  });

  test('store.json.no-root-element: a list wrapped in a root element instead of a bare array', () => {
    const capture = fixture('product.2014-capture.json');
    expect(rejected('store/product-list', { products: [capture] })).toMatch(
      /^\(root\): must be a bare JSON array of products \(no root element\) \(got object \{"products":/,
    );
    expect(rejected('store/category-list', { categories: [] })).toBe(
      '(root): must be a bare JSON array of categories (no root element) (got object {"categories":[]})',
    );
    expect(rejected('store/product', { product: { name: { es: 'x' } } })).toContain('/name: required member is missing');
    expectValid('store/product-list', []);
  });

  test('store.pagination.collection-is-array: every element of a list is checked', () => {
    expect(rejected('store/product-list', [{ name: { es: 'ok' } }, { name: 'not ok' }])).toBe(
      '/1/name: must be a localized object keyed by language code, e.g. {"es": "...", "pt": "..."} (got string "not ok")',
    );
  });

  test('store.json.snake-case-keys: a camelCase key at any level described', () => {
    const product = {
      name: { es: 'x' },
      freeShipping: true,
      variants: [{ productId: 1 }],
      images: [{ product_id: 1, createdAt: '2012-02-19T17:34:36+0000' }],
      categories: [category({ googleShoppingCategory: null })],
    };
    expect(rejected('store/product', product).split('\n')).toEqual([
      '/freeShipping: key must match snake_case (^[a-z0-9]+(_[a-z0-9]+)*$) (got "freeShipping")',
      '/categories/0/googleShoppingCategory: key must match snake_case (^[a-z0-9]+(_[a-z0-9]+)*$) (got "googleShoppingCategory")',
      '/variants/0/productId: key must match snake_case (^[a-z0-9]+(_[a-z0-9]+)*$) (got "productId")',
      '/images/0/createdAt: key must match snake_case (^[a-z0-9]+(_[a-z0-9]+)*$) (got "createdAt")',
    ]);
  });

  test('store.json.snake-case-keys: not applied to language codes nor to 422 field names', () => {
    expectValid('store/category', category({ name: { 'pt-BR': 'Calças' } }));
    expectValid('store/error-validation', { 'variants[0].price': ['must be at least 0'] });
  });

  test('store.timestamps.format: a timestamp with a colon offset, a Z, no offset or fractions', () => {
    expect(rejected('store/category', category({ created_at: '2013-01-03T09:11:51-03:00' }))).toBe(
      `/created_at: ${TIMESTAMP} (got "2013-01-03T09:11:51-03:00")`,
    );
    for (const bad of ['2012-02-19T17:34:36Z', '2012-02-19T17:34:36', '2012-02-19T17:34:36.123+0000', '2012-02-19 17:34:36+0000']) {
      expect(rejected('store/timestamp', bad)).toBe(`(root): ${TIMESTAMP} (got ${JSON.stringify(bad)})`);
    }
    expect(
      rejected('store/webhook', {
        id: 1,
        event: 'app/suspended',
        url: 'https://example.com/hook',
        created_at: '2024-05-01T10:00:00+0000',
        updated_at: 1714557600,
      }),
    ).toBe('/updated_at: must be the contract timestamp format YYYY-MM-DDTHH:MM:SS+0000 (got number 1714557600)');
    expectValid('store/timestamp', '2012-02-19T17:34:36+0000');
    expectValid('store/timestamp', '2013-01-03T09:11:51-0300');
  });

  test('store.categories.get-category: a missing required category member', () => {
    const { handle: _handle, updated_at: _updatedAt, ...incomplete } = category();
    expect(rejected('store/category', incomplete).split('\n')).toEqual([
      '/handle: required member is missing (a category object requires id, name, description, handle, parent, subcategories, created_at, updated_at)',
      '/updated_at: required member is missing (a category object requires id, name, description, handle, parent, subcategories, created_at, updated_at)',
    ]);
    expect(rejected('store/category', category({ id: '105190', subcategories: null })).split('\n')).toEqual([
      '/id: must be integer (got string "105190")',
      '/subcategories: must be array (got null)',
    ]);
  });

  test('store.categories.parent-null-top-level: parent and subcategory elements beyond null/array are not constrained (not shown)', () => {
    expectValid('store/category', category({ parent: 4567, subcategories: [119258] }));
    expectValid('store/category', category({ parent: { id: 4567 }, subcategories: [{ id: 1 }] }));
  });

  test('store.products.list: only name is required on a product; categories must be full category objects', () => {
    expectValid('store/product', { name: { es: 'x' } });
    expect(rejected('store/product', { name: { es: 'x' }, categories: [11654304] })).toBe('/categories/0: must be a category object (got number 11654304)');
  });
});

test.describe('store and webhook shapes (field notes)', () => {
  test('GET /store: languages as an array of codes or an object keyed by code', () => {
    expectValid('store/store', { main_language: 'es', languages: ['es', 'pt'] });
    expectValid('store/store', { main_language: 'es', languages: { es: { active: true }, pt: { active: false } } });
    expect(rejected('store/store', { main_language: 'es', languages: 'es' })).toBe(
      '/languages: must be an array of language codes or an object keyed by language code (got string "es")',
    );
    expect(rejected('store/store', { languages: ['es'] })).toContain('/main_language: required member is missing');
  });

  test('store.webhooks.registration: {id, event, url, created_at, updated_at}', () => {
    const webhook = {
      id: 1,
      event: 'app/suspended',
      url: 'https://example.com/hook',
      created_at: '2024-05-01T10:00:00+0000',
      updated_at: '2024-05-01T10:00:00+0000',
    };
    expectValid('store/webhook', webhook);
    expect(rejected('store/webhook', { ...webhook, url: 'not a url', event: 'suspended' }).split('\n')).toEqual([
      '/event: must match an event kind such as app/suspended (got "suspended")',
      '/url: must be a valid uri (got string "not a url")',
    ]);
  });
});
