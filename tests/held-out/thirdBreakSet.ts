/**
 * The third reviewer's held-out set, on meaning (issue 36): answers that are well formed and say the wrong
 * thing (the wrong resource, links that lead elsewhere, counts and headers that disagree with what they
 * describe, writes whose answers or effects do not match, parameters that lose their effect when combined,
 * another store's path, OAuth 2 refusals outside RFC 6749), and what the contracts leave open that a naive
 * meaning check could flag (null pagination links, another order where no sort is asked, included in another
 * order, query parameters in another order, error objects without status, another store's path answered 404).
 * Written from the specs, the field notes, the fixtures, the rule catalogues and ASSUMPTIONS.md only (not from
 * the suites or the project's break lists). Where no rule of the catalogue covers a meaning yet, a break names
 * the closest rules and its text says which rule should exist. docs/breaks.md gives its first run.
 *
 *   npm run breaks -- --held-out tests/held-out/thirdBreakSet.ts held-out
 */
import type { ProviderBreak, ProviderDeviation, ProxiedRequest, ProxiedResponse, ProxyMemory } from '../../src/testing/providerBreaks/breakingProxy.ts';
import type { BreakSet } from '../../src/testing/providerBreaks/breakSet.ts';
import { headerOf, mapJson, mapLink, pathOnly, queryOf, withHeaders, withQuery, type Json } from '../../src/testing/providerBreaks/rewrite.ts';

type Obj = Record<string, Json>;
const isObj = (v: Json): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

