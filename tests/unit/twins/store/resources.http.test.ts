import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { STORE_CONTRACT } from '../../../../src/rules/storeContract.ts';
import type { RunningStoreTwin } from '../../../../src/twins/store/server.ts';
import { advanceClock, control, createStore, send, startTestTwin, storeApi, USER_AGENT } from './twinHttp.ts';

const { defaultPerPage, maxPerPage, timestampPattern } = STORE_CONTRACT;
let twin: RunningStoreTwin;
let internalErrors: unknown[];

test.beforeAll(async () => {
  ({ twin, internalErrors } = await startTestTwin());
});
test.afterAll(async () => {
  await twin.close();
  expect(internalErrors).toEqual([]);
});

function parseLink(header: string | string[] | undefined): Record<string, string> {
  const links: Record<string, string> = {};
  for (const match of String(header ?? '').matchAll(/<([^>]+)>; rel="(\w+)"/g)) links[match[2]!] = match[1]!;
  return links;
}

test('the seeded stores: 100001 in es/pt/en with 260 products and 21 categories, 100002 in pt only', async () => {
  const api = storeApi({ baseUrl: `${twin.url}/v1/100001`, token: 'twin-token-100001' });
  const store = (await api('/store')).json();
  expect(store).toMatchObject({ id: 100001, main_language: 'es', languages: ['es', 'pt', 'en'] });
  const products = await api('/products?per_page=1');
  expect(products.headers['x-total-count']).toBe('260');
  const categories = (await api('/categories?per_page=200')).json();
  expect(categories).toHaveLength(21);
  const roots = categories.filter((category: { parent: number | null }) => category.parent === null);
  expect(roots).toHaveLength(3);
  for (const root of roots) {
    expect(root.subcategories).toHaveLength(2);
    for (const childId of root.subcategories) {
      const child = categories.find((category: { id: number }) => category.id === childId);
      expect(child.parent).toBe(root.id);
      expect(child.subcategories).toHaveLength(2);
    }
  }
  const single = storeApi({ baseUrl: `${twin.url}/v1/100002`, token: 'twin-token-100002' });
  const [product] = (await single('/products?per_page=1')).json();
  expect(Object.keys(product.name), 'store.localized.always-object with one language').toEqual(['pt']);
  expect((await single('/products?per_page=1')).headers['x-main-language']).toBe('pt');
  expect((await single('/products')).headers['x-total-count']).toBe('40');
});

test('seed data is the same on every start; reset restores the seeded stores and drops created ones', async () => {
  const read = (url: string): Promise<string> =>
    storeApi({ baseUrl: `${url}/v1/100002`, token: 'twin-token-100002' })('/products?per_page=5').then((answer) => answer.text);
  const other = await startTestTwin();
  try {
    expect(await read(other.twin.url)).toBe(await read(twin.url));
  } finally {
    await other.twin.close();
  }
  const created = await createStore(twin.url, { products: 0 });
  const before = await read(twin.url);
  await storeApi({ baseUrl: `${twin.url}/v1/100002`, token: 'twin-token-100002' })('/products', { method: 'POST', json: { name: 'Extra' } });
  await control(twin.url, 'POST', '/reset');
  expect(await read(twin.url)).toBe(before);
  const stores = await control<Array<{ storeId: number }>>(twin.url, 'GET', '/stores');
  expect(stores.map((store) => store.storeId)).toEqual([100001, 100002]);
  expect((await send(`${twin.url}/__twin/stores/${created.storeId}`)).status).toBe(404);
});

test('store.pagination.default-page-size, follow-links, link-full-urls: following next visits every item once', async () => {
  const store = await createStore(twin.url, { products: 95 });
  const api = storeApi(store);
  const first = await api('/products');
  expect(first.json()).toHaveLength(defaultPerPage);
  expect(first.headers['x-total-count']).toBe('95');
  const seen: number[] = [];
  let url: string | undefined = `${store.baseUrl}/products?fields=id`;
  let pages = 0;
  while (url) {
    const answer = await send(url, { headers: { 'User-Agent': USER_AGENT, Authentication: `bearer ${store.token}` } });
    expect(answer.status).toBe(200);
    seen.push(...answer.json().map((product: { id: number }) => product.id));
    url = parseLink(answer.headers['link'])['next'];
    pages += 1;
  }
  expect(pages).toBe(4);
  expect(seen).toHaveLength(95);
  expect(new Set(seen).size).toBe(95);
  expect(seen, 'ids ascending').toEqual([...seen].sort((a, b) => a - b));
});

