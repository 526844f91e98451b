/**
 * The store twin answers GETs from rendered JSON it keeps until a write
 * (src/twins/serving/renderCache.ts): a cached answer must be the same bytes as
 * a fresh one, and no write may leave a stale one behind.
 */
import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { createStore, storeApi, useTestTwin } from './twinHttp.ts';

const twin = useTestTwin();

test('a cached answer is byte for byte the fresh one, for lists, singles and HEAD', async () => {
  const api = storeApi(await createStore(twin().url, { products: 5 }));
  const fresh = await api('/products');
  const cached = await api('/products');
  expect(cached.text).toBe(fresh.text);
  const [product] = fresh.json() as { id: number }[];
  const single = await api(`/products/${product?.id}`);
  expect(JSON.parse(single.text)).toEqual(product);
  expect((await api(`/products/${product?.id}`)).text).toBe(single.text);
  const head = await api(`/products/${product?.id}`, { method: 'HEAD' });
  expect(head.headers['content-length']).toBe(String(Buffer.byteLength(single.text)));
  expect((await api(`/products/${product?.id}?fields=id`)).json(), 'fields= still picks').toEqual({ id: product?.id });
});

test('an update shows in the next list and single answer', async () => {
  const api = storeApi(await createStore(twin().url, { products: 3 }));
  const [product] = (await api('/products')).json() as { id: number }[];
  await api(`/products/${product?.id}`);
  const updated = await api(`/products/${product?.id}`, { method: 'PUT', json: { name: { es: 'Nombre nuevo' } } });
  expect(updated.status).toBe(200);
  expect((await api(`/products/${product?.id}`)).json()).toMatchObject({ name: { es: 'Nombre nuevo' } });
  const listed = (await api('/products')).json() as { id: number; name: Record<string, string> }[];
  expect(listed.find((p) => p.id === product?.id)?.name['es']).toBe('Nombre nuevo');
});

test("renaming a category shows in the products that embed it (a write to one record changes another's answer)", async () => {
  const api = storeApi(await createStore(twin().url, { products: 0 }));
  const category = (await api('/categories', { method: 'POST', json: { name: { es: 'Antes' } } })).json() as { id: number };
  const product = (await api('/products', { method: 'POST', json: { name: { es: 'Producto' }, categories: [category.id] } })).json() as { id: number };
  const before = (await api(`/products/${product.id}`)).json() as { categories: { name: Record<string, string> }[] };
  expect(before.categories.map((c) => c.name['es'])).toEqual(['Antes']);
  expect((await api(`/categories/${category.id}`, { method: 'PUT', json: { name: { es: 'Después' } } })).status).toBe(200);
  const after = (await api(`/products/${product.id}`)).json() as { categories: { name: Record<string, string> }[] };
  expect(after.categories.map((c) => c.name['es'])).toEqual(['Después']);
  const listed = (await api('/products')).json() as { categories: { name: Record<string, string> }[] }[];
  expect(listed[0]?.categories.map((c) => c.name['es'])).toEqual(['Después']);
});

test('a deleted product leaves the list at once', async () => {
  const api = storeApi(await createStore(twin().url, { products: 2 }));
  const [first] = (await api('/products')).json() as { id: number }[];
  expect((await api(`/products/${first?.id}`, { method: 'DELETE' })).status).toBe(200);
  const ids = ((await api('/products')).json() as { id: number }[]).map((p) => p.id);
  expect(ids).not.toContain(first?.id);
  expect((await api(`/products/${first?.id}`)).status).toBe(404);
});
