import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { VirtualClock } from '../../../../src/clock/Clock.ts';
import { StoreClient } from '../../../../src/clients/store/StoreClient.ts';
import {
  NotFoundError,
  PaymentRequiredError,
  StoreApiError,
  StoreInvalidResponseError,
  StoreRequestError,
  ValidationError,
} from '../../../../src/clients/store/errors.ts';
import { startFakeStore, STORE_ID, TOKEN, USER_AGENT, type FakeStore, type RecordedRequest, type Reply } from './fakeStore.ts';

let store: FakeStore;
let route: (request: RecordedRequest) => Reply = () => ({ status: 200, json: {} });

test.beforeAll(async () => {
  store = await startFakeStore((request) => route(request));
});
test.afterAll(async () => {
  await store.close();
});
test.beforeEach(() => {
  store.requests.length = 0;
});

function client(): StoreClient {
  return new StoreClient({ baseUrl: store.baseUrl, token: TOKEN, userAgent: USER_AGENT, clock: new VirtualClock(0) });
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e as Error,
  );
}

test.describe('getStore', () => {
  test('languages as an array of codes', async () => {
    route = () => ({ json: { id: STORE_ID, main_language: 'pt', languages: ['pt', 'es'] } });
    expect(await client().getStore()).toEqual({ id: STORE_ID, mainLanguage: 'pt', languages: ['pt', 'es'] });
    expect(store.requests[0]!.url).toBe(`/v1/${STORE_ID}/store`);
  });

  test('languages as an object keyed by code; inactive ones left out; main language from the header', async () => {
    route = () => ({
      headers: { 'X-Main-Language': 'es' },
      json: { id: STORE_ID, languages: { es: { currency: 'ARS', active: true }, pt: { currency: 'BRL', active: true }, en: { active: false } } },
    });
    expect(await client().getStore()).toEqual({ id: STORE_ID, mainLanguage: 'es', languages: ['es', 'pt'] });
  });
});