test('Link URLs use the Host header and echo the query; past the last page is 404 "Last page is N"', async () => {
  const store = await createStore(twin.url, { products: 250 });
  const headers = { 'User-Agent': USER_AGENT, Authentication: `bearer ${store.token}`, Host: 'shop.example.test:8080' };
  const answer = await send(`${store.baseUrl}/products?published=true&per_page=500&page=1`, { headers });
  expect(answer.json()).toHaveLength(Math.min(500, maxPerPage, Number(answer.headers['x-total-count'])));
  const links = parseLink(answer.headers['link']);
  expect(Object.keys(links)).toEqual(['next', 'last']);
  expect(links['next']).toBe(`http://shop.example.test:8080/v1/${store.storeId}/products?published=true&page=2&per_page=${maxPerPage}`);
  const past = await storeApi(store)('/products?per_page=100&page=4');
  expect(past.status).toBe(404);
  expect(past.json()).toEqual({ code: 404, message: 'Not Found', description: 'Last page is 3' });
  const bad = await storeApi(store)('/products?per_page=-5');
  expect(bad.json()).toEqual({ code: 400, message: 'Bad Request', description: 'per_page must be a positive integer' });
});

test('an empty product collection answers 404 "Last page is 0"; an empty webhook list is []', async () => {
  const store = await createStore(twin.url, { products: 0 });
  const api = storeApi(store);
  const products = await api('/products');
  expect(products.status).toBe(404);
  expect(products.json()).toEqual({ code: 404, message: 'Not Found', description: 'Last page is 0' });
  const webhooks = await api('/webhooks');
  expect(webhooks.status).toBe(200);
  expect(webhooks.json()).toEqual([]);
  expect(webhooks.headers['x-total-count']).toBe('0');
});

test('store.products.create-201 and crud: create, read, update, delete; a default variant; timestamps from the store clock', async () => {
  const store = await createStore(twin.url, { products: 0 });
  const api = storeApi(store);
  const created = await api('/products', { method: 'POST', json: { name: 'Poké Balls', categories: [] } });
  expect(created.status).toBe(201);
  const product = created.json();
  expect(product).toMatchObject({
    name: { es: 'Poké Balls', pt: 'Poké Balls', en: 'Poké Balls' },
    handle: { es: 'poke-balls', pt: 'poke-balls', en: 'poke-balls' },
    description: { es: '', pt: '', en: '' },
    published: true,
    created_at: '2026-01-01T00:00:00+0000',
    updated_at: '2026-01-01T00:00:00+0000',
    categories: [],
    images: [],
  });
  expect(product.variants).toHaveLength(1);
  expect(product.variants[0]).toMatchObject({ product_id: product.id, position: 1, values: [] });
  for (const key of Object.keys(product)) expect(key, 'store.json.snake-case-keys').toMatch(/^[a-z0-9_]+$/);

  await advanceClock(twin.url, store.storeId, 90_000);
  const updated = await api(`/products/${product.id}`, { method: 'PUT', json: { name: { pt: 'Pokébolas' }, published: false } });
  expect(updated.status).toBe(200);
  expect(updated.json()).toMatchObject({
    name: { es: 'Poké Balls', pt: 'Pokébolas', en: 'Poké Balls' },
    handle: { es: 'poke-balls', pt: 'poke-balls', en: 'poke-balls' },
    published: false,
    created_at: '2026-01-01T00:00:00+0000',
    updated_at: '2026-01-01T00:01:30+0000',
  });
  expect((await api(`/products/${product.id}`)).json()).toEqual(updated.json());
  const deleted = await api(`/products/${product.id}`, { method: 'DELETE' });
  expect(deleted.status).toBe(200);
  expect(deleted.json()).toEqual({});
  const gone = await api(`/products/${product.id}`);
  expect(gone.status).toBe(404);
  expect(gone.json()).toEqual({ code: 404, message: 'Not Found', description: 'Product with such id does not exist' });
});

test('store.errors.validation-422 and store.localized.unknown-language-422 on products', async () => {
  const store = await createStore(twin.url, { products: 0 });
  const api = storeApi(store);
  const cases: Array<[unknown, unknown]> = [
    [{}, { name: ["can't be blank"] }],
    [{ name: '   ' }, { name: ["can't be blank"] }],
    [{ name: { es: '', pt: ' ' } }, { name: ["can't be blank"] }],
    [{ name: { es: 'Hola', fr: 'Salut' } }, { name: ["language 'fr' is not active in this store"] }],
    [{ name: 'ok', description: { de: 'x' } }, { description: ["language 'de' is not active in this store"] }],
    [{ name: 7 }, { name: ['must be a string or an object of strings keyed by language code'] }],
    [{ name: 'ok', images: [{ src: '' }] }, { src: ["can't be blank"] }],
  ];
  for (const [body, errors] of cases) {
    const answer = await api('/products', { method: 'POST', json: body });
    expect(answer.status, JSON.stringify(body)).toBe(422);
    expect(answer.json()).toEqual(errors);
  }
  const mixed = await api('/products', { method: 'POST', json: { name: 'ok', variants: [{ price: '-1', stock: 'many' }] } });
  expect(mixed.json()).toEqual({
    code: 422,
    message: 'Unprocessable Entity',
    description: 'Validation error',
    price: ['The price must be at least 0.'],
    stock: ['The stock must be an integer.'],
  });
});

