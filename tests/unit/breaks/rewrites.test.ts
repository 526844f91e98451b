import { expect, test } from '../../../src/testing/harnessTest.ts';
import { startBreakingProxy, type ProviderChange, type ProxiedRequest, type ProxiedResponse } from '../../../src/testing/providerBreaks/breakingProxy.ts';
import { STORE_BREAKS } from '../../../src/testing/providerBreaks/storeBreaks.ts';
import { MEDIA_BREAKS } from '../../../src/testing/providerBreaks/mediaBreaks.ts';
import { STORE_DEVIATIONS } from '../../../src/testing/providerBreaks/storeDeviations.ts';
import { MEDIA_DEVIATIONS } from '../../../src/testing/providerBreaks/mediaDeviations.ts';
import { STORE_CONTRACT } from '../../../src/rules/storeContract.ts';
import { startScriptedServer } from '../support/scriptedServer.ts';

const BASE = 'http://127.0.0.1:9/v1/100001';
const LINK = `<${BASE}/products?page=1&per_page=10>; rel="first", <${BASE}/products?page=1&per_page=10>; rel="prev", <${BASE}/products?page=3&per_page=10>; rel="next", <${BASE}/products?page=26&per_page=10>; rel="last"`;

const request = (path: string, method = 'GET'): ProxiedRequest => ({ method, path, headers: { host: '127.0.0.1:9' }, body: Buffer.alloc(0) });
const page = (body: unknown = [{ id: 1, created_at: '2012-02-19T17:34:36+0000' }]): ProxiedResponse => ({
  status: 200,
  headers: { 'x-total-count': '260', link: LINK, 'x-rate-limit-limit': '40', 'x-rate-limit-remaining': '38', 'x-rate-limit-reset': '1000' },
  body: JSON.stringify(body),
});
const answer = (change: ProviderChange, req: ProxiedRequest, res: ProxiedResponse) =>
  change.onResponse!(res, change.onRequest?.(req, {}, new Map()) ?? req, new Map());

test('the near-miss timestamps no longer fit the contract format, and nothing else of the body changes', () => {
  const stamps = ['timestamps-with-colon', 'timestamps-without-seconds', 'timestamps-with-milliseconds', 'timestamps-zulu'].map(
    (name) => (JSON.parse(answer(STORE_BREAKS[name]!, request('/v1/100001/products'), page()).body) as { id: number; created_at: string }[])[0]!,
  );
  expect(stamps.map((s) => s.created_at)).toEqual([
    '2012-02-19T17:34:36+00:00',
    '2012-02-19T17:34+0000',
    '2012-02-19T17:34:36.000+0000',
    '2012-02-19T17:34:36Z',
  ]);
  expect(stamps.filter((s) => STORE_CONTRACT.timestampPattern.test(s.created_at))).toEqual([]);
  expect(new Set(stamps.map((s) => s.id))).toEqual(new Set([1]));
});

test('headers dropped on later pages only: page 1 keeps Link, X-Total-Count and the rate headers', () => {
  for (const [name, headers] of [
    ['link-dropped-after-first-page', ['link']],
    ['total-count-dropped-after-first-page', ['x-total-count']],
    ['rate-headers-dropped-after-first-page', ['x-rate-limit-limit', 'x-rate-limit-remaining', 'x-rate-limit-reset']],
  ] as const) {
    const first = answer(STORE_BREAKS[name]!, request('/v1/100001/products?per_page=10'), page());
    const second = answer(STORE_BREAKS[name]!, request('/v1/100001/products?page=2&per_page=10'), page());
    for (const header of headers) {
      expect(first.headers[header], `${name}: page 1 keeps ${header}`).toBeDefined();
      expect(second.headers[header], `${name}: page 2 drops ${header}`).toBeUndefined();
    }
  }
});

test('Link rewrites: next to the same page, last one short; a Link without prev and first is a deviation', () => {
  const same = answer(STORE_BREAKS['link-next-same-page']!, request('/v1/100001/products?page=2&per_page=10'), page());
  expect(same.headers.link).toContain(`<${BASE}/products?page=2&per_page=10>; rel="next"`);
  const short = answer(STORE_BREAKS['link-last-one-short']!, request('/v1/100001/products?page=2&per_page=10'), page());
  expect(short.headers.link).toContain(`<${BASE}/products?page=25&per_page=10>; rel="last"`);
  const open = answer(STORE_DEVIATIONS['link-without-prev-first']!, request('/v1/100001/products?page=2&per_page=10'), page());
  expect(open.headers.link).toBe(`<${BASE}/products?page=3&per_page=10>; rel="next", <${BASE}/products?page=26&per_page=10>; rel="last"`);
});