test.describe('collections (store.pagination.follow-links)', () => {
  // Opaque cursors: a client that built page URLs itself would ask for something else.
  const pages: Record<string, { items: unknown[]; next?: string }> = {
    first: { items: [{ id: 1 }, { id: 2 }], next: 'c=7f3a' },
    'c=7f3a': { items: [{ id: 3 }, { id: 4 }], next: 'c=90be' },
    'c=90be': { items: [{ id: 5 }] },
  };
  const paged = (request: RecordedRequest): Reply => {
    const query = new URL(request.url, store.origin).searchParams;
    const key = query.get('c') ? `c=${query.get('c')}` : 'first';
    const page = pages[key]!;
    const links = [`<${store.baseUrl}/products?per_page=2&page=1>; rel="first"`];
    if (page.next) links.push(`<${store.baseUrl}/products?${page.next}>; rel="next"`);
    return { headers: { 'X-Total-Count': '5', Link: links.join(', ') }, json: page.items };
  };

  test('listProducts answers one page with the total and the links', async () => {
    route = paged;
    const page = await client().listProducts({ per_page: 2, since_id: 0, fields: 'id,name', created_at_min: '2024-01-01T00:00:00+0000' });
    expect(page.items).toEqual([{ id: 1 }, { id: 2 }]);
    expect(page.totalCount).toBe(5);
    expect(page.links).toEqual({ first: `${store.baseUrl}/products?per_page=2&page=1`, next: `${store.baseUrl}/products?c=7f3a` });
    expect(page.response.status).toBe(200);
    const sent = new URL(store.requests[0]!.url, store.origin).searchParams;
    expect(Object.fromEntries(sent)).toEqual({ per_page: '2', since_id: '0', fields: 'id,name', created_at_min: '2024-01-01T00:00:00+0000' });
  });

  test('iterateProducts follows Link next only, and stops on a page without next', async () => {
    route = paged;
    const ids: number[] = [];
    for await (const product of client().iterateProducts({ per_page: 2 })) ids.push(product.id);
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    expect(store.requests.map((r) => r.url)).toEqual([
      `/v1/${STORE_ID}/products?per_page=2`,
      `/v1/${STORE_ID}/products?c=7f3a`,
      `/v1/${STORE_ID}/products?c=90be`,
    ]);
  });

  test('an empty collection answered 404 "Last page is 0": no items, an empty page', async () => {
    route = () => ({ status: 404, json: { code: 404, message: 'Not Found', description: 'Last page is 0' } });
    const items: unknown[] = [];
    for await (const category of client().iterateCategories()) items.push(category);
    expect(items).toEqual([]);
    const page = await client().listCategories({ page: 1 });
    expect(page.items).toEqual([]);
    expect(page.totalCount).toBe(0);
    expect(page.response.status).toBe(404);
    // Past the last page of a non-empty collection it is a real 404.
    route = () => ({ status: 404, json: { code: 404, message: 'Not Found', description: 'Last page is 3' } });
    expect(await failure(client().listCategories({ page: 4 }))).toBeInstanceOf(NotFoundError);
  });

  test('a collection that shrinks while it is read ends at the page that is gone', async () => {
    route = (request) =>
      request.url.includes('page=2')
        ? { status: 404, json: { code: 404, message: 'Not Found', description: 'Last page is 1' } }
        : { headers: { Link: `<${store.baseUrl}/categories?page=2>; rel="next"` }, json: [{ id: 1 }] };
    const ids: number[] = [];
    for await (const category of client().iterateCategories()) ids.push(category.id);
    expect(ids).toEqual([1]);
  });

  test('a Link to another origin is not followed with the token', async () => {
    route = () => ({ headers: { Link: '<https://elsewhere.example/v1/1/products?page=2>; rel="next"' }, json: [{ id: 1 }] });
    const error = await failure(
      (async () => {
        for await (const _ of client().iterateProducts()) void _;
      })(),
    );
    expect(error).toBeInstanceOf(StoreRequestError);
    expect(store.requests).toHaveLength(1);
  });

  test('a same-host Link to another store id is not followed with the token', async () => {
    route = () => ({ headers: { Link: `<${store.origin}/v1/999999/products?page=2>; rel="next"` }, json: [{ id: 1 }] });
    const error = await failure(
      (async () => {
        for await (const _ of client().iterateProducts()) void _;
      })(),
    );
    expect(error).toBeInstanceOf(StoreInvalidResponseError);
    expect(error.message).toContain("outside this store's base");
    expect(store.requests).toHaveLength(1);
  });

  test('a Link next back to a page already read is refused instead of looping', async () => {
    route = () => ({ headers: { Link: `<${store.baseUrl}/products?page=1>; rel="next"` }, json: [{ id: 1 }] });
    const error = await failure(
      (async () => {
        for await (const _ of client().iterateProducts()) void _;
      })(),
    );
    expect(error).toBeInstanceOf(StoreInvalidResponseError);
    expect(error.message).toContain('already read');
  });

  test('a collection body that is not an array is a contract break, said so', async () => {
    route = () => ({ json: { products: [] } });
    const error = await failure(client().listProducts());
    expect(error).toBeInstanceOf(StoreInvalidResponseError);
    expect((error as StoreInvalidResponseError).code).toBe('STORE_ERR_INVALID_RESPONSE');
    expect(error.message).toContain('not a JSON array');
  });

  test('listWebhooks gathers every page', async () => {
    route = (request) =>
      request.url.includes('page=2')
        ? { json: [{ id: 2, event: 'app/resumed', url: 'https://hooks.example/r' }] }
        : { headers: { Link: `<${store.baseUrl}/webhooks?page=2>; rel="next"` }, json: [{ id: 1, event: 'app/suspended', url: 'https://hooks.example/s' }] };
    expect((await client().listWebhooks()).map((w) => w.event)).toEqual(['app/suspended', 'app/resumed']);
  });
});