test('images: POST without src or with a blank src is 422 {"src":["can\'t be blank"]}; with src it is 201', async () => {
  const store = await createStore(twin.url, { products: 1 });
  const api = storeApi(store);
  const [product] = (await api('/products')).json();
  for (const body of [{}, { src: '' }, { src: '   ' }]) {
    const answer = await api(`/products/${product.id}/images`, { method: 'POST', json: body });
    expect(answer.status).toBe(422);
    expect(answer.json()).toEqual({ src: ["can't be blank"] });
  }
  const created = await api(`/products/${product.id}/images`, { method: 'POST', json: { src: 'https://cdn.example.test/a.jpg' } });
  expect(created.status).toBe(201);
  expect(created.json()).toMatchObject({ product_id: product.id, src: 'https://cdn.example.test/a.jpg' });
  const images = (await api(`/products/${product.id}/images`)).json();
  expect(images.at(-1).id).toBe(created.json().id);
  const variants = await api(`/products/${product.id}/variants`);
  expect(variants.json()).toHaveLength(1);
  const bySku = await api(`/products/sku/${encodeURIComponent(variants.json()[0].sku)}`);
  expect(bySku.json().id).toBe(product.id);
  expect((await api('/products/sku/NOPE')).status).toBe(404);
});

test('store.products.filters: since_id, dates, category_id, handle, q, fields', async () => {
  const store = await createStore(twin.url, { products: 60 });
  const api = storeApi(store);
  const all = (await api('/products?per_page=200')).json();
  const sinceId = all[49].id;
  expect((await api(`/products?since_id=${sinceId}`)).json().map((p: { id: number }) => p.id)).toEqual(all.slice(50).map((p: { id: number }) => p.id));

  const created = (await api('/products', { method: 'POST', json: { name: 'Nuevo' } })).json();
  const recent = await api('/products?created_at_min=2026-01-01T00:00:00+0000');
  expect(recent.json().map((p: { id: number }) => p.id)).toEqual([created.id]);
  expect((await api('/products?updated_at_max=2024-12-31')).status, 'no matches').toBe(404);
  const badDate = await api('/products?created_at_min=yesterday');
  expect(badDate.status).toBe(400);
  expect(badDate.json().description).toContain('created_at_min');

  const categoryId = all[0].categories[0].id;
  const inCategory = (await api(`/products?category_id=${categoryId}&per_page=200`)).json();
  expect(inCategory.length).toBeGreaterThan(0);
  for (const product of inCategory) expect(product.categories.map((c: { id: number }) => c.id)).toContain(categoryId);

  const byHandle = (await api(`/products?handle=${all[3].handle.en}`)).json();
  expect(byHandle.map((p: { id: number }) => p.id)).toEqual([all[3].id]);
  const search = (await api('/products?q=LAMPARA&per_page=200')).json();
  expect(search.length).toBeGreaterThan(0);
  for (const product of search) expect(product.name.es).toMatch(/^Lámpara/);

  const picked = (await api('/products?fields=id,name&per_page=2')).json();
  expect(picked.map((p: object) => Object.keys(p))).toEqual([
    ['id', 'name'],
    ['id', 'name'],
  ]);
  for (const timestamp of [all[0].created_at, all[0].updated_at, all[0].variants[0].created_at]) expect(timestamp).toMatch(timestampPattern);
});

test('store.categories.crud, tree-references, subcategories-empty-array, parent-null-top-level', async () => {
  const store = await createStore(twin.url, { preset: 'single-language', products: 0 });
  const api = storeApi(store);
  const parent = await api('/categories', { method: 'POST', json: { name: 'Brinquedos' } });
  expect(parent.status).toBe(201);
  expect(parent.json()).toMatchObject({
    name: { pt: 'Brinquedos' },
    handle: { pt: 'brinquedos' },
    parent: null,
    subcategories: [],
    google_shopping_category: null,
  });
  const child = (await api('/categories', { method: 'POST', json: { name: { pt: 'Bonecas' }, parent: parent.json().id } })).json();
  expect(child.parent).toBe(parent.json().id);
  expect((await api(`/categories/${parent.json().id}`)).json().subcategories).toEqual([child.id]);
  expect((await api(`/categories?parent_id=${parent.json().id}`)).json().map((c: { id: number }) => c.id)).toEqual([child.id]);

  const moved = await api(`/categories/${child.id}`, { method: 'PUT', json: { parent: null, description: 'Para brincar' } });
  expect(moved.status).toBe(200);
  expect(moved.json()).toMatchObject({ parent: null, description: { pt: 'Para brincar' } });
  expect((await api(`/categories/${parent.json().id}`)).json().subcategories).toEqual([]);
  const cycle = await api(`/categories/${parent.json().id}`, { method: 'PUT', json: { parent: parent.json().id } });
  expect(cycle.status).toBe(422);
  expect(Object.keys(cycle.json())).toEqual(['parent']);

  expect((await api('/categories', { method: 'POST', json: { description: 'no name' } })).json()).toEqual({ name: ["can't be blank"] });
  const deleted = await api(`/categories/${child.id}`, { method: 'DELETE' });
  expect(deleted.json()).toEqual({});
  for (const id of [child.id, 'abc', '-1', '1e9999']) {
    const missing = await api(`/categories/${id}`);
    expect(missing.status).toBe(404);
    expect(missing.json()).toEqual({ code: 404, message: 'Not Found', description: 'Category with such id does not exist' });
  }
});

