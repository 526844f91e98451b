import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { control, createStore, send, storeApi, useTestTwin, type TwinStoreInfo } from './twinHttp.ts';

// The twin's storefront (src/twins/store/storefront): product pages built from the API's own state.

const twin = useTestTwin();

const HOSTILE_NAME = 'Remera </script><script>alert(1)</script> & "x" \'y\'';

async function productWithVariants(store: TwinStoreInfo, extra: Record<string, unknown> = {}): Promise<{ id: number; variants: Record<string, unknown>[] }> {
  const answer = await storeApi(store)('/products', {
    method: 'POST',
    json: {
      name: HOSTILE_NAME,
      variants: [
        { price: '10', stock: 2, sku: 'A-1', values: ['Rojo <b>'] },
        { price: null, sku: 'A-2', values: ['Azul'] },
      ],
      ...extra,
    },
  });
  expect(answer.status).toBe(201);
  return answer.json();
}

function pageOf(store: TwinStoreInfo, productId: number | string): string {
  return `${twin().url}/storefront/${store.storeId}/products/${productId}`;
}

/** The variant objects the page hands to LS callbacks. */
function lsVariants(html: string): Record<string, unknown>[] {
  const json = /<script type="application\/json" id="ls-variants">(.*?)<\/script>/s.exec(html)?.[1];
  expect(json, 'the page carries its variants as JSON').toBeDefined();
  return JSON.parse(json!);
}

test('the product page shows the variants the API answers, a picker option and a form container for each', async () => {
  const store = await createStore(twin().url, { products: 0 });
  const product = await productWithVariants(store);
  const page = await send(pageOf(store, product.id));
  expect(page.status).toBe(200);
  expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
  const variants = lsVariants(page.text);
  expect(variants).toEqual(
    product.variants.map((variant) => ({
      element: `#product_form_${variant['id']}`,
      id: variant['id'],
      product_id: product.id,
      image_id: variant['image_id'],
      position: variant['position'],
      price: variant['price'],
      promotional_price: variant['promotional_price'],
      stock: variant['stock'],
      sku: variant['sku'],
      values: variant['values'],
    })),
  );
  for (const variant of product.variants) {
    expect(page.text).toContain(`<option value="${variant['id']}"`);
    expect(page.text).toContain(`<div id="product_form_${variant['id']}" class="js-product-form" data-variant-id="${variant['id']}"`);
    expect(page.text).toContain(`<input type="hidden" name="variant_id" value="${variant['id']}">`);
  }
  expect(page.text, 'only the first variant’s form is shown at first').toMatch(new RegExp(`id="product_form_${product.variants[1]!['id']}"[^>]* hidden>`));
});

test('values from state are escaped: a product name cannot close the script or add markup', async () => {
  const store = await createStore(twin().url, { products: 0 });
  const product = await productWithVariants(store);
  const { text } = await send(pageOf(store, product.id));
  expect(text).not.toContain('<script>alert(1)');
  expect(text).not.toContain('<b>');
  expect(text).toContain('Remera &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot; &#39;y&#39;');
  // Two script elements, the JSON and LS: the name inside the JSON is \u-escaped.
  expect(text.match(/<\/script>/g)).toHaveLength(2);
  expect(lsVariants(text)[0]!['values']).toEqual([{ es: 'Rojo <b>', pt: 'Rojo <b>', en: 'Rojo <b>' }]);
});

test('store.storefront.works-while-suspended: the page is served while every API call answers 402', async () => {
  const store = await createStore(twin().url, { products: 0 });
  const product = await productWithVariants(store);
  await control(twin().url, 'POST', `/stores/${store.storeId}/suspend`);
  expect((await storeApi(store)(`/products/${product.id}`)).status).toBe(402);
  const page = await send(pageOf(store, product.id));
  expect(page.status).toBe(200);
  expect(lsVariants(page.text)).toHaveLength(2);
});

test('unknown stores and products, unpublished products and other paths answer a 404 page saying what is served', async () => {
  const store = await createStore(twin().url, { products: 0 });
  const hidden = await productWithVariants(store, { published: false });
  const cases: [string, RegExp][] = [
    [`/storefront/999999/products/1`, /Store 999999 does not exist on this twin/],
    [`/storefront/${store.storeId}/products/123`, new RegExp(`Store ${store.storeId} has no product 123`)],
    [`/storefront/${store.storeId}/products/${hidden.id}`, /is not published/],
    ['/storefront', /serves product pages only, at \/storefront\/\{store_id\}\/products\/\{product_id\}/],
    [`/storefront/${store.storeId}/productos/1`, /serves product pages only/],
    [`/storefront/${store.storeId}/products/1/extra`, /serves product pages only/],
  ];
  for (const [path, message] of cases) {
    const answer = await send(`${twin().url}${path}`);
    expect(answer.status, path).toBe(404);
    expect(answer.headers['content-type'], path).toBe('text/html; charset=utf-8');
    expect(answer.text, path).toMatch(message);
  }
});

test('bad input gets a clear 4xx: ids that are not digits 400, other methods 405 with Allow, HEAD the headers only', async () => {
  const store = await createStore(twin().url, { products: 0 });
  const product = await productWithVariants(store);
  for (const [path, what] of [
    [`/storefront/abc/products/${product.id}`, '&quot;abc&quot; is not a store id'],
    [`/storefront/${store.storeId}/products/-1`, '&quot;-1&quot; is not a product id'],
    [`/storefront/${store.storeId}/products/%3Cb%3E`, '&quot;&lt;b&gt;&quot; is not a product id'],
  ] as const) {
    const answer = await send(`${twin().url}${path}`);
    expect(answer.status, path).toBe(400);
    expect(answer.text, path).toContain(what);
  }
  for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
    const answer = await send(pageOf(store, product.id), { method });
    expect(answer.status, method).toBe(405);
    expect(answer.headers['allow']).toBe('GET, HEAD');
  }
  const get = await send(pageOf(store, product.id));
  const head = await send(pageOf(store, product.id), { method: 'HEAD' });
  expect(head.status).toBe(200);
  expect(head.text).toBe('');
  expect(head.headers['content-length']).toBe(get.headers['content-length']);
});
