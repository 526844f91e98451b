/**
 * Single observable breaks of the Store contract (../shared/specs/store-commerce-api.md)
 * and of what the typed clients and the pacts rely on, each naming the rules it
 * breaks. scripts/breaks.ts runs the live-target store suites (and the store
 * pact verification) against each and expects a test of one of those rules to
 * go red. What the contract leaves open is in storeDeviations.ts instead.
 */
import { request as httpRequest } from '../../http/nodeHttp.ts';
import type { ProviderBreak, ProxiedRequest, ProxiedResponse, ProxyMemory } from './breakingProxy.ts';
import { deepMap, headerOf, mapJson, mapLink, pathOnly, queryOf, withHeaders, withParam, withQuery, type Json } from './rewrite.ts';
import { LeakyBucket } from '../../twins/store/leakyBucket.ts';
import { bucketOfPlan, STORE_CONTRACT } from '../../rules/storeContract.ts';

export type StoreBreak = ProviderBreak<'store'>;

/** GET or HEAD of a collection of the store: /v1/{id}/products or /categories. */
export const isStoreCollection = (path: string) => /\/(products|categories)$/.test(pathOnly(path));

/** The page a collection request asks for (1 when it names none). */
export const pageAsked = (path: string) => Number(queryOf(path).get('page') ?? '1') || 1;

/** An answer to a page after the first of a collection. */
const laterPage = (req: ProxiedRequest, res: ProxiedResponse) => res.status === 200 && isStoreCollection(req.path) && pageAsked(req.path) > 1;

const RATE_HEADERS = { 'x-rate-limit-limit': undefined, 'x-rate-limit-remaining': undefined, 'x-rate-limit-reset': undefined };

/** Rewrites every `*_at` timestamp `2012-02-19T17:34:36+0000` of a body. */
const timestamps = (res: ProxiedResponse, to: (date: string, time: string, offset: string) => string): ProxiedResponse => ({
  ...res,
  body: res.body.replace(
    /"(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})([+-]\d{4})"/g,
    (_m, date: string, time: string, offset: string) => `"${to(date, time, offset)}"`,
  ),
});

/** A request body's JSON, rewritten; left alone when it is not JSON. */
const mapRequestJson = (req: ProxiedRequest, fn: (body: Record<string, Json>) => void): ProxiedRequest => {
  try {
    const body = JSON.parse(req.body.toString('utf8')) as Record<string, Json>;
    fn(body);
    return { ...req, body: Buffer.from(JSON.stringify(body)) };
  } catch {
    return req;
  }
};

const isWrite = (req: ProxiedRequest) => req.method === 'POST' || req.method === 'PUT';

/** A request marked by a break's onRequest for its onResponse (the proxy passes the rewritten request on): the header names what it was. */
const MARK = 'x-provider-break-was';

/**
 * Sends a request again through the proxy it came to (its Host), marked AGAIN so the break lets it pass as it is: how a
 * break makes the provider write more than it was asked. `then` gets the status of its answer (0 when none came).
 */
const AGAIN = 'again';
const sendAgain = (req: ProxiedRequest, path = req.path, then?: (status: number) => void): void => {
  const [hostname, port] = String(req.headers.host ?? '').split(':');
  const { 'transfer-encoding': _chunks, 'content-length': _length, ...headers } = req.headers;
  const body = req.body.length > 0 ? req.body : undefined;
  const again = httpRequest(
    { hostname, port, method: req.method, path, headers: { ...headers, [MARK]: AGAIN, ...(body ? { 'content-length': String(body.length) } : {}) } },
    (answer) => {
      answer.resume();
      answer.on('end', () => then?.(answer.statusCode ?? 0));
    },
  );
  again.on('error', () => then?.(0));
  again.end(body);
};

/** A write the provider answered 429, carried out once the bucket has room: sent again after `ms`, and again while it meets 429. */
const applyLater = (req: ProxiedRequest, ms: number, tries = 60): void =>
  void setTimeout(() => sendAgain(req, req.path, (status) => status === 429 && tries > 1 && applyLater(req, 500, tries - 1)), ms);

/** Sent again at once, and again every 10 ms while it meets 429: the client paces itself to the bucket, the provider's own copy does not wait. */
const sendAgainNow = (req: ProxiedRequest, path = req.path, tries = 200): void =>
  sendAgain(req, path, (status) => void (status === 429 && tries > 1 && setTimeout(() => sendAgainNow(req, path, tries - 1), 10)));

const isWriteOf = (req: ProxiedRequest, path: RegExp) => req.headers[MARK] !== AGAIN && path.test(pathOnly(req.path));

/** One product or category, by id. */
const ONE_RECORD = /\/v1\/\d+\/(products|categories)\/(\d+)$/;

/** A single resource of `collection` by its id: /v1/{store}/categories/{id}. */
const singleOf = (collection: 'products' | 'categories', path: string) => new RegExp(`/${collection}/(\\d+)$`).exec(pathOnly(path))?.[1];

/**
 * Answers a read of one resource with another of the same collection: the listing's items are remembered as they
 * pass, and a 200 of /{collection}/{id} is replaced by a remembered item with another id.
 */