test.describe('resources', () => {
  test('create, read, update and delete go to the documented paths with JSON bodies', async () => {
    route = (request) => ({ status: request.method === 'POST' ? 201 : 200, json: request.method === 'DELETE' ? {} : { id: 7, name: { es: 'Uno', pt: 'Um' } } });
    const c = client();
    expect((await c.createProduct({ name: 'Uno' })).id).toBe(7);
    expect((await c.getProduct(7)).name).toEqual({ es: 'Uno', pt: 'Um' });
    await c.updateCategory(7, { name: { es: 'Dos' } });
    await c.deleteCategory(7);
    await c.createWebhook({ event: 'app/suspended', url: 'https://hooks.example/s' });
    await c.deleteWebhook(3);
    expect(store.requests.map((r) => `${r.method} ${r.url} ${r.body}`)).toEqual([
      `POST /v1/${STORE_ID}/products {"name":"Uno"}`,
      `GET /v1/${STORE_ID}/products/7 `,
      `PUT /v1/${STORE_ID}/categories/7 {"name":{"es":"Dos"}}`,
      `DELETE /v1/${STORE_ID}/categories/7 `,
      `POST /v1/${STORE_ID}/webhooks {"event":"app/suspended","url":"https://hooks.example/s"}`,
      `DELETE /v1/${STORE_ID}/webhooks/3 `,
    ]);
  });
});

test.describe('typed errors', () => {
  test('store.client.payment-required-message: 402 says payment must be resumed, not a server error', async () => {
    route = () => ({ status: 402, text: '' });
    const error = await failure(client().listProducts());
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect(error).toBeInstanceOf(StoreApiError);
    expect((error as PaymentRequiredError).code).toBe('STORE_ERR_PAYMENT_REQUIRED');
    expect((error as PaymentRequiredError).status).toBe(402);
    expect(error.message).toMatch(/^Store API answered 402 Payment Required to GET /);
    expect(error.message).toMatch(/suspended for lack of payment/);
    expect(error.message).toMatch(/payment must be resumed/);
    expect(error.message).not.toMatch(/internal server error/i);
    expect(error.message).not.toContain(TOKEN);
  });

  test('store.client.validation-error-fields: 422 field arrays, plain and mixed', async () => {
    route = () => ({ status: 422, json: { name: ["can't be blank"], handle: ['is taken', 'is too long'] } });
    const plain = (await failure(client().createCategory({ name: '' }))) as ValidationError;
    expect(plain).toBeInstanceOf(ValidationError);
    expect(plain.code).toBe('STORE_ERR_VALIDATION');
    expect(plain.fields).toEqual({ name: ["can't be blank"], handle: ['is taken', 'is too long'] });
    expect(plain.message).toContain("name: can't be blank");
    expect(plain.message).toContain('handle: is taken; is too long');

    route = () => ({
      status: 422,
      json: { code: 422, message: 'Unprocessable Entity', description: 'Validation error', price: ['The price must be at least 0.'] },
    });
    const mixed = (await failure(client().createProduct({ name: 'x' }))) as ValidationError;
    expect(mixed.fields).toEqual({ price: ['The price must be at least 0.'] });
    expect(mixed.message).toContain('price: The price must be at least 0.');
  });

  test('404 is a NotFoundError with the description', async () => {
    route = () => ({ status: 404, json: { code: 404, message: 'Not Found', description: 'Category with such id does not exist' } });
    const error = (await failure(client().getCategory(999))) as NotFoundError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.description).toBe('Category with such id does not exist');
    expect(error.url).toBe(`${store.baseUrl}/categories/999`);
    expect(error.message).toContain('Category with such id does not exist');
    expect(error.message).toMatch(/Fix: /);
  });

  test('other statuses are StoreApiErrors that say who speaks and the fix; echoed secrets are redacted', async () => {
    route = () => ({ status: 401, json: { code: 401, message: 'Unauthorized', description: `Invalid access token ${TOKEN}` } });
    const error = (await failure(client().getStore())) as StoreApiError;
    expect(error.constructor).toBe(StoreApiError);
    expect(error.status).toBe(401);
    expect(error.method).toBe('GET');
    expect(error.message).toMatch(/^Store API answered 401 Unauthorized to GET .*Fix: check the token/);
    expect(error.message).not.toContain(TOKEN);
    expect(JSON.stringify(error.body)).not.toContain(TOKEN);
  });
});