test('store.webhooks.registration and invalid-registration-422', async () => {
  const store = await createStore(twin.url, { products: 0 });
  const api = storeApi(store);
  for (const event of ['app/suspended', 'app/resumed', 'product/created']) {
    const answer = await api('/webhooks', { method: 'POST', json: { event, url: 'https://hooks.example.test/in' } });
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.json())).toEqual(['id', 'event', 'url', 'created_at', 'updated_at']);
  }
  const bad = await api('/webhooks', { method: 'POST', json: { event: 'product/exploded', url: 'http://hooks.example.test/in' } });
  expect(bad.status).toBe(422);
  expect(Object.keys(bad.json())).toEqual(['event', 'url']);
  expect(bad.json().event[0]).toMatch(/^Invalid event specified\. Events allowed: .*app\/suspended, app\/resumed/);
  expect(bad.json().url).toEqual(['invalid url specified']);
  const local = await api('/webhooks', { method: 'POST', json: { event: 'product/created', url: 'http://127.0.0.1:9/hook' } });
  expect(local.status, 'twin allowance: http on loopback').toBe(201);
  const id = local.json().id;
  const updated = await api(`/webhooks/${id}`, { method: 'PUT', json: { event: 'product/updated' } });
  expect(updated.json()).toMatchObject({ id, event: 'product/updated' });
  expect((await api('/webhooks')).json()).toHaveLength(4);
  expect((await api(`/webhooks/${id}`, { method: 'DELETE' })).json()).toEqual({});
  expect((await api(`/webhooks/${id}`)).status).toBe(404);
});

test('control API: bad input is 400 naming the field; unknown stores are 404; a real-clock store cannot be advanced', async () => {
  const bad = async (method: string, path: string, body: unknown, field: string): Promise<void> => {
    const answer = await send(`${twin.url}/__twin${path}`, { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect(answer.status, path).toBe(400);
    expect(answer.json().error).toContain(field);
  };
  await bad('POST', '/stores', { products: 20_001 }, 'products');
  await bad('POST', '/stores', { languages: ['es', 'ES'] }, 'languages');
  await bad('POST', '/stores', { languages: ['es'], mainLanguage: 'pt' }, 'mainLanguage');
  await bad('POST', '/stores', { preset: 'many' }, 'preset');
  await bad('POST', '/stores', { clock: 'sundial' }, 'clock');
  const store = await createStore(twin.url, { products: 0, clock: 'real' });
  await bad('POST', `/stores/${store.storeId}/clock`, { advanceMs: 10 }, 'real clock');
  await bad('POST', '/stores/100001/clock', { advanceMs: -1 }, 'advanceMs');
  await bad('POST', '/stores/100001/faults', { status: 404, count: 1 }, 'status');
  await bad('POST', '/stores/100001/faults', { status: 500, count: 0 }, 'count');
  const missing = await send(`${twin.url}/__twin/stores/999/clock`);
  expect(missing.status).toBe(404);
  expect(missing.json().error).toContain('999');
  expect((await send(`${twin.url}/__twin/health`)).json()).toEqual({ ok: true });
  expect((await send(`${twin.url}/v1/__twin/health`, { headers: { 'User-Agent': USER_AGENT } })).status, 'never under /v1').toBe(401);
  const clock = await control(twin.url, 'GET', '/stores/100001/clock');
  expect(clock).toMatchObject({ mode: 'virtual', iso: '2026-01-01T00:00:00.000Z' });
  expect((await send(`${twin.url}/__twin/stores/${store.storeId}`, { method: 'DELETE' })).status).toBe(204);
  expect((await send(`${twin.url}/__twin/stores/${store.storeId}`)).status).toBe(404);
});

test("control API: a store made without naming a clock runs on the real one, so an outside client's bucket drains as time passes", async () => {
  const made = await control<{ clock: string }>(twin.url, 'POST', '/stores', { products: 0 });
  expect(made.clock).toBe('real');
});