const answersAnother =
  (collection: 'products' | 'categories') =>
  (res: ProxiedResponse, req: ProxiedRequest, memory: ProxyMemory): ProxiedResponse => {
    if (req.method !== 'GET' || res.status !== 200) return res;
    if (new RegExp(`/${collection}$`).test(pathOnly(req.path))) {
      try {
        const items = JSON.parse(res.body) as { id?: unknown }[];
        if (Array.isArray(items) && items.length > 1) memory.set(collection, JSON.stringify(items.filter((i) => typeof i?.id === 'number').slice(0, 10)));
      } catch {
        // not a list: nothing to remember
      }
      return res;
    }
    const id = singleOf(collection, req.path);
    const known = JSON.parse(memory.get(collection) ?? '[]') as { id: number }[];
    const other = known.find((item) => String(item.id) !== id);
    return id !== undefined && other ? { ...res, body: JSON.stringify(other) } : res;
  };

/** The store id a twin token names (twin-token-<store id>, src/twins/store/seed.ts): whose data a token opens. */
const tokenStoreOf = (req: ProxiedRequest) => /twin-token-(\d+)/.exec(String(req.headers.authentication ?? req.headers.authorization ?? ''))?.[1];

/** Each proxy's bucket for 'rate-headers-of-a-larger-bucket', kept beside its memory. */
const enforcedBuckets = new WeakMap<ProxyMemory, LeakyBucket>();

/**
 * 'rate-limit-header-lies-400': the contract's bucket (40, 2/s) the proxy enforces itself, one per store and token as
 * the twin keeps them, each as the milliseconds it needs to drain (what Reset counts) on the wall clock. A request is
 * counted before it goes on, and a refused one goes on as a GET of its path (HEAD stays HEAD), so a write the bucket
 * refuses is not applied; the answer says which (MARK). One the twin refuses before its bucket (no rate headers, or a
 * 402) is given back.
 */
const ENFORCED = bucketOfPlan('standard');
const CLAIMED = bucketOfPlan('plus');
const enforcedDrains = new WeakMap<ProxyMemory, Map<string, { drainMs: number; at: number }>>();

const enforcedDrainOf = (req: ProxiedRequest, memory: ProxyMemory): { drainMs: number; at: number } => {
  let drains = enforcedDrains.get(memory);
  if (!drains) enforcedDrains.set(memory, (drains = new Map()));
  const key = `${/^\/v1\/([^/?]+)/.exec(req.path)?.[1] ?? ''} ${String(req.headers.authentication ?? req.headers.authorization ?? '')}`;
  let drain = drains.get(key);
  if (!drain) drains.set(key, (drain = { drainMs: 0, at: Date.now() }));
  const now = Date.now();
  drain.drainMs = Math.max(0, drain.drainMs - (now - drain.at));
  drain.at = now;
  return drain;
};

const limitLies400: Pick<StoreBreak, 'onRequest' | 'onResponse'> = {
  onRequest: (req, _ctx, memory) => {
    if (!req.path.startsWith('/v1/')) return req;
    const drain = enforcedDrainOf(req, memory);
    if (drain.drainMs + ENFORCED.msPerLeak <= ENFORCED.bucketSize * ENFORCED.msPerLeak) {
      drain.drainMs += ENFORCED.msPerLeak;
      return { ...req, headers: { ...req.headers, [MARK]: 'counted' } };
    }
    const { 'content-type': _type, 'content-length': _length, 'transfer-encoding': _chunks, ...headers } = req.headers;
    return { ...req, method: req.method === 'HEAD' ? 'HEAD' : 'GET', body: Buffer.alloc(0), headers: { ...headers, [MARK]: 'refused' } };
  },
  onResponse: (res, req, memory) => {
    const mark = req.headers[MARK];
    if (mark !== 'counted' && mark !== 'refused') return res;
    const drain = enforcedDrainOf(req, memory);
    if (!headerOf(res, 'x-rate-limit-limit') || res.status === 402) {
      if (mark === 'counted') drain.drainMs = Math.max(0, drain.drainMs - ENFORCED.msPerLeak);
      return res;
    }
    // What a bucket of 400 leaking 20/s would say after the same time to drain: Remaining falls 10 a request.
    const claimed =
      mark === 'counted'
        ? { remaining: Math.max(0, Math.floor(CLAIMED.bucketSize - drain.drainMs / CLAIMED.msPerLeak)), reset: Math.ceil(drain.drainMs) }
        : { remaining: 0, reset: CLAIMED.bucketSize * CLAIMED.msPerLeak };
    const lied = withHeaders(res, {
      'x-rate-limit-limit': String(CLAIMED.bucketSize),
      'x-rate-limit-remaining': String(claimed.remaining),
      'x-rate-limit-reset': String(claimed.reset),
    });
    if (mark === 'counted') return lied;
    return {
      ...withHeaders(lied, { link: undefined, 'x-total-count': undefined, allow: undefined, 'content-type': 'application/json; charset=utf-8' }),
      status: 429,
      body: '{"code":429,"message":"Too Many Requests","description":"Rate limit exceeded"}',
    };
  },
};