function parsed(text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

/** A marker header the proxy passes on with a rewritten request, so its onResponse knows what onRequest did. */
const MARK = 'x-held-out-3';
const markOf = (req: ProxiedRequest): string | undefined => {
  const v = req.headers[MARK];
  return Array.isArray(v) ? v[0] : v;
};
const marked = (req: ProxiedRequest, value: string): ProxiedRequest => ({ ...req, headers: { ...req.headers, [MARK]: value } });

// ---------------------------------------------------------------------------
// Store Commerce API
// ---------------------------------------------------------------------------

const STORE_COLLECTION = /^\/v1\/(\d+)\/(products|categories)$/;
const STORE_CATEGORY = /^\/v1\/(\d+)\/categories\/(\d+)$/;
const STORE_PRODUCT = /^\/v1\/(\d+)\/products\/(\d+)$/;
const STORE_PATH = /^\/v1\/(\d+)(\/.*)?$/;
const TOKEN_PATH = '/apps/authorize/token';
/** Query parameters that do not narrow a store collection: paging, the field list, the order, the language. */
const NOT_FILTERS = new Set(['page', 'per_page', 'fields', 'sort_by', 'language']);
const DATE_FILTERS = ['created_at_min', 'created_at_max', 'updated_at_min', 'updated_at_max'];
const LOCALIZED = new Set(['name', 'description', 'handle']);

const tokenOf = (req: ProxiedRequest): string | undefined => {
  const v = req.headers['authentication'] ?? req.headers['authorization'];
  return Array.isArray(v) ? v[0] : v;
};
const filtersOf = (req: ProxiedRequest): string[] => [...queryOf(req.path).keys()].filter((k) => !NOT_FILTERS.has(k));

/** Remembers which store a token opened (a 2xx answer on /v1/{store_id}/...). */
function rememberStoreOfToken(res: ProxiedResponse, req: ProxiedRequest, memory: ProxyMemory): void {
  const token = tokenOf(req);
  const store = STORE_PATH.exec(pathOnly(req.path))?.[1];
  if (token && store && res.status < 300 && !memory.has(`store-of:${token}`)) memory.set(`store-of:${token}`, store);
}

/** Rebuilds a Link URL as the twin writes it: the client's parameters in their order, then page, then per_page. */
function linkWithParams(url: string, params: URLSearchParams): string {
  const u = new URL(url);
  const out = new URLSearchParams();
  for (const [k, v] of params) if (k !== 'page' && k !== 'per_page') out.append(k, v);
  for (const k of ['page', 'per_page']) {
    const v = u.searchParams.get(k);
    if (v !== null) out.set(k, v);
  }
  u.search = out.toString();
  return u.href;
}

const storeBreaks: Record<string, ProviderBreak<'store'>> = {
  'ho3-category-show-answers-previous-category': {
    breaks:
      'GET /categories/{id} answers the category of the GET before it (a per-store response cache keyed without the id): a well-formed category, with its own id, but not the one asked for. The first read is right.',
    kind: 'contract',
    rules: ['store.categories.get-category'],
    onResponse(res, req, memory) {
      const m = STORE_CATEGORY.exec(pathOnly(req.path));
      if (req.method !== 'GET' || !m || res.status !== 200) return res;
      const body = parsed(res.body);
      if (!isObj(body) || String(body['id']) !== m[2]) return res;
      const key = `category-before:${m[1]}`;
      const before = memory.get(key);
      memory.set(key, res.body);
      if (!before) return res;
      const previous = parsed(before);
      return isObj(previous) && String(previous['id']) !== m[2] ? { ...res, body: before } : res;
    },
  },

  'ho3-link-urls-drop-filters': {
    breaks:
      'Link URLs keep only page and per_page: a filtered or sorted listing (since_id, q, created_at_min, sort_by, fields, ...) links to the pages of the unfiltered collection, so a client that follows next leaves its listing after page 1.',
    kind: 'contract',
    rules: ['store.pagination.follow-links', 'store.products.filters', 'store.pagination.links-same-listing', 'store.pagination.filters-with-pages'],
    onResponse(res, req) {
      if (req.method !== 'GET' || !STORE_COLLECTION.test(pathOnly(req.path))) return res;
      if ([...queryOf(req.path).keys()].every((k) => k === 'page' || k === 'per_page')) return res;
      return mapLink(res, (entries) => entries.map((e) => ({ ...e, url: linkWithParams(e.url, new URLSearchParams()) })));
    },
  },

  'ho3-total-count-ignores-filters': {
    breaks:
      'X-Total-Count of a filtered collection (since_id, q, published, created_at_min, ...) is the total of the whole collection (the count query drops the WHERE clause); the items and the Link header are the filtered ones.',
    kind: 'contract',
    rules: ['store.pagination.total-count', 'store.pagination.follow-links', 'store.pagination.filters-with-pages'],
    onResponse(res, req, memory) {
      const path = pathOnly(req.path);
      const total = headerOf(res, 'x-total-count');
      if (req.method !== 'GET' || !STORE_COLLECTION.test(path) || total === undefined) return res;
      if (filtersOf(req).length === 0) {
        memory.set(`total:${path}`, total);
        return res;
      }
      const whole = memory.get(`total:${path}`);
      return whole !== undefined && whole !== total ? withHeaders(res, { 'x-total-count': whole }) : res;
    },
  },

  'ho3-date-filters-ignored-after-page-1': {
    breaks:
      'created_at_min/max and updated_at_min/max are applied on page 1 only: page 2 and later (reached through Link, which still carries the dates) are pages of the unfiltered collection, with its X-Total-Count.',
    kind: 'contract',
    rules: ['store.pagination.follow-links', 'store.products.filters', 'store.pagination.filters-with-pages'],
    onRequest(req) {
      if (req.method !== 'GET' || !STORE_COLLECTION.test(pathOnly(req.path))) return req;
      const query = queryOf(req.path);
      if (Number(query.get('page') ?? '1') < 2 || !DATE_FILTERS.some((k) => query.has(k))) return req;
      return marked(
        withQuery(req, (q) => DATE_FILTERS.forEach((k) => q.delete(k))),
        query.toString(),
      );
    },
    onResponse(res, req) {
      const asked = markOf(req);
      // The links still name what the client asked: only the query ignored the dates.
      return asked === undefined ? res : mapLink(res, (entries) => entries.map((e) => ({ ...e, url: linkWithParams(e.url, new URLSearchParams(asked)) })));
    },
  },

  'ho3-main-language-names-another-language': {
    breaks:
      "X-Main-Language names another of the store's languages (pt for a store whose main language is es), as if it came from the admin user's language: a valid code, and a key of every localized object, but not the store's main language.",
    kind: 'contract',
    rules: ['store.headers.main-language'],
    onResponse(res, req, memory) {
      const main = headerOf(res, 'x-main-language');
      if (!main) return res;
      const body = parsed(res.body);
      const seen = new Set((memory.get('languages') ?? '').split(',').filter(Boolean));
      const visit = (v: Json): void => {
        if (Array.isArray(v)) v.forEach(visit);
        else if (isObj(v))
          for (const [k, x] of Object.entries(v)) {
            if (k === 'languages' && Array.isArray(x)) x.forEach((l) => typeof l === 'string' && seen.add(l));
            if (LOCALIZED.has(k) && isObj(x)) Object.keys(x).forEach((l) => seen.add(l));
            visit(x);
          }
      };
      visit(body);
      memory.set('languages', [...seen].join(','));
      const other = [...seen].find((l) => l !== main);
      return other ? withHeaders(res, { 'x-main-language': other }) : res;
    },
  },

  'ho3-rate-remaining-counts-used-requests': {
    breaks:
      'X-Rate-Limit-Remaining gives the requests already in the bucket (Limit minus the true remaining), not the requests left: 1 after the first request of an idle bucket, while Reset says the bucket is nearly empty.',
    kind: 'contract',
    rules: ['store.ratelimit.headers', 'store.client.paces-to-bucket'],
    onResponse(res) {
      const limit = Number(headerOf(res, 'x-rate-limit-limit'));
      const remaining = Number(headerOf(res, 'x-rate-limit-remaining'));
      if (!Number.isInteger(limit) || !Number.isInteger(remaining) || headerOf(res, 'x-rate-limit-remaining') === undefined) return res;
      return withHeaders(res, { 'x-rate-limit-remaining': String(Math.max(0, limit - remaining)) });
    },
  },

  'ho3-head-total-count-zero': {
    breaks: 'HEAD of a collection answers X-Total-Count: 0 (the HEAD handler skips the query), while its Link header, like the GET, has next and last pages.',
    kind: 'contract',
    rules: ['store.http.head-any-resource', 'store.pagination.total-count'],
    onResponse(res, req) {
      if (req.method !== 'HEAD' || !STORE_COLLECTION.test(pathOnly(req.path)) || headerOf(res, 'x-total-count') === undefined) return res;
      return withHeaders(res, { 'x-total-count': '0' });
    },
  },

  'ho3-create-answers-next-id': {
    breaks:
      'POST /products answers 201 with the created product, but with the next id of the sequence (id + 1, read after the insert), so reading back the id it answered does not find that product.',
    kind: 'contract',
    rules: ['store.products.create', 'store.products.crud', 'store.writes.create-reflected', 'store.products.fetched-by-id'],
    onResponse(res, req) {
      if (req.method !== 'POST' || !/^\/v1\/\d+\/products$/.test(pathOnly(req.path)) || res.status >= 300) return res;
      return mapJson(res, (body) => (isObj(body) && typeof body['id'] === 'number' ? { ...body, id: body['id'] + 1 } : body));
    },
  },

  'ho3-create-keeps-main-language-only': {
    breaks:
      "POST /products with name as a localized object keeps the main language's value for every language, yet answers the name as it was sent (the answer is built from the request): a later read shows the same name in every language.",
    kind: 'contract',
    rules: ['store.localized.object-per-language', 'store.products.create', 'store.writes.create-reflected'],
    onRequest(req, _ctx, memory) {
      if (req.method !== 'POST' || !/^\/v1\/\d+\/products$/.test(pathOnly(req.path))) return req;
      const sent = parsed(req.body.toString('utf8'));
      if (!isObj(sent) || !isObj(sent['name'])) return req;
      const name = sent['name'];
      const main = memory.get('main-language') ?? 'es';
      const kept = typeof name[main] === 'string' ? name[main] : Object.values(name).find((v) => typeof v === 'string');
      if (typeof kept !== 'string' || Object.values(name).every((v) => v === kept)) return req;
      const stored = Object.fromEntries(Object.keys(name).map((l) => [l, kept]));
      return marked({ ...req, body: Buffer.from(JSON.stringify({ ...sent, name: stored })) }, JSON.stringify(name));
    },
    onResponse(res, req, memory) {
      const main = headerOf(res, 'x-main-language');
      if (main) memory.set('main-language', main);
      const sentName = markOf(req);
      if (sentName === undefined || res.status >= 300) return res;
      return mapJson(res, (body) => (isObj(body) ? { ...body, name: JSON.parse(sentName) as Json } : body));
    },
  },

  'ho3-product-delete-not-applied': {
    breaks:
      'DELETE /products/{id} answers 200 {} but deletes nothing: the product is still read by GET /products/{id} and listed by GET /products. No rule covers this yet: a contract rule store.products.delete-applied (Common request rules 4: DELETE deletes a resource; a later GET answers 404 and lists leave it out) should exist beside the field-notes store.products.crud.',
    kind: 'contract',
    rules: ['store.products.crud', 'store.writes.delete-gone'],
    onRequest(req) {
      if (req.method !== 'DELETE' || !STORE_PRODUCT.test(pathOnly(req.path))) return req;
      const headers = { ...req.headers };
      delete headers['content-length'];
      delete headers['content-type'];
      return marked({ ...req, method: 'GET', body: Buffer.alloc(0), headers }, 'delete');
    },
    onResponse(res, req) {
      return markOf(req) === 'delete' && res.status === 200 ? { ...res, body: '{}' } : res;
    },
  },

  'ho3-path-store-id-ignored': {
    breaks:
      "The store id of the path is ignored: a token used on /v1/{another store's id}/... is answered with its own store's data (200), not refused. store.auth.token-scoped-to-store is a twin-only field-notes rule; no rule covers this on live yet: a contract rule store.scope.path-store-id (What the service does: every resource path is scoped to one store by its identifier) should probe another store id with the live token.",
    kind: 'contract',
    rules: ['store.auth.token-scoped-to-store', 'store.scope.path-names-the-store', 'store.scope.token-reaches-own-store'],
    onRequest(req, _ctx, memory) {
      const token = tokenOf(req);
      const m = STORE_PATH.exec(pathOnly(req.path));
      const own = token ? memory.get(`store-of:${token}`) : undefined;
      if (!m || !own || m[1] === own) return req;
      return marked({ ...req, path: req.path.replace(/^\/v1\/\d+/, `/v1/${own}`) }, m[1]!);
    },
    onResponse(res, req, memory) {
      rememberStoreOfToken(res, req, memory);
      const asked = markOf(req);
      // Link URLs are built from the request's own path: they keep the store id the client asked.
      return asked === undefined ? res : mapLink(res, (entries) => entries.map((e) => ({ ...e, url: e.url.replace(/\/v1\/\d+\//, `/v1/${asked}/`) })));
    },
  },

  'ho3-token-endpoint-json-only': {
    breaks:
      'The token endpoint (POST /apps/authorize/token) takes JSON only: a form-encoded request (application/x-www-form-urlencoded, the format RFC 6749 4.1.3 gives the token request) answers 415 invalid_request. No contract rule covers the token endpoint on live yet (store.oauth.install-grants-token is twin-only; store.oauth.bad-code-refused is field notes): a contract rule store.oauth.token-endpoint-rfc6749 should exist.',
    kind: 'contract',
    rules: ['store.oauth.install-grants-token', 'store.oauth.bad-code-refused', 'store.oauth.token-bad-input-4xx', 'store.oauth.token-request-form-encoded'],
    onRequest(req) {
      const type = String(req.headers['content-type'] ?? '');
      if (req.method !== 'POST' || pathOnly(req.path) !== TOKEN_PATH || !/^application\/x-www-form-urlencoded/i.test(type)) return req;
      return marked({ ...req, headers: { ...req.headers, 'content-type': 'text/plain' } }, 'form');
    },
    onResponse(res, req) {
      if (markOf(req) !== 'form' || res.status !== 415) return res;
      return { ...res, body: JSON.stringify({ error: 'invalid_request', error_description: 'Send the parameters as application/json.' }) };
    },
  },

  'ho3-token-invalid-grant-401': {
    breaks:
      'The token endpoint answers an unknown, used or expired authorization code with 401 {"error":"invalid_grant"} (as for a bad client) instead of 400: RFC 6749 5.2 answers invalid_grant 400, 401 only for invalid_client. store.oauth.bad-code-refused is field notes, so on live this is an observation; a contract rule for the token endpoint\'s RFC 6749 statuses should exist.',
    kind: 'contract',
    rules: ['store.oauth.bad-code-refused', 'store.oauth.code-single-use', 'store.oauth.token-errors-rfc6749'],
    onResponse(res, req) {
      if (req.method !== 'POST' || pathOnly(req.path) !== TOKEN_PATH || res.status !== 400) return res;
      const body = parsed(res.body);
      return isObj(body) && body['error'] === 'invalid_grant' ? { ...withHeaders(res, { 'www-authenticate': 'Basic realm="store"' }), status: 401 } : res;
    },
  },
};

const storeDeviations: Record<string, ProviderDeviation> = {
  'ho3-unsorted-pages-in-another-order': {
    allows:
      'Without sort_by, each page of /products and /categories lists its items newest first (the pages still partition the collection, and Link walks it whole): the contract gives no default order.',
    onResponse(res, req) {
      if (req.method !== 'GET' || !STORE_COLLECTION.test(pathOnly(req.path)) || queryOf(req.path).has('sort_by') || res.status !== 200) return res;
      return mapJson(res, (body) => (Array.isArray(body) ? [...body].reverse() : body));
    },
  },

  'ho3-link-query-reordered': {
    allows:
      "Link URLs name page and per_page first and the client's other parameters after them, in reverse order: the same listing (same filters, sort and page size), since the order of query parameters carries no meaning.",
    onResponse(res) {
      return mapLink(res, (entries) =>
        entries.map((e) => {
          const u = new URL(e.url);
          const pairs = [...u.searchParams];
          const paging = pairs.filter(([k]) => k === 'page' || k === 'per_page');
          const others = pairs.filter(([k]) => k !== 'page' && k !== 'per_page').reverse();
          u.search = new URLSearchParams([...paging, ...others]).toString();
          return { ...e, url: u.href };
        }),
      );
    },
  },

  'ho3-other-store-404': {
    allows:
      'A token used on another store\'s path answers 404 {"code":404,"message":"Not Found","description":null} instead of 401: no data of the other store comes back, and "Responses for missing resources and for failed or insufficient authorization: not shown."',
    onResponse(res, req, memory) {
      rememberStoreOfToken(res, req, memory);
      const token = tokenOf(req);
      const m = STORE_PATH.exec(pathOnly(req.path));
      const own = token ? memory.get(`store-of:${token}`) : undefined;
      if (res.status !== 401 || !m || !own || m[1] === own) return res;
      return { ...res, status: 404, body: JSON.stringify({ code: 404, message: 'Not Found', description: null }) };
    },
  },
};

// ---------------------------------------------------------------------------
// Media Tracking API
// ---------------------------------------------------------------------------

const EDGE = '/api/edge';
const OAUTH_TOKEN = '/api/oauth/token';
const COLLECTION = /^\/api\/edge\/([a-z-]+)$/;
const SHOW = /^\/api\/edge\/([a-z-]+)\/(\d+)$/;
const viewer = (req: ProxiedRequest): string => String(req.headers['authorization'] ?? 'anonymous');

function resourcesOf(body: Obj): Obj[] {
  const out: Obj[] = [];
  const add = (v: Json) => {
    if (Array.isArray(v)) v.forEach(add);
    else if (isObj(v)) out.push(v);
  };
  add(body['data']);
  add(body['included']);
  return out;
}

const identifiersOf = (r: Obj): Obj[] =>
  isObj(r['relationships'])
    ? Object.values(r['relationships']).flatMap((rel) => (isObj(rel) ? (Array.isArray(rel['data']) ? rel['data'] : [rel['data']]).filter(isObj) : []))
    : [];

/** Whether the query asks for a representation other than the full one (sparse fields or includes). */
const shaped = (req: ProxiedRequest): boolean => [...queryOf(req.path).keys()].some((k) => k === 'include' || k.startsWith('fields['));

/** Encodes a query as the twin's links do (Rails' to_query: CGI-escaped pairs, sorted). */
function toQuery(params: URLSearchParams): string {
  return [...params]
    .map(([k, v]) => new URLSearchParams([[k, v]]).toString())
    .sort()
    .join('&');
}

/** The answer with every pagination link given `edit` over its query (re-encoded as the twin encodes links). */
function mapPageLinks(res: ProxiedResponse, edit: (q: URLSearchParams) => void): ProxiedResponse {
  return mapJson(res, (body) => {
    if (!isObj(body) || !Array.isArray(body['data']) || !isObj(body['links'])) return body;
    const links = body['links'];
    for (const rel of ['first', 'prev', 'next', 'last'])
      if (typeof links[rel] === 'string') {
        const u = new URL(links[rel]);
        const q = new URLSearchParams(u.search);
        edit(q);
        u.search = toQuery(q);
        links[rel] = u.href;
      }
    return body;
  });
}

/** A request whose query lost `drop` (when it has them and `when` holds), marked with what it had, so its links can name it again. */
function dropParams(req: ProxiedRequest, when: (q: URLSearchParams) => boolean, drop: (k: string) => boolean): ProxiedRequest {
  if (req.method !== 'GET' || !pathOnly(req.path).startsWith(`${EDGE}/`)) return req;
  const query = queryOf(req.path);
  const gone = [...query].filter(([k]) => drop(k));
  if (gone.length === 0 || !when(query)) return req;
  return marked(
    withQuery(req, (q) => gone.forEach(([k]) => q.delete(k))),
    new URLSearchParams(gone).toString(),
  );
}

/** The links of an answer to a request `dropParams` rewrote name what the client asked again: only the query ignored it. */
function restoreInLinks(res: ProxiedResponse, req: ProxiedRequest): ProxiedResponse {
  const gone = markOf(req);
  if (gone === undefined) return res;
  return mapPageLinks(res, (q) => new URLSearchParams(gone).forEach((v, k) => q.set(k, v)));
}

const mediaBreaks: Record<string, ProviderBreak<'media'>> = {
  'ho3-show-answers-another-title': {
    breaks:
      'GET /anime/{id} and /manga/{id} answer another title of the same type (the one after it in the index: a lookup by position, not by id): a well-formed document whose data has its own id and links.self, not the id asked for. No rule says yet that a resource fetched by id is that resource: media.jsonapi.resource-object (or a new media.jsonapi.show-identity) should.',
    kind: 'contract',
    rules: ['media.jsonapi.resource-object', 'media.routes.standard', 'media.jsonapi.show-identity'],
    onResponse(res, req, memory) {
      const path = pathOnly(req.path);
      if (req.method !== 'GET' || res.status !== 200 || shaped(req)) return res;
      const list = COLLECTION.exec(path);
      if (list && (list[1] === 'anime' || list[1] === 'manga')) {
        const body = parsed(res.body);
        if (isObj(body) && Array.isArray(body['data'])) {
          const key = `titles:${viewer(req)}:${list[1]}`;
          const known = new Map(Object.entries(JSON.parse(memory.get(key) ?? '{}') as Record<string, Json>));
          for (const r of body['data']) if (isObj(r) && typeof r['id'] === 'string') known.set(r['id'], r);
          memory.set(key, JSON.stringify(Object.fromEntries(known)));
        }
        return res;
      }
      const show = SHOW.exec(path);
      if (!show || (show[1] !== 'anime' && show[1] !== 'manga')) return res;
      const known = Object.entries(JSON.parse(memory.get(`titles:${viewer(req)}:${show[1]}`) ?? '{}') as Record<string, Json>);
      const ids = known.map(([id]) => id).sort((a, b) => Number(a) - Number(b));
      const next = ids.find((id) => Number(id) > Number(show[2])) ?? ids.find((id) => id !== show[2]);
      if (next === undefined) return res;
      const other = known.find(([id]) => id === next)![1];
      return mapJson(res, (body) => (isObj(body) ? { ...body, data: other } : body));
    },
  },

  'ho3-relationship-links-of-first-resource': {
    breaks:
      "In a collection, every resource's relationship links (self and related) are those of the first resource of the page (a link memoized per relationship name): /anime/2's categories link to /anime/1/categories. No rule says yet that a relationship's links lead to the related resources of this resource: the closest are media.relationships.table and media.jsonapi.resource-object; a contract rule media.relationships.links-lead-to-related should exist.",
    kind: 'contract',
    rules: ['media.relationships.table', 'media.jsonapi.resource-object', 'media.relationships.self-link', 'media.relationships.related-link'],
    onResponse(res) {
      return mapJson(res, (body) => {
        if (!isObj(body) || !Array.isArray(body['data']) || body['data'].length < 2) return body;
        const first = body['data'][0];
        if (!isObj(first) || typeof first['id'] !== 'string') return body;
        const firstId = first['id'];
        for (const r of body['data'].slice(1)) {
          if (!isObj(r) || r['type'] !== first['type'] || typeof r['id'] !== 'string' || !isObj(r['relationships'])) continue;
          const own = `/${r['id']}/`;
          for (const rel of Object.values(r['relationships']))
            if (isObj(rel) && isObj(rel['links']))
              for (const [k, v] of Object.entries(rel['links'])) if (typeof v === 'string') rel['links'][k] = v.replace(own, `/${firstId}/`);
        }
        return body;
      });
    },
  },

  'ho3-included-only-for-first-resource': {
    breaks:
      "In a collection asked with include=, included holds only the resources related to the first resource of data (the prefetch runs for one record); the other resources' linkage names resources that are not included.",
    kind: 'contract',
    rules: ['media.jsonapi.included'],
    onResponse(res) {
      return mapJson(res, (body) => {
        if (!isObj(body) || !Array.isArray(body['data']) || !Array.isArray(body['included']) || !isObj(body['data'][0])) return body;
        const key = (r: Obj) => `${String(r['type'])}:${String(r['id'])}`;
        const byKey = new Map(body['included'].filter(isObj).map((r) => [key(r), r]));
        const kept = new Set<string>();
        const reach = (r: Obj) =>
          identifiersOf(r).forEach((l) => {
            const k = key(l);
            const target = byKey.get(k);
            if (target && !kept.has(k)) {
              kept.add(k);
              reach(target);
            }
          });
        reach(body['data'][0]);
        if (kept.size === byKey.size) return body;
        return { ...body, included: body['included'].filter((r) => isObj(r) && kept.has(key(r))) };
      });
    },
  },

  'ho3-meta-count-ignores-filters': {
    breaks:
      "meta.count of a filtered collection (filter[...]) is the count of the viewer's whole collection (the count query drops the filters); data and links are the filtered ones.",
    kind: 'reliance',
    rules: ['media.pagination.meta-count', 'media.pagination.follow-next', 'media.jsonapi.filters'],
    onResponse(res, req, memory) {
      const path = pathOnly(req.path);
      if (req.method !== 'GET' || !COLLECTION.test(path) || res.status !== 200) return res;
      const key = `count:${viewer(req)}:${path}`;
      const filtered = [...queryOf(req.path).keys()].some((k) => k.startsWith('filter['));
      return mapJson(res, (body) => {
        if (!isObj(body) || !isObj(body['meta']) || typeof body['meta']['count'] !== 'number') return body;
        if (!filtered) memory.set(key, String(body['meta']['count']));
        else if (memory.has(key)) body['meta']['count'] = Number(memory.get(key));
        return body;
      });
    },
  },

  'ho3-error-status-member-disagrees': {
    breaks:
      'A 404 answer (Record not found, Route Not Found) carries error objects whose status says 400 (the exception is mapped to a parameter error): the HTTP status and the error object\'s status disagree. JSON:API: status is "the HTTP status code applicable to this problem".',
    kind: 'contract',
    rules: ['media.errors.jsonapi-errors', 'media.errors.members', 'media.errors.hidden-404', 'media.errors.status-agrees'],
    onResponse(res) {
      if (res.status !== 404) return res;
      return mapJson(res, (body) => {
        if (isObj(body) && Array.isArray(body['errors']))
          for (const e of body['errors']) if (isObj(e) && 'status' in e) e['status'] = typeof e['status'] === 'number' ? 400 : '400';
        return body;
      });
    },
  },

  'ho3-location-names-previous-id': {
    breaks:
      'POST /{collection} answers 201 with the created resource, but its Location header names the id before it (/posts/5 for post 6), so Location and data.links.self disagree and Location reads back another resource or 404. JSON:API: the self link MUST match Location. media.writes.status-codes is field notes; a contract rule media.writes.location-is-created should exist.',
    kind: 'contract',
    rules: ['media.writes.status-codes', 'media.writes.create-destroy-applied', 'media.writes.answer-is-resource'],
    onResponse(res, req) {
      const location = headerOf(res, 'location');
      if (req.method !== 'POST' || res.status !== 201 || !location) return res;
      const m = /\/(\d+)$/.exec(location);
      if (!m || m[1] === '0') return res;
      return withHeaders(res, { location: location.replace(/\/\d+$/, `/${Number(m[1]) - 1}`) });
    },
  },

  'ho3-update-answers-previous-state': {
    breaks:
      'PATCH and PUT apply the update but answer 200 with the resource as it was before it (a stale read-through cache): a later GET shows the values sent, the answer does not. JSON:API: a 200 answer to an update MUST represent the updated resource.',
    kind: 'contract',
    rules: ['media.writes.update-applied'],
    onResponse(res, req, memory) {
      const path = pathOnly(req.path);
      if (res.status >= 300 || shaped(req)) return res;
      const body = parsed(res.body);
      if (!isObj(body)) return res;
      const remember = (r: Json) => {
        if (isObj(r) && isObj(r['links']) && typeof r['links']['self'] === 'string')
          memory.set(`state:${viewer(req)}:${new URL(r['links']['self']).pathname}`, JSON.stringify(r));
      };
      if (req.method === 'GET' || req.method === 'POST') {
        (Array.isArray(body['data']) ? body['data'] : [body['data']]).forEach(remember);
        return res;
      }
      if ((req.method !== 'PATCH' && req.method !== 'PUT') || !SHOW.test(path) || !isObj(body['data'])) return res;
      const before = memory.get(`state:${viewer(req)}:${path}`);
      remember(body['data']);
      return before ? { ...res, body: JSON.stringify({ ...body, data: JSON.parse(before) as Json }) } : res;
    },
  },

  'ho3-sort-ignored-with-filter': {
    breaks:
      'sort is ignored when the request also has a filter[...] (the filtered query path has no ORDER BY): filtered collections come in id order; the links still name the sort.',
    kind: 'reliance',
    rules: ['media.jsonapi.sort', 'media.jsonapi.filters', 'media.jsonapi.parameters-combined'],
    onRequest(req) {
      return dropParams(
        req,
        (q) => [...q.keys()].some((k) => k.startsWith('filter[')),
        (k) => k === 'sort',
      );
    },
    onResponse: restoreInLinks,
  },

  'ho3-page-links-drop-filters-and-sort': {
    breaks:
      'Pagination links (first, prev, next, last) keep page, include and fields but drop filter[...] and sort: from a filtered or sorted first page, next leads into another listing.',
    kind: 'reliance',
    rules: ['media.pagination.follow-next', 'media.pagination.links', 'media.pagination.first-last', 'media.pagination.same-listing'],
    onResponse(res) {
      return mapPageLinks(res, (q) => [...q.keys()].filter((k) => k.startsWith('filter[') || k === 'sort').forEach((k) => q.delete(k)));
    },
  },

  'ho3-fields-ignored-with-include': {
    breaks:
      'fields[...] is ignored whenever include is also asked (the include path serializes full resources): primary and included resources come back with every attribute and relationship; the links still name the fields.',
    kind: 'reliance',
    rules: ['media.jsonapi.sparse-fields'],
    onRequest(req) {
      return dropParams(
        req,
        (q) => q.has('include'),
        (k) => k.startsWith('fields['),
      );
    },
    onResponse: restoreInLinks,
  },

  'ho3-episode-media-typed-manga': {
    breaks:
      'An episode\'s media relationship data names type manga with its anime\'s id ({"type":"manga","id":"1"}: a polymorphic type column read wrong); included still holds the anime. The relationship table says episodes\' media points to anime.',
    kind: 'contract',
    rules: ['media.relationships.episode-media', 'media.jsonapi.included'],
    onResponse(res) {
      return mapJson(res, (body) => {
        if (!isObj(body)) return body;
        for (const r of resourcesOf(body)) {
          if (r['type'] !== 'episodes' || !isObj(r['relationships'])) continue;
          const media = r['relationships']['media'];
          if (isObj(media) && isObj(media['data']) && media['data']['type'] === 'anime') media['data'] = { ...media['data'], type: 'manga' };
        }
        return body;
      });
    },
  },

  'ho3-token-invalid-grant-401': {
    breaks:
      'POST /api/oauth/token with a wrong password or an unknown refresh token answers 401 {"error":"invalid_grant"} instead of 400 (RFC 6749 5.2: invalid_grant is 400; 401 is for invalid_client). media.auth.oauth-password-refresh-revoke is twin-only field notes; a contract rule for the token endpoint\'s RFC 6749 statuses should exist.',
    kind: 'contract',
    rules: ['media.auth.oauth-password-refresh-revoke', 'media.auth.token-errors-rfc6749'],
    onResponse(res, req) {
      if (req.method !== 'POST' || pathOnly(req.path) !== OAUTH_TOKEN || res.status !== 400) return res;
      const body = parsed(res.body);
      return isObj(body) && body['error'] === 'invalid_grant' ? { ...res, status: 401 } : res;
    },
  },
};

const mediaDeviations: Record<string, ProviderDeviation> = {
  'ho3-null-prev-and-next': {
    allows:
      'Pagination links that do not exist are null rather than left out: links.prev is null on the first page and links.next null on the last. JSON:API (Pagination): "Keys MUST either be omitted or have a null value to indicate that a particular link is unavailable."',
    onResponse(res) {
      return mapJson(res, (body) => {
        if (!isObj(body) || !Array.isArray(body['data']) || !isObj(body['links']) || typeof body['links']['first'] !== 'string') return body;
        const links = body['links'];
        return { ...body, links: { first: links['first'], prev: links['prev'] ?? null, next: links['next'] ?? null, last: links['last'] ?? null, ...links } };
      });
    },
  },

  'ho3-unsorted-pages-in-another-order': {
    allows:
      'Without sort, each page of a standard collection lists its resources in reverse id order (the pages still partition the collection, and links.next walks it whole): the spec and the field notes give no default order.',
    onResponse(res, req) {
      if (req.method !== 'GET' || !COLLECTION.test(pathOnly(req.path)) || queryOf(req.path).has('sort') || res.status !== 200) return res;
      return mapJson(res, (body) =>
        isObj(body) && Array.isArray(body['data']) && isObj(body['meta']) ? { ...body, data: [...body['data']].reverse() } : body,
      );
    },
  },

  'ho3-included-in-another-order': {
    allows:
      'included lists its resources in another order than the linkage names them (reversed): JSON:API gives included no order; a client finds each by type and id.',
    onResponse(res) {
      return mapJson(res, (body) => (isObj(body) && Array.isArray(body['included']) ? { ...body, included: [...body['included']].reverse() } : body));
    },
  },

  'ho3-error-objects-without-status': {
    allows:
      'Error objects leave out status (title, detail and code stay): every member of a JSON:API error object is optional, and the spec says "the members of the error object: not shown".',
    onResponse(res) {
      if (res.status < 400) return res;
      return mapJson(res, (body) =>
        isObj(body) && Array.isArray(body['errors'])
          ? {
              ...body,
              errors: body['errors'].map((e) => {
                if (!isObj(e)) return e;
                const { status: _status, ...rest } = e;
                return Object.keys(rest).length > 0 ? rest : e;
              }),
            }
          : body,
      );
    },
  },
};

const HELD_OUT: BreakSet = {
  store: { breaks: storeBreaks, deviations: storeDeviations },
  media: { breaks: mediaBreaks, deviations: mediaDeviations },
};

export default HELD_OUT;