test('a page past the last answers 200 [] with the total the proxy saw for that collection', () => {
  const deviation = STORE_DEVIATIONS['past-last-page-200-empty']!;
  const memory = new Map<string, string>();
  deviation.onResponse!(page(), request('/v1/100001/products?per_page=1'), memory);
  const past = deviation.onResponse!(
    { status: 404, headers: { 'x-main-language': 'es' }, body: '{"code":404,"message":"Not Found","description":"Last page is 6"}' },
    request('/v1/100001/products?per_page=50&page=7'),
    memory,
  );
  expect([past.status, past.body, past.headers['x-total-count'], past.headers['x-main-language']]).toEqual([200, '[]', '260', 'es']);
  expect(past.headers.link).toBe(
    '<http://127.0.0.1:9/v1/100001/products?page=1&per_page=50>; rel="first", <http://127.0.0.1:9/v1/100001/products?page=6&per_page=50>; rel="last"',
  );
  const empty = deviation.onResponse!(
    { status: 404, headers: {}, body: '{"code":404,"message":"Not Found","description":"Last page is 0"}' },
    request('/v1/100001/products?updated_at_min=2999-01-01'),
    memory,
  );
  expect([empty.status, empty.body, empty.headers['x-total-count'], empty.headers.link]).toEqual([200, '[]', '0', undefined]);
});

test('media: links.next dropped only where there is more, meta.count off, query parameters ignored, errors not an array', () => {
  const doc = { data: [{ id: '1', type: 'anime', attributes: {} }], meta: { count: 42 }, links: { first: 'f', next: 'n', last: 'l' } };
  const res: ProxiedResponse = { status: 200, headers: {}, body: JSON.stringify(doc) };
  const noNext = JSON.parse(answer(MEDIA_BREAKS['links-next-missing']!, request('/api/edge/anime'), res).body) as typeof doc;
  expect(noNext.links).toEqual({ first: 'f', last: 'l' });
  const laterOnly = MEDIA_BREAKS['links-next-missing-after-first-page']!;
  expect((JSON.parse(answer(laterOnly, request('/api/edge/anime?page%5Boffset%5D=0'), res).body) as typeof doc).links.next).toBe('n');
  expect((JSON.parse(answer(laterOnly, request('/api/edge/anime?page%5Boffset%5D=10'), res).body) as typeof doc).links.next).toBeUndefined();
  expect((JSON.parse(answer(MEDIA_BREAKS['meta-count-off-by-one']!, request('/api/edge/anime'), res).body) as typeof doc).meta.count).toBe(43);
  const stripped = (name: string, path: string) => MEDIA_BREAKS[name]!.onRequest!(request(path), {}, new Map()).path;
  expect(stripped('include-ignored', '/api/edge/anime/1?include=categories&page%5Blimit%5D=2')).toBe('/api/edge/anime/1?page%5Blimit%5D=2');
  expect(stripped('fields-ignored', '/api/edge/anime?fields%5Banime%5D=slug')).toBe('/api/edge/anime');
  expect(stripped('sort-ignored', '/api/edge/anime?sort=-userCount')).toBe('/api/edge/anime');
  expect(stripped('page-offset-ignored', '/api/edge/anime?page%5Blimit%5D=3&page%5Boffset%5D=4')).toBe('/api/edge/anime?page%5Blimit%5D=3');
  expect(stripped('filter-ignored', '/api/edge/anime?filter%5Bslug%5D=x')).toBe('/api/edge/anime');
  expect(stripped('filter-ignored', '/api/edge/library-entries?filter%5BuserId%5D=1'), 'library entries keep the filter they need').toBe(
    '/api/edge/library-entries?filter%5BuserId%5D=1',
  );
  const notFound: ProxiedResponse = { status: 404, headers: {}, body: '{"errors":[{"title":"Record not found","status":"404"}]}' };
  expect(JSON.parse(answer(MEDIA_BREAKS['errors-not-an-array']!, request('/api/edge/anime/0'), notFound).body)).toEqual({
    errors: { title: 'Record not found', status: '404' },
  });
  expect(JSON.parse(answer(MEDIA_DEVIATIONS['jsonapi-member']!, request('/api/edge/anime/0'), notFound).body)).toMatchObject({ jsonapi: { version: '1.0' } });
});