export const STORE_BREAKS: Record<string, StoreBreak> = {
  // Pagination
  'link-relative-urls': {
    breaks: 'Link values are paths, not full URLs',
    kind: 'contract',
    rules: ['store.pagination.link-full-urls'],
    onResponse: (res) => mapLink(res, (entries) => entries.map((e) => ({ ...e, url: e.url.replace(/^https?:\/\/[^/]+/, '') }))),
  },
  'link-without-next': {
    breaks: 'Link never offers rel="next"',
    kind: 'contract',
    rules: ['store.pagination.follow-links'],
    onResponse: (res) => mapLink(res, (entries) => entries.filter((e) => e.rel !== 'next')),
  },
  'link-dropped-after-first-page': {
    breaks: 'pages after the first carry no Link header: the client stops after page 2',
    kind: 'reliance',
    rules: ['store.pagination.follow-links', 'store.pagination.link-full-urls'],
    onResponse: (res, req) => (laterPage(req, res) ? withHeaders(res, { link: undefined }) : res),
  },
  'link-next-same-page': {
    breaks: 'rel="next" of every page points at that same page',
    kind: 'reliance',
    rules: ['store.pagination.follow-links'],
    onResponse: (res, req) =>
      mapLink(res, (entries) => entries.map((e) => (e.rel === 'next' ? { ...e, url: withParam(e.url, 'page', String(pageAsked(req.path))) } : e))),
  },
  'link-next-skips-a-page': {
    breaks: 'rel="next" points two pages on',
    kind: 'contract',
    rules: ['store.pagination.follow-links'],
    onResponse: (res, req) =>
      mapLink(res, (entries) => entries.map((e) => (e.rel === 'next' ? { ...e, url: withParam(e.url, 'page', String(pageAsked(req.path) + 2)) } : e))),
  },
  'link-last-one-short': {
    breaks: 'rel="last" names the page before the last',
    kind: 'contract',
    rules: ['store.pagination.follow-links'],
    onResponse: (res) =>
      mapLink(res, (entries) =>
        entries.map((e) => {
          const page = Number(new URL(e.url).searchParams.get('page') ?? '1');
          return e.rel === 'last' && page > 1 ? { ...e, url: withParam(e.url, 'page', String(page - 1)) } : e;
        }),
      ),
  },
  'total-count-off-by-one': {
    breaks: 'X-Total-Count is one more than the results',
    kind: 'contract',
    rules: ['store.pagination.total-count'],
    onResponse: (res) => {
      const total = headerOf(res, 'x-total-count');
      return total ? withHeaders(res, { 'x-total-count': String(Number(total) + 1) }) : res;
    },
  },
  'total-count-missing': {
    breaks: 'no X-Total-Count on collections',
    kind: 'contract',
    rules: ['store.pagination.total-count'],
    onResponse: (res) => withHeaders(res, { 'x-total-count': undefined }),
  },
  'total-count-dropped-after-first-page': {
    breaks: 'pages after the first carry no X-Total-Count',
    kind: 'reliance',
    rules: ['store.pagination.total-count'],
    onResponse: (res, req) => (laterPage(req, res) ? withHeaders(res, { 'x-total-count': undefined }) : res),
  },
  'total-count-of-the-page': {
    breaks: 'X-Total-Count counts the items of the page, not the results',
    kind: 'contract',
    rules: ['store.pagination.total-count'],
    onResponse: (res, req) => {
      if (!headerOf(res, 'x-total-count') || req.method !== 'GET') return res;
      try {
        const items = JSON.parse(res.body) as unknown;
        return Array.isArray(items) ? withHeaders(res, { 'x-total-count': String(items.length) }) : res;
      } catch {
        return res;
      }
    },
  },
  'total-count-decimal': {
    breaks: 'X-Total-Count is written as a decimal (260.0), not an integer',
    kind: 'contract',
    rules: ['store.pagination.total-count'],
    onResponse: (res) => {
      const total = headerOf(res, 'x-total-count');
      return total ? withHeaders(res, { 'x-total-count': `${total}.0` }) : res;
    },
  },
  'default-page-size-25': {
    breaks: 'a page without per_page holds 25',
    kind: 'contract',
    rules: ['store.pagination.default-page-size'],
    onRequest: (req) => (isStoreCollection(req.path) ? withQuery(req, (q) => void (q.has('per_page') || q.set('per_page', '25'))) : req),
  },
  'default-page-size-50': {
    breaks: 'a page without per_page holds 50',
    kind: 'contract',
    rules: ['store.pagination.default-page-size'],
    onRequest: (req) => (isStoreCollection(req.path) ? withQuery(req, (q) => void (q.has('per_page') || q.set('per_page', '50'))) : req),
  },
  'max-page-size-100': {
    breaks: 'per_page over 100 is served as 100',
    kind: 'contract',
    rules: ['store.pagination.max-page-size'],
    onRequest: (req) => withQuery(req, (q) => void (Number(q.get('per_page')) > 100 && q.set('per_page', '100'))),
  },
  'max-page-size-199': {
    breaks: 'per_page=200 is served as 199',
    kind: 'contract',
    rules: ['store.pagination.max-page-size'],
    onRequest: (req) => withQuery(req, (q) => void (Number(q.get('per_page')) >= 200 && q.set('per_page', '199'))),
  },
  'pages-zero-based': {
    breaks: 'page=1 is the second page',
    kind: 'contract',
    rules: ['store.pagination.first-page-default'],
    onRequest: (req) => (queryOf(req.path).has('page') ? withQuery(req, (q) => q.set('page', String(Number(q.get('page')) + 1))) : req),
  },
  'collections-wrapped': {
    breaks: 'a collection is wrapped: {"products": [...]}, {"categories": [...]}',
    kind: 'contract',
    rules: ['store.json.no-root-element', 'store.pagination.collection-is-array', 'store.products.list'],
    onResponse: (res, req) => {
      const name = /\/(products|categories)$/.exec(pathOnly(req.path))?.[1];
      return req.method === 'GET' && name && res.status === 200 ? { ...res, body: `{"${name}":${res.body}}` } : res;
    },
  },

  // Resources, JSON and timestamps
  'category-wrapped': {
    breaks: 'GET /categories/{id} answers {"category": {...}}',
    kind: 'contract',
    rules: ['store.json.no-root-element', 'store.categories.get-category'],
    onResponse: (res, req) =>
      req.method === 'GET' && /\/categories\/\d+$/.test(pathOnly(req.path)) && res.status === 200 ? { ...res, body: `{"category":${res.body}}` } : res,
  },
  'created-product-wrapped': {
    breaks: 'POST /products answers {"product": {...}}',
    kind: 'contract',
    rules: ['store.products.create', 'store.json.no-root-element'],
    onResponse: (res, req) =>
      req.method === 'POST' && /\/products$/.test(pathOnly(req.path)) && res.status < 300 ? { ...res, body: `{"product":${res.body}}` } : res,
  },
  'timestamps-with-colon': {
    breaks: 'offsets written +00:00',
    kind: 'contract',
    rules: ['store.timestamps.format'],
    onResponse: (res) => timestamps(res, (d, t, o) => `${d}T${t}${o.slice(0, 3)}:${o.slice(3)}`),
  },
  'timestamps-without-seconds': {
    breaks: 'timestamps without seconds: 2012-02-19T17:34+0000',
    kind: 'contract',
    rules: ['store.timestamps.format'],
    onResponse: (res) => timestamps(res, (d, t, o) => `${d}T${t.slice(0, 5)}${o}`),
  },
  'timestamps-with-milliseconds': {
    breaks: 'timestamps with milliseconds: 2012-02-19T17:34:36.000+0000',
    kind: 'contract',
    rules: ['store.timestamps.format'],
    onResponse: (res) => timestamps(res, (d, t, o) => `${d}T${t}.000${o}`),
  },
  'timestamps-zulu': {
    breaks: 'timestamps in UTC written Z: 2012-02-19T17:34:36Z',
    kind: 'contract',
    rules: ['store.timestamps.format'],
    onResponse: (res) => timestamps(res, (d, t) => `${d}T${t}Z`),
  },
  'localized-name-as-string': {
    breaks: 'name is a plain string',
    kind: 'contract',
    rules: ['store.localized.always-object'],
    onResponse: (res) =>
      mapJson(res, (body) => deepMap(body, (k, v) => (k === 'name' && v && typeof v === 'object' && !Array.isArray(v) ? [k, Object.values(v)[0]] : [k, v]))),
  },
  'string-name-sets-main-language-only': {
    breaks: 'a string name is stored for the main language only',
    kind: 'contract',
    rules: ['store.localized.string-applies-to-all'],
    onRequest: (req) =>
      isWrite(req)
        ? mapRequestJson(req, (body) => {
            if (typeof body.name === 'string') body.name = { es: body.name };
          })
        : req,
  },
  'object-name-keeps-one-language': {
    breaks: 'a name object is stored for its first language only',
    kind: 'contract',
    rules: ['store.localized.object-per-language'],
    onRequest: (req) =>
      isWrite(req)
        ? mapRequestJson(req, (body) => {
            const name = body.name;
            if (name && typeof name === 'object' && !Array.isArray(name) && Object.keys(name).length > 1) {
              const [first] = Object.entries(name);
              body.name = Object.fromEntries([first!]);
            }
          })
        : req,
  },
  'camel-case-keys': {
    breaks: 'created_at is createdAt',
    kind: 'contract',
    rules: ['store.json.snake-case-keys'],
    onResponse: (res) => mapJson(res, (body) => deepMap(body, (k, v) => [k === 'created_at' ? 'createdAt' : k, v])),
  },
  'category-parent-missing': {
    breaks: 'categories lack parent',
    kind: 'contract',
    rules: ['store.categories.get-category'],
    onResponse: (res, req) => (/\/categories/.test(req.path) ? mapJson(res, (body) => deepMap(body, (k, v) => (k === 'parent' ? undefined : [k, v]))) : res),
  },
  'category-description-null': {
    breaks: 'description is null instead of a localized object',
    kind: 'contract',
    rules: ['store.categories.get-category'],
    onResponse: (res, req) =>
      /\/categories/.test(req.path) ? mapJson(res, (body) => deepMap(body, (k, v) => (k === 'description' ? [k, null] : [k, v]))) : res,
  },
  'leaf-subcategories-null': {
    breaks: 'a leaf shows subcategories null',
    kind: 'contract',
    rules: ['store.categories.subcategories-empty-array'],
    onResponse: (res) => ({ ...res, body: res.body.replace(/"subcategories":\[\]/g, '"subcategories":null') }),
  },
  'top-level-parent-zero': {
    breaks: 'a top-level category shows parent 0',
    kind: 'contract',
    rules: ['store.categories.parent-null-top-level'],
    onResponse: (res) => ({ ...res, body: res.body.replace(/"parent":null/g, '"parent":0') }),
  },
  'create-fails-500': {
    breaks: 'POST /products answers 500',
    kind: 'contract',
    rules: ['store.products.create'],
    onResponse: (res, req) =>
      req.method === 'POST' && /\/products$/.test(pathOnly(req.path)) && res.status < 300 ? { ...res, status: 500, body: '{"code":500}' } : res,
  },

  // Headers and HTTP
  'no-main-language-on-errors': {
    breaks: 'errors lack X-Main-Language',
    kind: 'contract',
    rules: ['store.headers.main-language'],
    onResponse: (res) => (res.status >= 400 ? withHeaders(res, { 'x-main-language': undefined }) : res),
  },
  'main-language-wrong': {
    breaks: 'X-Main-Language names a language other than the main one (en for es)',
    kind: 'contract',
    rules: ['store.headers.main-language'],
    onResponse: (res) => (headerOf(res, 'x-main-language') === 'es' ? withHeaders(res, { 'x-main-language': 'en' }) : res),
  },
  'head-not-allowed': {
    breaks: 'HEAD answers 405',
    kind: 'contract',
    rules: ['store.http.head-any-resource'],
    onResponse: (res, req) => (req.method === 'HEAD' ? { ...res, status: 405 } : res),
  },
  'head-without-collection-headers': {
    breaks: 'HEAD of a collection lacks the X-Total-Count and Link of the GET',
    kind: 'contract',
    rules: ['store.http.head-any-resource'],
    onResponse: (res, req) => (req.method === 'HEAD' ? withHeaders(res, { 'x-total-count': undefined, link: undefined }) : res),
  },
  'user-agent-optional': {
    breaks: 'a request without User-Agent is served',
    kind: 'contract',
    rules: ['store.http.user-agent-required'],
    onRequest: (req) => (req.headers['user-agent'] ? req : { ...req, headers: { ...req.headers, 'user-agent': 'filled in by the provider' } }),
  },
  'user-agent-missing-403': {
    breaks: 'a request without User-Agent answers 403, not 400',
    kind: 'contract',
    rules: ['store.http.user-agent-required'],
    onResponse: (res, req) =>
      !req.headers['user-agent'] && res.status === 400
        ? { ...res, status: 403, body: '{"code":403,"message":"Forbidden","description":"User-Agent required"}' }
        : res,
  },
  'content-type-optional': {
    breaks: 'a body without Content-Type is read as JSON',
    kind: 'contract',
    rules: ['store.http.content-type-required'],
    onRequest: (req) => (req.body.length > 0 ? { ...req, headers: { ...req.headers, 'content-type': 'application/json' } } : req),
  },
  'missing-content-type-400': {
    breaks: 'a body without Content-Type answers 400, not 415',
    kind: 'contract',
    rules: ['store.http.content-type-required'],
    onResponse: (res, req) =>
      !req.headers['content-type'] && res.status === 415
        ? { ...res, status: 400, body: '{"code":400,"message":"Bad Request","description":"Content-Type missing"}' }
        : res,
  },
  'put-empty-body-411': {
    breaks: 'a PUT without a body but with Content-Length: 0 answers 411',
    kind: 'contract',
    rules: ['store.http.put-empty-body-content-length'],
    onResponse: (res, req) =>
      req.method === 'PUT' && req.body.length === 0 && req.headers['content-length'] === '0'
        ? { ...res, status: 411, body: '{"code":411,"message":"Length Required","description":null}' }
        : res,
  },
  'authentication-header-ignored': {
    breaks: 'only Authorization is read, not Authentication',
    kind: 'contract',
    rules: ['store.auth.authentication-header'],
    onRequest: (req) => {
      const headers = { ...req.headers };
      delete headers.authentication;
      return { ...req, headers };
    },
  },

  // Rate limit
  'rate-headers-missing': {
    breaks: 'no X-Rate-Limit-Remaining',
    kind: 'contract',
    rules: ['store.ratelimit.headers'],
    onResponse: (res) => withHeaders(res, { 'x-rate-limit-remaining': undefined }),
  },
  'rate-headers-dropped-after-first-page': {
    breaks: 'pages after the first carry no rate headers (the pacer reads them on every answer)',
    kind: 'reliance',
    rules: ['store.ratelimit.headers'],
    onResponse: (res, req) => (laterPage(req, res) ? withHeaders(res, RATE_HEADERS) : res),
  },
  'rate-reset-in-seconds': {
    breaks: 'X-Rate-Limit-Reset in seconds',
    kind: 'contract',
    rules: ['store.ratelimit.headers'],
    onResponse: (res) => {
      const reset = headerOf(res, 'x-rate-limit-reset');
      return reset ? withHeaders(res, { 'x-rate-limit-reset': String(Math.ceil(Number(reset) / 1000)) }) : res;
    },
  },
  'rate-limit-header-60': {
    breaks: 'X-Rate-Limit-Limit says 60, not the bucket size 40',
    kind: 'contract',
    rules: ['store.ratelimit.headers'],
    onResponse: (res) => (headerOf(res, 'x-rate-limit-limit') ? withHeaders(res, { 'x-rate-limit-limit': '60' }) : res),
  },
  'rate-remaining-always-full': {
    breaks: 'X-Rate-Limit-Remaining always says 40: the pacer never sees the bucket fill',
    kind: 'reliance',
    rules: ['store.ratelimit.headers'],
    onResponse: (res) => (headerOf(res, 'x-rate-limit-remaining') ? withHeaders(res, { 'x-rate-limit-remaining': '40' }) : res),
  },
  'no-429': {
    breaks: 'a full bucket answers 200 []',
    kind: 'contract',
    rules: ['store.ratelimit.bucket-429'],
    onResponse: (res) => (res.status === 429 ? { ...res, status: 200, body: '[]' } : res),
  },
  '429-without-rate-headers': {
    breaks: 'a 429 carries no rate headers (the client waits a 429 out from them)',
    kind: 'reliance',
    rules: ['store.ratelimit.bucket-429', 'store.ratelimit.headers'],
    onResponse: (res) => (res.status === 429 ? withHeaders(res, RATE_HEADERS) : res),
  },
  '429-remaining-not-zero': {
    breaks: 'a 429 says X-Rate-Limit-Remaining: 3',
    kind: 'contract',
    rules: ['store.ratelimit.bucket-429'],
    onResponse: (res) => (res.status === 429 ? withHeaders(res, { 'x-rate-limit-remaining': '3' }) : res),
  },

  // Meaning: answers well formed that say the wrong thing
  'category-by-id-answers-another': {
    breaks: 'GET /categories/{id} answers another category of the store, well formed',
    kind: 'contract',
    rules: ['store.categories.fetched-by-id'],
    onResponse: answersAnother('categories'),
  },
  'product-by-id-answers-another': {
    breaks: 'GET /products/{id} answers another product of the store, well formed (getProduct returns the wrong product)',
    kind: 'reliance',
    rules: ['store.products.fetched-by-id'],
    onResponse: answersAnother('products'),
  },
  'link-drops-query': {
    breaks: "Link URLs keep page and per_page only: following one leaves the listing's filters and fields behind",
    kind: 'contract',
    rules: ['store.pagination.links-same-listing'],
    onResponse: (res) =>
      mapLink(res, (entries) =>
        entries.map((e) => {
          const url = new URL(e.url);
          for (const key of [...url.searchParams.keys()]) if (key !== 'page' && key !== 'per_page') url.searchParams.delete(key);
          return { ...e, url: url.toString() };
        }),
      ),
  },
  'later-pages-drop-filters': {
    breaks: 'a page after the first ignores the filters: page=2 of a filtered listing is page 2 of the whole collection',
    kind: 'reliance',
    rules: ['store.pagination.filters-with-pages'],
    onRequest: (req) =>
      isStoreCollection(req.path) && pageAsked(req.path) > 1
        ? withQuery(req, (q) => {
            for (const key of [...q.keys()]) if (key !== 'page' && key !== 'per_page' && key !== 'fields') q.delete(key);
          })
        : req,
  },
  'create-keeps-another-name': {
    breaks: 'a create keeps and answers a name other than the one sent (" (copy)" added), well formed',
    kind: 'contract',
    rules: ['store.writes.create-reflected'],
    onRequest: (req) =>
      req.method === 'POST' && /\/(products|categories)$/.test(pathOnly(req.path))
        ? mapRequestJson(req, (body) => {
            if (typeof body.name === 'string') body.name = `${body.name} (copy)`;
            else if (body.name && typeof body.name === 'object' && !Array.isArray(body.name))
              body.name = Object.fromEntries(Object.entries(body.name).map(([code, text]) => [code, `${String(text)} (copy)`]));
          })
        : req,
  },
  'update-not-applied': {
    breaks: 'a PUT answers 200 with the resource but changes nothing',
    kind: 'contract',
    rules: ['store.writes.update-reflected'],
    onRequest: (req) => (req.method === 'PUT' && req.body.length > 0 ? { ...req, body: Buffer.from('{}') } : req),
  },
  'delete-not-applied': {
    breaks: 'a DELETE answers 200 {} but the resource stays',
    kind: 'contract',
    rules: ['store.writes.delete-gone'],
    onRequest: (req) => (req.method === 'DELETE' ? { ...req, method: 'GET', headers: { ...req.headers, [MARK]: 'DELETE' } } : req),
    onResponse: (res, req) => (req.headers[MARK] === 'DELETE' && res.status === 200 ? { ...res, body: '{}' } : res),
  },
  // Writes that do more or other than asked: a create that makes two, a refused write applied anyway, an update that
  // touches what it was not sent, a delete that takes a neighbour too (store.writes.*: suites/store/writes.spec.ts).
  'create-makes-two': {
    breaks: 'each product POST is sent twice upstream: a create answers one product and makes two',
    kind: 'contract',
    rules: ['store.writes.create-adds-one'],
    onRequest: (req) => {
      if (req.method === 'POST' && isWriteOf(req, /\/v1\/\d+\/products$/)) sendAgainNow(req);
      return req;
    },
  },
  'delete-removes-two': {
    breaks: 'a DELETE of a product or category also deletes the record whose id is one less (of a category, the one made just before it)',
    kind: 'contract',
    rules: ['store.writes.delete-removes-one'],
    onRequest: (req) => {
      const match = req.method === 'DELETE' && isWriteOf(req, ONE_RECORD) ? ONE_RECORD.exec(pathOnly(req.path)) : null;
      if (match) sendAgainNow(req, pathOnly(req.path).replace(/\d+$/, String(Number(match[2]) - 1)));
      return req;
    },
  },
  'refused-write-applied': {
    breaks: 'a body sent without Content-Type is answered 415, and applied all the same (the proxy forwards it as JSON)',
    kind: 'contract',
    rules: ['store.writes.refused-changes-nothing'],
    onRequest: (req) =>
      isWrite(req) && req.body.length > 0 && !req.headers['content-type'] && req.path.startsWith('/v1/')
        ? { ...req, headers: { ...req.headers, 'content-type': 'application/json; charset=utf-8', [MARK]: '415' } }
        : req,
    onResponse: (res, req) =>
      req.headers[MARK] === '415'
        ? {
            ...withHeaders(res, { 'content-type': 'application/json; charset=utf-8', location: undefined }),
            status: 415,
            body: '{"code":415,"message":"Unsupported Media Type","description":"Content-Type should be application/json"}',
          }
        : res,
  },
  'invalid-write-applied': {
    breaks: 'a create without a name, or an update with a blank one, is answered 422 {"name":["can\'t be blank"]} and its other members applied',
    kind: 'contract',
    rules: ['store.writes.refused-changes-nothing'],
    onRequest: (req) => {
      if (!isWrite(req) || !/\/v1\/\d+\/(products|categories)(\/\d+)?$/.test(pathOnly(req.path))) return req;
      let invalid = false;
      const applied = mapRequestJson(req, (body) => {
        if (req.method === 'POST' && body.name === undefined) [invalid, body.name] = [true, 'Named by the provider'];
        else if (req.method === 'PUT' && body.name === '') [invalid, body.name] = [true, undefined];
      });
      return invalid ? { ...applied, headers: { ...applied.headers, [MARK]: '422' } } : req;
    },
    onResponse: (res, req) =>
      req.headers[MARK] === '422' && res.status < 300
        ? { ...withHeaders(res, { location: undefined }), status: 422, body: '{"name":["can\'t be blank"]}' }
        : res,
  },
  'rate-limited-write-applied-later': {
    breaks: 'a write answered 429 is carried out once the bucket has room (a second later, and again while it meets 429)',
    kind: 'contract',
    rules: ['store.writes.refused-changes-nothing'],
    onResponse: (res, req) => {
      if (res.status === 429 && req.method !== 'GET' && req.method !== 'HEAD' && isWriteOf(req, /^\/v1\//)) applyLater(req, 1000);
      return res;
    },
  },
  'update-touches-other-members': {
    breaks: "a PUT of a product or category also writes its description (the provider's own text), whatever it was sent",
    kind: 'contract',
    rules: ['store.writes.update-leaves-the-rest'],
    onRequest: (req) =>
      req.method === 'PUT' && isWriteOf(req, ONE_RECORD) && req.body.length > 0
        ? mapRequestJson(req, (body) => {
            if (body.name !== undefined) body.description = 'Rewritten by the provider';
          })
        : req,
  },
  'update-moves-created-at': {
    breaks: 'a PUT moves created_at to the time of the update: its answer and every later read of the record show it',
    kind: 'contract',
    rules: ['store.writes.update-leaves-the-rest'],
    onResponse: (res, req, memory) => {
      const path = pathOnly(req.path);
      if (!ONE_RECORD.test(path) || res.status !== 200) return res;
      if (req.method === 'PUT') {
        const updated = /"updated_at":"([^"]+)"/.exec(res.body)?.[1];
        if (updated) memory.set(`created-at-moved ${path}`, updated);
      }
      const moved = memory.get(`created-at-moved ${path}`);
      return moved && req.method !== 'HEAD' ? { ...res, body: res.body.replace(/"created_at":"[^"]+"/, `"created_at":"${moved}"`) } : res;
    },
  },
  'token-opens-any-store': {
    breaks: "a store's token reads any store: the provider serves the path's store whoever's token asks",
    kind: 'contract',
    rules: ['store.scope.token-reaches-own-store'],
    onRequest: (req) => {
      const pathStore = /^\/v1\/(\d+)\//.exec(req.path)?.[1];
      const tokenStore = tokenStoreOf(req);
      if (!pathStore || !tokenStore || pathStore === tokenStore) return req;
      const { authorization: _either, ...headers } = req.headers;
      return { ...req, headers: { ...headers, authentication: `bearer twin-token-${pathStore}` } };
    },
  },
  // The two below answer everything the other way round; the harness's own code must meet them with verdicts, never a
  // TypeError of its own (scripts/robustnessCheck.ts runs them).
  'lists-answered-as-errors': {
    breaks: 'every collection is answered 400 {"code":400,"message":"Bad Request","description":"…"} instead of its array',
    kind: 'contract',
    rules: ['store.products.list', 'store.pagination.collection-is-array'],
    onResponse: (res, req) =>
      req.method === 'GET' && res.status === 200 && res.body.trimStart().startsWith('[')
        ? { ...res, status: 400, body: JSON.stringify({ code: 400, message: 'Bad Request', description: 'Lists are not served today' }) }
        : res,
  },
  'errors-answered-as-lists': {
    breaks: 'every error (but a 429) is answered 200 [] instead of its status and body',
    kind: 'contract',
    rules: ['store.errors.invalid-json-400', 'store.errors.validation-422', 'store.auth.token-validated'],
    onResponse: (res) => (res.status >= 400 && res.status !== 429 ? { ...res, status: 200, body: '[]' } : res),
  },
  'wrong-token-accepted-after-right': {
    breaks: 'a wrong token is accepted once a right one has been used: the provider serves it as the last right token it saw',
    kind: 'contract',
    rules: ['store.auth.token-validated'],
    onRequest: (req, _ctx, memory) => {
      const sent = req.headers.authentication;
      if (typeof sent !== 'string') return req;
      if (/^bearer twin-(token|oauth)-/i.test(sent)) {
        memory.set('right token', sent);
        return req;
      }
      const right = memory.get('right token');
      return right ? { ...req, headers: { ...req.headers, authentication: right } } : req;
    },
  },
  'path-store-ignored': {
    breaks: "the store id of the path is ignored: every path answers the token's store",
    kind: 'contract',
    rules: ['store.scope.path-names-the-store'],
    onRequest: (req) => {
      const tokenStore = tokenStoreOf(req);
      return tokenStore ? { ...req, path: req.path.replace(/^\/v1\/\d+\//, `/v1/${tokenStore}/`) } : req;
    },
  },
  'token-errors-answered-200': {
    breaks: 'the token endpoint answers its OAuth 2 errors with 200 (the error body unchanged)',
    kind: 'contract',
    rules: ['store.oauth.token-errors-rfc6749', 'store.oauth.token-request-form-encoded'],
    onResponse: (res, req) => (pathOnly(req.path) === '/apps/authorize/token' && res.status >= 400 && res.status < 500 ? { ...res, status: 200 } : res),
  },
  'token-form-encoded-refused': {
    breaks: 'the token endpoint reads JSON only: a form-encoded request (what OAuth 2 clients send) is refused as a media type',
    kind: 'contract',
    rules: ['store.oauth.token-request-form-encoded'],
    onRequest: (req) =>
      pathOnly(req.path) === '/apps/authorize/token' && String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')
        ? { ...req, headers: { ...req.headers, 'content-type': 'text/plain' } }
        : req,
  },
  'rate-remaining-one-too-low': {
    breaks: 'X-Rate-Limit-Remaining is one less than the requests that fit (Reset and Limit right)',
    kind: 'contract',
    rules: ['store.ratelimit.headers'],
    onResponse: (res) => {
      const remaining = Number(headerOf(res, 'x-rate-limit-remaining'));
      return remaining > 0 ? withHeaders(res, { 'x-rate-limit-remaining': String(remaining - 1) }) : res;
    },
  },
  'rate-headers-say-empty': {
    breaks: 'every answer, 429s included, says the bucket is empty (Remaining = Limit, Reset 0) while the provider enforces its bucket',
    kind: 'contract',
    rules: ['store.ratelimit.bucket-429', 'store.ratelimit.headers'],
    onResponse: (res) => {
      const limit = headerOf(res, 'x-rate-limit-limit');
      return limit ? withHeaders(res, { 'x-rate-limit-remaining': limit, 'x-rate-limit-reset': '0' }) : res;
    },
  },
  'rate-headers-of-a-larger-bucket': {
    breaks: "the provider enforces the contract's bucket (40, 2/s) while its rate headers describe the plus plan's (400, 20/s), on 429s too",
    kind: 'contract',
    rules: ['store.ratelimit.bucket-429', 'store.ratelimit.headers'],
    onResponse: (res, _req, memory) => {
      if (!headerOf(res, 'x-rate-limit-limit')) return res;
      let bucket = enforcedBuckets.get(memory);
      if (!bucket) enforcedBuckets.set(memory, (bucket = new LeakyBucket(Date.now(), STORE_CONTRACT.bucketSize, STORE_CONTRACT.leakPerSecond)));
      return bucket.tryAdd(Date.now()) ? res : { ...res, status: 429, body: '{"code":429,"message":"Too Many Requests","description":null}' };
    },
  },
  'rate-limit-header-lies-400': {
    breaks:
      "every answer says X-Rate-Limit-Limit: 400 (a plus plan's) with Remaining and Reset of a 400 bucket leaking 20/s, a 429 a full one (Remaining 0, Reset 20000), while the provider enforces the contract's bucket, 40 leaking 2/s (the proxy's own, per store and token)",
    kind: 'contract',
    rules: ['store.ratelimit.bucket-429', 'store.ratelimit.headers'],
    ...limitLies400,
  },

  // Errors
  'invalid-json-standard-error': {
    breaks: 'bad JSON answers {code,message,description}, without error',
    kind: 'contract',
    rules: ['store.errors.invalid-json-400'],
    onResponse: (res) =>
      res.status === 400 && res.body.includes('"error"') ? { ...res, body: '{"code":400,"message":"Bad Request","description":"Problems parsing JSON"}' } : res,
  },
  'invalid-json-error-not-string': {
    breaks: 'bad JSON answers 400 {"error": {"message": ...}}: error is not a string',
    kind: 'contract',
    rules: ['store.errors.invalid-json-400'],
    onResponse: (res) =>
      res.status === 400
        ? mapJson(res, (body) => {
            const error = (body as { error?: unknown }).error;
            return typeof error === 'string' ? { error: { message: error } } : body;
          })
        : res,
  },
  'validation-errors-flat': {
    breaks: '422 bodies are {"message": "..."}',
    kind: 'contract',
    rules: ['store.errors.validation-422', 'store.client.validation-error-fields', 'store.errors.image-src-blank-422'],
    onResponse: (res) => (res.status === 422 ? { ...res, body: '{"message":"Validation failed"}' } : res),
  },
  'validation-messages-not-arrays': {
    breaks: '422 bodies map each field to one string, not an array of messages',
    kind: 'reliance',
    rules: ['store.errors.validation-422', 'store.client.validation-error-fields', 'store.errors.image-src-blank-422'],
    onResponse: (res) =>
      res.status === 422
        ? mapJson(res, (body) =>
            body && typeof body === 'object' && !Array.isArray(body)
              ? Object.fromEntries(Object.entries(body).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]))
              : body,
          )
        : res,
  },
  'validation-as-400': {
    breaks: 'an invalid field answers 400',
    kind: 'contract',
    rules: ['store.errors.validation-422', 'store.errors.image-src-blank-422'],
    onResponse: (res) => (res.status === 422 ? { ...res, status: 400 } : res),
  },

  // Webhooks
  'webhook-app-resumed-refused': {
    breaks: 'a webhook for app/resumed is refused with 422, as if the event kind did not exist',
    kind: 'contract',
    rules: ['store.webhooks.app-events-registrable'],
    // The provider sees another kind, so it refuses with its own 422 and registers nothing.
    onRequest: (req) =>
      req.method === 'POST' && /\/webhooks$/.test(pathOnly(req.path))
        ? mapRequestJson(req, (body) => {
            if (body['event'] === 'app/resumed') body['event'] = 'app/not-offered';
          })
        : req,
  },
};
