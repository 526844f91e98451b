import { expect, test, verifies } from '../fixtures/storeFixtures.ts';
import { expectSchema, expectStatus, jsonOf, listOf, ownCategory } from '../fixtures/storeChecks.ts';
import { precondition, says } from '../../src/testing/ruleTest.ts';
import { ValidationError } from '../../src/clients/store/errors.ts';

// Errors: the statuses and body shapes of the Errors table.

test(
  ...verifies('store.errors.invalid-json-400', 'a body that is not JSON answers 400 {"error": string}', async ({ store, rule }) => {
    const res = await store.send({ method: 'POST', path: '/products', rawBody: '{"name": "unterminated', retry: false });
    expectStatus(res, 400, rule);
    const body = jsonOf(res, rule);
    expectSchema(body, 'store/error-invalid-json', rule);
  }),
);

test(
  ...verifies('store.errors.validation-422', 'a product without a name answers 422 field -> messages', async ({ store, rule }) => {
    const res = await store.send({ method: 'POST', path: '/products', json: { published: true }, retry: false });
    if (res.status === 201) store.track('products', (jsonOf(res, rule) as { id: number }).id);
    expectStatus(res, 422, rule);
    const body = jsonOf(res, rule);
    expectSchema(body, 'store/error-validation', rule);
    expect(Object.keys(body as object), says(rule, 'the 422 body names the invalid field')).toContain('name');
  }),
);

test(
  ...verifies('store.errors.validation-422', 'a blank name answers 422 {"name": ["can\'t be blank"]}', async ({ store, rule }) => {
    const res = await store.send({ method: 'POST', path: '/categories', json: { name: '' }, retry: false });
    if (res.status === 201) store.track('categories', (jsonOf(res, rule) as { id: number }).id);
    expectStatus(res, 422, rule);
    const body = jsonOf(res, rule) as Record<string, unknown>;
    expectSchema(body, 'store/error-validation', rule);
    expect(Array.isArray(body.name), says(rule, 'name maps to an array of messages')).toBe(true);
  }),
);

test(
  ...verifies(
    'store.errors.validation-422',
    'an update with a blank name answers 422 as a create does',
    async ({ store, rule }) => {
      const id = await ownCategory(store, rule);
      const res = await store.send({ method: 'PUT', path: `/categories/${id}`, json: { name: '' }, retry: false });
      expectStatus(res, 422, rule);
      expectSchema(jsonOf(res, rule), 'store/error-validation', rule);
    },
    { writes: true },
  ),
);

test(
  ...verifies('store.errors.image-src-blank-422', 'an image with a blank src', async ({ store, rule }) => {
    const [product] = listOf<{ id: number }>(await store.send({ method: 'GET', path: '/products', query: { per_page: 1 } }), rule);
    precondition(rule, store.target, product !== undefined, 'at least one product');
    const res = await store.send({ method: 'POST', path: `/products/${product!.id}/images`, json: { src: '' }, retry: false });
    expectStatus(res, 422, rule);
    const body = jsonOf(res, rule) as Record<string, unknown>;
    expectSchema(body, 'store/error-validation', rule);
    const messages = body.src;
    expect(
      Array.isArray(messages) && messages.some((m) => typeof m === 'string' && /blank/i.test(m)),
      says(rule, 'src lists a "can\'t be blank" message'),
    ).toBe(true);
  }),
);

// The exact body is what the docs show, not what the contract says: on a real provider a difference is an observation, not a failure.
test(
  ...verifies('store.errors.field-error-body-exact', 'an image with a blank src answers exactly {"src":["can\'t be blank"]}', async ({ store, rule }) => {
    const [product] = listOf<{ id: number }>(await store.send({ method: 'GET', path: '/products', query: { per_page: 1 } }), rule);
    precondition(rule, store.target, product !== undefined, 'at least one product');
    const res = await store.send({ method: 'POST', path: `/products/${product!.id}/images`, json: { src: '' }, retry: false });
    expectStatus(res, 422, rule);
    expect(jsonOf(res, rule), says(rule, 'the documented 422 of an image')).toEqual({ src: ["can't be blank"] });
  }),
);

test(
  ...verifies('store.errors.error-body-shape', 'a 404 and a 401 answer {code, message, description}', async ({ store, rule }) => {
    for (const res of [
      await store.send({ method: 'GET', path: '/categories/999999999', retry: false }),
      await store.send({ method: 'GET', path: '/products', auth: 'none', retry: false }),
    ]) {
      const body = jsonOf(res, rule) as { code?: unknown };
      expectSchema(body, 'store/error-standard', rule);
      expect(body.code, says(rule, 'code repeats the status')).toBe(res.status);
    }
  }),
);

test(
  ...verifies('store.errors.missing-resource-404', 'a category and a product that do not exist', async ({ store, rule }) => {
    const category = await store.send({ method: 'GET', path: '/categories/999999999', retry: false });
    expectStatus(category, 404, rule);
    expect(jsonOf(category, rule)).toMatchObject({ code: 404, message: 'Not Found' });
    const product = await store.send({ method: 'GET', path: '/products/999999999', retry: false });
    expectStatus(product, 404, rule);
  }),
);

test(
  ...verifies('store.client.validation-error-fields', 'the client throws a ValidationError with the field messages', async ({ store, rule }) => {
    const error = await store.client.createCategory({ name: '' }).then(
      (created) => {
        store.track('categories', created.id);
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(error, says(rule, 'a 422 must reach the caller as a ValidationError')).toBeInstanceOf(ValidationError);
    const fields = (error as ValidationError).fields;
    expect(Object.keys(fields), says(rule, 'the error carries the field names')).toContain('name');
    expect((error as Error).message, says(rule, 'the message lists the field')).toContain('name');
  }),
);