test('the proxy applies a change between client and provider, and answers 204 without a body or a length', async () => {
  const upstream = await startScriptedServer(
    (req) =>
      req.method === 'DELETE'
        ? { status: 200, json: {} }
        : { status: 201, json: { id: 7, created_at: '2012-02-19T17:34:36+0000' }, headers: { 'x-total-count': '3' } },
    { contentType: 'application/json; charset=utf-8', headersOf: (req) => Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])) },
  );
  const created = await startBreakingProxy(upstream.origin, STORE_DEVIATIONS['create-200']!);
  const deleted = await startBreakingProxy(upstream.origin, STORE_DEVIATIONS['delete-204']!);
  try {
    const post = await fetch(`${created.url}/v1/1/products`, { method: 'POST', body: '{"name":"x"}', headers: { 'content-type': 'application/json' } });
    expect([post.status, await post.json()]).toEqual([200, { id: 7, created_at: '2012-02-19T17:34:36+0000' }]);
    expect(upstream.requests[0]).toMatchObject({ method: 'POST', url: '/v1/1/products', body: '{"name":"x"}' });
    const del = await fetch(`${deleted.url}/v1/1/products/7`, { method: 'DELETE' });
    expect([del.status, del.headers.get('content-length'), await del.text()]).toEqual([204, null, '']);
  } finally {
    created.server.close();
    deleted.server.close();
    await upstream.close();
  }
});

test('a bodyless PUT goes on as it came: without a length (the store answers 411), or with Content-Length: 0', async () => {
  const { request: httpRequest } = await import('node:http');
  const upstream = await startScriptedServer(() => ({ status: 200, json: {} }), {
    contentType: 'application/json',
    headersOf: (req) => Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
  });
  const proxy = await startBreakingProxy(upstream.origin, {});
  const put = (length: boolean) =>
    new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${proxy.url}/v1/1/categories/1`, { method: 'PUT', headers: length ? { 'content-length': '0' } : {} }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      if (!length) req.removeHeader('content-length');
      req.removeHeader('transfer-encoding');
      req.end();
    });
  try {
    await put(false);
    await put(true);
    expect(upstream.requests.map((r) => [r.headers['content-length'] ?? null, r.headers['transfer-encoding'] ?? null])).toEqual([
      [null, null],
      ['0', null],
    ]);
  } finally {
    proxy.server.close();
    await upstream.close();
  }
});

test('the breaks of meaning stay well formed and say the wrong thing', () => {
  // Link entries keep page and per_page only.
  const filtered = `<${BASE}/products?since_id=5&fields=id%2Cname&page=2&per_page=2>; rel="next"`;
  const dropped = answer(STORE_BREAKS['link-drops-query']!, request('/v1/100001/products?since_id=5'), { ...page(), headers: { link: filtered } });
  expect(dropped.headers['link']).toBe(`<${BASE}/products?page=2&per_page=2>; rel="next"`);
  // Remaining one too low, the other headers kept.
  const low = answer(STORE_BREAKS['rate-remaining-one-too-low']!, request('/v1/100001/products'), page());
  expect(low.headers).toMatchObject({ 'x-rate-limit-limit': '40', 'x-rate-limit-remaining': '37', 'x-rate-limit-reset': '1000' });
  // A token sent to another store's path is swapped for that store's; a path is rewritten to the token's store.
  const crossed: ProxiedRequest = { ...request('/v1/100002/store'), headers: { authentication: 'bearer twin-token-100001' } };
  expect(STORE_BREAKS['token-opens-any-store']!.onRequest!(crossed, {}, new Map()).headers['authentication']).toBe('bearer twin-token-100002');
  expect(STORE_BREAKS['path-store-ignored']!.onRequest!(crossed, {}, new Map()).path).toBe('/v1/100001/store');
  // The token endpoint's errors answered 200, the body unchanged.
  const refused: ProxiedResponse = { status: 400, headers: {}, body: '{"error":"invalid_grant"}' };
  expect(answer(STORE_BREAKS['token-errors-answered-200']!, request('/apps/authorize/token', 'POST'), refused)).toEqual({ ...refused, status: 200 });
});
