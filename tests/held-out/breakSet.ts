/**
 * Held-out provider breaks and deviations, written from the specs, the field
 * notes, the fixtures, the rule catalogues and ASSUMPTIONS.md only (no suites,
 * no project break lists). Loaded by `npm run breaks -- --held-out <this file>`.
 */
import type { BreakSet } from '../../src/testing/providerBreaks/breakSet.ts';
import type { ProxiedRequest, ProxiedResponse } from '../../src/testing/providerBreaks/breakingProxy.ts';
import { headerOf, mapJson, mapLink, pathOnly, queryOf, withHeaders, withQuery, type Json } from '../../src/testing/providerBreaks/rewrite.ts';

type Obj = Record<string, Json>;
const isObj = (v: Json): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Visits every object of a JSON value (depth first), letting `fn` edit it in place. */
function walk(value: Json, fn: (o: Obj) => void): Json {
  if (Array.isArray(value)) value.forEach((v) => walk(v, fn));
  else if (isObj(value)) {
    fn(value);
    Object.values(value).forEach((v) => walk(v, fn));
  }
  return value;
}

// ---------- store helpers ----------
const STORE_COLLECTION = /^\/v1\/\d+\/(products|categories)$/;
const STORE_SINGLE = /^\/v1\/\d+\/[a-z_]+\/\d+$/;
const pageOf = (req: ProxiedRequest): number => Number(queryOf(req.path).get('page') ?? '1') || 1;
const perPageOf = (req: ProxiedRequest): number => Math.min(Number(queryOf(req.path).get('per_page') ?? '30') || 30, 200);
const pageParam = (url: string): number => {
  try {
    return Number(new URL(url).searchParams.get('page') ?? '1');
  } catch {
    return Number(queryOf(url).get('page') ?? '1');
  }
};
const setUrlParam = (url: string, name: string, value: string | undefined): string => {
  const u = new URL(url);
  if (value === undefined) u.searchParams.delete(name);
  else u.searchParams.set(name, value);
  return u.href;
};
const TS = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\+0000$/;

function localOffset(ts: string): string {
  const m = TS.exec(ts);
  if (!m) return ts;
  const t = new Date(`${m[1]}Z`).getTime() - 3 * 3600_000;
  return `${new Date(t).toISOString().slice(0, 19)}-0300`;
}

// ---------- media helpers ----------
const EDGE = '/api/edge';
const anonymous = (req: ProxiedRequest): boolean => !req.headers['authorization'];
const camel = (s: string): string => s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
function editLinks(res: ProxiedResponse, fn: (links: Obj, body: Obj) => void): ProxiedResponse {
  return mapJson(res, (body) => {
    if (isObj(body) && isObj(body['links'])) fn(body['links'], body);
    return body;
  });
}
const notFoundPath = (req: ProxiedRequest): ProxiedRequest => ({ ...req, path: `${EDGE}/held-out-no-such-route${pathOnly(req.path)}` });

const set: BreakSet = {
  store: {
    breaks: {
      'ho-link-next-skips-a-page-after-page-1': {
        breaks: 'From page 2 on, Link rel="next" points two pages ahead (page+2, capped at the last page), so a client following next skips a page.',
        kind: 'contract',
        rules: ['store.pagination.follow-links'],
        onResponse(res, req) {
          const page = pageOf(req);
          if (page < 2) return res;
          return mapLink(res, (entries) => {
            const last = entries.find((e) => e.rel === 'last');
            const lastPage = last ? pageParam(last.url) : page + 2;
            return entries.map((e) => (e.rel === 'next' ? { ...e, url: setUrlParam(e.url, 'page', String(Math.min(page + 2, lastPage))) } : e));
          });
        },
      },
      'ho-total-count-remaining-on-later-pages': {
        breaks:
          'On pages after the first, X-Total-Count counts only the items from this page on (total minus the items of earlier pages), not the total number of results.',
        kind: 'contract',
        rules: ['store.pagination.total-count'],
        onResponse(res, req) {
          const total = headerOf(res, 'x-total-count');
          const page = pageOf(req);
          if (total === undefined || page < 2) return res;
          return withHeaders(res, { 'x-total-count': String(Math.max(0, Number(total) - (page - 1) * perPageOf(req))) });
        },
      },
      'ho-link-prev-relative': {
        breaks: 'Only the Link rel="prev" entry is a relative URL (path and query, no scheme or host); the others stay full URLs.',
        kind: 'contract',
        rules: ['store.pagination.link-full-urls'],
        onResponse(res) {
          return mapLink(res, (entries) =>
            entries.map((e) => {
              if (e.rel !== 'prev') return e;
              const u = new URL(e.url);
              return { ...e, url: `${u.pathname}${u.search}` };
            }),
          );
        },
      },
      'ho-main-language-missing-on-errors': {
        breaks: 'X-Main-Language is sent on successful answers only; every 4xx/5xx answer lacks it.',
        kind: 'contract',
        rules: ['store.headers.main-language'],
        onResponse(res) {
          return res.status >= 400 ? withHeaders(res, { 'x-main-language': undefined }) : res;
        },
      },
      'ho-head-405-on-single-resources': {
        breaks: 'HEAD works on collections but a HEAD of a single resource (/categories/{id}, /products/{id}) answers 405 Method Not Allowed.',
        kind: 'contract',
        rules: ['store.http.head-any-resource'],
        onResponse(res, req) {
          if (req.method !== 'HEAD' || !STORE_SINGLE.test(pathOnly(req.path))) return res;
          return { ...withHeaders(res, { allow: 'GET, PUT, DELETE' }), status: 405, body: '' };
        },
      },
      'ho-rate-headers-missing-on-writes': {
        breaks: 'Answers to POST, PUT and DELETE carry none of the X-Rate-Limit-* headers (reads keep them).',
        kind: 'contract',
        rules: ['store.ratelimit.headers'],
        onResponse(res, req) {
          if (!['POST', 'PUT', 'DELETE'].includes(req.method)) return res;
          return withHeaders(res, { 'x-rate-limit-limit': undefined, 'x-rate-limit-remaining': undefined, 'x-rate-limit-reset': undefined });
        },
      },
      'ho-category-updated-at-milliseconds': {
        breaks:
          'GET /categories/{id} writes updated_at with milliseconds (2025-01-01T10:00:00.000+0000); created_at and every other route keep the right format.',
        kind: 'contract',
        rules: ['store.timestamps.format'],
        onResponse(res, req) {
          if (req.method !== 'GET' || !/^\/v1\/\d+\/categories\/\d+$/.test(pathOnly(req.path)) || res.status !== 200) return res;
          return mapJson(res, (body) => {
            if (isObj(body) && typeof body['updated_at'] === 'string') body['updated_at'] = body['updated_at'].replace(/(:\d{2})\+0000$/, '$1.000+0000');
            return body;
          });
        },
      },
      'ho-top-level-parent-zero': {
        breaks: 'A top-level category shows parent 0 instead of null (wherever a category object appears).',
        kind: 'contract',
        rules: ['store.categories.parent-null-top-level'],
        onResponse(res) {
          return mapJson(res, (body) =>
            walk(body, (o) => {
              if ('parent' in o && 'subcategories' in o && o['parent'] === null) o['parent'] = 0;
            }),
          );
        },
      },
      'ho-single-category-wrapped': {
        breaks: 'GET /categories/{id} wraps the category in a root element: {"category": {...}} (collections stay bare arrays).',
        kind: 'contract',
        rules: ['store.json.no-root-element', 'store.categories.get-category'],
        onResponse(res, req) {
          if (req.method !== 'GET' || !/^\/v1\/\d+\/categories\/\d+$/.test(pathOnly(req.path)) || res.status !== 200) return res;
          return mapJson(res, (body) => ({ category: body }));
        },
      },
      'ho-invalid-json-400-standard-shape': {
        breaks: 'A body that is not valid JSON answers 400 in the {code,message,description} shape, with no string member error.',
        kind: 'contract',
        rules: ['store.errors.invalid-json-400'],
        onResponse(res) {
          if (res.status !== 400) return res;
          return mapJson(res, (body) =>
            isObj(body) && typeof body['error'] === 'string' ? { code: 400, message: 'Bad Request', description: body['error'] } : body,
          );
        },
      },
      'ho-422-single-message-as-string': {
        breaks: 'A 422 field whose error list has exactly one message gives the message as a bare string ({"name":"can\'t be blank"}) instead of an array.',
        kind: 'contract',
        rules: ['store.errors.validation-422', 'store.errors.image-src-blank-422', 'store.client.validation-error-fields'],
        onResponse(res) {
          if (res.status !== 422) return res;
          return mapJson(res, (body) => {
            if (!isObj(body)) return body;
            for (const [k, v] of Object.entries(body)) if (Array.isArray(v) && v.length === 1 && typeof v[0] === 'string') body[k] = v[0];
            return body;
          });
        },
      },
      'ho-create-string-name-main-language-only': {
        breaks: 'POST /products with name as a plain string answers the product with that string in the main language only (other languages "").',
        kind: 'contract',
        rules: ['store.localized.string-applies-to-all', 'store.products.create'],
        onResponse(res, req) {
          if (req.method !== 'POST' || !/^\/v1\/\d+\/products$/.test(pathOnly(req.path)) || res.status >= 300) return res;
          let sent: Json;
          try {
            sent = JSON.parse(req.body.toString('utf8'));
          } catch {
            return res;
          }
          if (!isObj(sent) || typeof sent['name'] !== 'string') return res;
          const main = headerOf(res, 'x-main-language');
          return mapJson(res, (body) => {
            if (isObj(body) && isObj(body['name'])) for (const lang of Object.keys(body['name'])) if (lang !== main) body['name'][lang] = '';
            return body;
          });
        },
      },
      'ho-page-size-25-when-page-given': {
        breaks: 'Without per_page, page 1 holds 30 items, but a request that names page (as the Link URLs do) is served 25 per page; Link URLs do not show it.',
        kind: 'contract',
        rules: ['store.pagination.default-page-size', 'store.pagination.follow-links'],
        onRequest(req) {
          if (req.method !== 'GET' || !STORE_COLLECTION.test(pathOnly(req.path))) return req;
          const q = queryOf(req.path);
          if (!q.has('page') || q.has('per_page')) return req;
          return { ...withQuery(req, (query) => query.set('per_page', '25')), headers: { ...req.headers, 'x-held-out-per-page': '1' } };
        },
        onResponse(res, req) {
          if (!req.headers['x-held-out-per-page']) return res;
          return mapLink(res, (entries) => entries.map((e) => ({ ...e, url: setUrlParam(e.url, 'per_page', undefined) })));
        },
      },
      'ho-nested-camel-case-in-product-list': {
        breaks: 'In GET /products (the list only), variants show promotional_price, stock_management and product_id as camelCase keys.',
        kind: 'contract',
        rules: ['store.json.snake-case-keys'],
        onResponse(res, req) {
          if (req.method !== 'GET' || !/^\/v1\/\d+\/products$/.test(pathOnly(req.path)) || res.status !== 200) return res;
          const ren: Record<string, string> = { promotional_price: 'promotionalPrice', stock_management: 'stockManagement', product_id: 'productId' };
          return mapJson(res, (body) =>
            walk(body, (o) => {
              if (!('sku' in o)) return; // variants only
              for (const [from, to] of Object.entries(ren))
                if (from in o) {
                  o[to] = o[from];
                  delete o[from];
                }
            }),
          );
        },
      },
      'ho-429-as-503': {
        breaks: 'A burst over the bucket answers 503 Service Unavailable (with the rate headers) instead of 429 Too Many Requests.',
        kind: 'contract',
        rules: ['store.ratelimit.bucket-429'],
        onResponse(res) {
          return res.status === 429 ? { ...res, status: 503 } : res;
        },
      },
      'ho-link-last-one-past-the-end': {
        breaks: 'Link rel="last" points one page past the last page (which answers 404); next, prev and first are right.',
        kind: 'contract',
        rules: ['store.pagination.follow-links'],
        onResponse(res) {
          return mapLink(res, (entries) =>
            entries.map((e) => (e.rel === 'last' ? { ...e, url: setUrlParam(e.url, 'page', String(pageParam(e.url) + 1)) } : e)),
          );
        },
      },
      'ho-user-agent-not-checked-on-writes': {
        breaks: 'A POST, PUT or DELETE without a User-Agent is served (the check runs on GET and HEAD only).',
        kind: 'contract',
        rules: ['store.http.user-agent-required'],
        onRequest(req) {
          if (['GET', 'HEAD'].includes(req.method) || req.headers['user-agent']) return req;
          return { ...req, headers: { ...req.headers, 'user-agent': 'held-out (https://example.invalid)' } };
        },
      },
      'ho-content-type-not-checked-on-put': {
        breaks: 'A PUT with a JSON body but no Content-Type is served as JSON (POST still answers 415).',
        kind: 'contract',
        rules: ['store.http.content-type-required'],
        onRequest(req) {
          if (req.method !== 'PUT' || req.body.length === 0 || req.headers['content-type']) return req;
          return { ...req, headers: { ...req.headers, 'content-type': 'application/json; charset=utf-8' } };
        },
      },
      'ho-422-on-put-as-400': {
        breaks: 'An invalid field on a PUT answers 400 (same field-error body) instead of 422; POST keeps 422.',
        kind: 'contract',
        rules: ['store.errors.validation-422'],
        onResponse(res, req) {
          return req.method === 'PUT' && res.status === 422 ? { ...res, status: 400 } : res;
        },
      },
      'ho-total-count-missing-on-filtered-lists': {
        breaks: 'A collection asked with any parameter other than page and per_page (since_id, q, fields, ...) has no X-Total-Count.',
        kind: 'contract',
        rules: ['store.pagination.total-count'],
        onResponse(res, req) {
          const keys = [...queryOf(req.path).keys()].filter((k) => k !== 'page' && k !== 'per_page');
          return keys.length > 0 ? withHeaders(res, { 'x-total-count': undefined }) : res;
        },
      },
      'ho-main-language-missing-on-head': {
        breaks: 'HEAD answers lack X-Main-Language (GET answers keep it).',
        kind: 'contract',
        rules: ['store.headers.main-language', 'store.http.head-any-resource'],
        onResponse(res, req) {
          return req.method === 'HEAD' ? withHeaders(res, { 'x-main-language': undefined }) : res;
        },
      },
    },
    deviations: {
      'ho-link-reordered-explicit-per-page': {
        allows:
          'Link entries come in the order last, next, prev, first, and every URL names per_page (the size served) even when the client did not: the contract lists the rel values and requires full URLs, not an order or a parameter set.',
        onResponse(res, req) {
          const size = String(perPageOf(req));
          return mapLink(res, (entries) => [...entries].reverse().map((e) => ({ ...e, url: setUrlParam(e.url, 'per_page', size) })));
        },
      },
      'ho-timestamps-store-local-offset': {
        allows:
          'Timestamps are written in the store\'s local time with offset -0300 (2025-01-01T07:00:00-0300): the contract asks for a numeric offset without a colon, "for example +0000", not for UTC.',
        onResponse(res) {
          return mapJson(res, (body) =>
            walk(body, (o) => {
              for (const [k, v] of Object.entries(o)) if (k.endsWith('_at') && typeof v === 'string') o[k] = localOffset(v);
            }),
          );
        },
      },
      'ho-bad-token-403': {
        allows:
          'A missing or wrong token answers 403 {"code":403,"message":"Forbidden","description":"Invalid access token"}: "Responses for ... failed or insufficient authorization: not shown."',
        // The API's access token (/v1/…): the token endpoint's own refusals are OAuth 2's (RFC 6749 5.2: invalid_client
        // is 400 or 401), which the spec adopts, so a 403 there is a break, not what this deviation allows.
        onResponse(res, req) {
          if (res.status !== 401 || !pathOnly(req.path).startsWith('/v1/')) return res;
          return { ...res, status: 403, body: JSON.stringify({ code: 403, message: 'Forbidden', description: 'Invalid access token' }) };
        },
      },
      'ho-422-mixed-form': {
        allows:
          'Field errors come in the mixed form the field notes show the real service using: {"code":422,"message":"Unprocessable Entity","description":"Validation error","name":["can\'t be blank"]}.',
        onResponse(res) {
          if (res.status !== 422) return res;
          return mapJson(res, (body) =>
            isObj(body) && !('code' in body) ? { code: 422, message: 'Unprocessable Entity', description: 'Validation error', ...body } : body,
          );
        },
      },
      'ho-unquoted-rel-and-extra-headers': {
        allows:
          'Link rel values are written as unquoted tokens (rel=next, valid RFC 8288), and answers add Cache-Control, X-Request-Id and, on 429, Retry-After: the contract fixes neither the quoting nor forbids extra headers.',
        onResponse(res) {
          const link = headerOf(res, 'link');
          const extra: Record<string, string | undefined> = { 'cache-control': 'private, max-age=0', 'x-request-id': 'held-out-1' };
          if (link) extra['link'] = link.replace(/rel="([a-z]+)"/g, 'rel=$1');
          if (res.status === 429) extra['retry-after'] = '1';
          return withHeaders(res, extra);
        },
      },
      'ho-category-references-as-objects': {
        allows:
          'A category\'s parent (when not null) is {"id": n} and subcategories is an array of {"id": n}: "Types of parent when it is not null and of the elements of subcategories: not shown."',
        onResponse(res) {
          return mapJson(res, (body) =>
            walk(body, (o) => {
              if (!('parent' in o && 'subcategories' in o)) return;
              if (typeof o['parent'] === 'number') o['parent'] = { id: o['parent'] };
              if (Array.isArray(o['subcategories'])) o['subcategories'] = o['subcategories'].map((s) => (typeof s === 'number' ? { id: s } : s));
            }),
          );
        },
      },
    },
  },
  media: {
    breaks: {
      'ho-errors-as-application-json': {
        breaks: 'Error answers (4xx/5xx) carry Content-Type: application/json; successful documents keep application/vnd.api+json.',
        kind: 'contract',
        rules: ['media.jsonapi.media-type'],
        onResponse(res) {
          return res.status >= 400 ? withHeaders(res, { 'content-type': 'application/json; charset=utf-8' }) : res;
        },
      },
      'ho-included-ids-numeric': {
        breaks: 'Resources under included carry numeric ids (primary data keeps string ids).',
        kind: 'contract',
        rules: ['media.jsonapi.string-ids', 'media.jsonapi.included'],
        onResponse(res) {
          return mapJson(res, (body) => {
            if (isObj(body) && Array.isArray(body['included']))
              for (const r of body['included']) if (isObj(r) && typeof r['id'] === 'string' && /^\d+$/.test(r['id'])) r['id'] = Number(r['id']);
            return body;
          });
        },
      },
      'ho-links-next-offset-plus-one': {
        breaks: 'links.next points one past the next window (page[offset] = offset + limit + 1), so a walk by next skips one resource per page.',
        kind: 'reliance',
        rules: ['media.pagination.follow-next'],
        onResponse(res) {
          return editLinks(res, (links) => {
            if (typeof links['next'] !== 'string') return;
            const u = new URL(links['next']);
            const off = Number(u.searchParams.get('page[offset]') ?? '0');
            u.searchParams.set('page[offset]', String(off + 1));
            links['next'] = u.href;
          });
        },
      },
      'ho-meta-count-missing-after-first-page': {
        breaks: 'meta.count is present on the first page only; pages with page[offset] > 0 have no meta.count.',
        kind: 'reliance',
        rules: ['media.pagination.meta-count'],
        onResponse(res, req) {
          if (Number(queryOf(req.path).get('page[offset]') ?? '0') <= 0) return res;
          return mapJson(res, (body) => {
            if (isObj(body) && isObj(body['meta'])) delete body['meta']['count'];
            return body;
          });
        },
      },
      'ho-links-last-missing-on-last-page': {
        breaks: 'The last page of a paginated collection (links.prev present, no links.next) has no links.last.',
        kind: 'reliance',
        rules: ['media.pagination.first-last'],
        onResponse(res) {
          return editLinks(res, (links, body) => {
            if (Array.isArray(body['data']) && links['next'] === undefined && links['prev'] !== undefined) delete links['last'];
          });
        },
      },
      'ho-links-first-relative': {
        breaks: 'links.first is a relative URL (path and query only); the other links stay full URLs.',
        kind: 'reliance',
        rules: ['media.pagination.first-last'],
        onResponse(res) {
          return editLinks(res, (links) => {
            if (typeof links['first'] !== 'string') return;
            const u = new URL(links['first']);
            links['first'] = `${u.pathname}${u.search}`;
          });
        },
      },
      'ho-400-rails-error-shape': {
        breaks:
          '400 answers (bad filter, include, sort, page value) use a Rails-style body {"error": "<title>", "status": 400} with no errors array; other errors stay JSON:API.',
        kind: 'contract',
        rules: ['media.errors.jsonapi-errors'],
        onResponse(res) {
          if (res.status !== 400) return res;
          return mapJson(res, (body) => {
            if (!isObj(body) || !Array.isArray(body['errors'])) return body;
            const first = body['errors'][0];
            return { error: isObj(first) ? (first['title'] ?? first['detail'] ?? 'Bad Request') : 'Bad Request', status: 400 };
          });
        },
      },
      'ho-hidden-media-403': {
        breaks: 'An anonymous GET /anime/{id} or /manga/{id} of a hidden (adult) or missing title answers 403 Forbidden instead of 404.',
        kind: 'contract',
        rules: ['media.visibility.adult-direct-404', 'media.errors.hidden-404'],
        onResponse(res, req) {
          if (req.method !== 'GET' || !anonymous(req) || res.status !== 404 || !/^\/api\/edge\/(anime|manga)\/\d+$/.test(pathOnly(req.path))) return res;
          return {
            ...res,
            status: 403,
            body: JSON.stringify({ errors: [{ title: 'Forbidden', detail: 'You are not allowed to see this record.', code: '403', status: '403' }] }),
          };
        },
      },
      'ho-adult-included-for-anonymous': {
        breaks:
          'An anonymous library-entry request with include=anime (or media) is answered as if signed in, so an adult title comes back in included instead of null data.',
        kind: 'contract',
        rules: ['media.visibility.adult-include-null'],
        onRequest(req, ctx) {
          if (req.method !== 'GET' || !anonymous(req) || !ctx.signedInToken || !pathOnly(req.path).startsWith(`${EDGE}/library-entries`)) return req;
          const include = queryOf(req.path).get('include') ?? '';
          if (!/(^|,)(anime|media|manga)(\.|,|$)/.test(include)) return req;
          return { ...req, headers: { ...req.headers, authorization: `Bearer ${ctx.signedInToken}` } };
        },
      },
      'ho-anonymous-anime-count-includes-adult': {
        breaks: 'An anonymous unfiltered GET /anime leaves the adult titles out of data but counts them in meta.count (+3).',
        kind: 'contract',
        rules: ['media.visibility.adult-hidden-from-lists', 'media.pagination.meta-count', 'media.pagination.follow-next'],
        onResponse(res, req) {
          if (req.method !== 'GET' || !anonymous(req) || pathOnly(req.path) !== `${EDGE}/anime` || req.path.includes('filter')) return res;
          return mapJson(res, (body) => {
            if (isObj(body) && isObj(body['meta']) && typeof body['meta']['count'] === 'number') body['meta']['count'] += 3;
            return body;
          });
        },
      },
      'ho-sort-descending-ignored': {
        breaks: 'A leading - in sort is ignored: sort=-averageRating orders ascending.',
        kind: 'reliance',
        rules: ['media.jsonapi.sort'],
        onRequest(req) {
          const sort = queryOf(req.path).get('sort');
          if (!sort || !sort.includes('-')) return req;
          return withQuery(req, (q) =>
            q.set(
              'sort',
              sort
                .split(',')
                .map((k) => k.replace(/^-/, ''))
                .join(','),
            ),
          );
        },
      },
      'ho-filter-id-first-value-only': {
        breaks: 'filter[id] with a comma list honours only its first id.',
        kind: 'contract',
        rules: ['media.jsonapi.filters'],
        onRequest(req) {
          const ids = queryOf(req.path).get('filter[id]');
          if (!ids || !ids.includes(',')) return req;
          return withQuery(req, (q) => q.set('filter[id]', ids.split(',')[0]!));
        },
      },
      'ho-put-update-not-routed': {
        breaks: 'PUT /{collection}/{id} is not routed (404 Route Not Found); only PATCH updates.',
        kind: 'contract',
        rules: ['media.routes.standard'],
        onRequest(req) {
          return req.method === 'PUT' && /^\/api\/edge\/[a-z-]+\/\d+$/.test(pathOnly(req.path)) ? notFoundPath(req) : req;
        },
      },
      'ho-episode-media-relationship-dropped': {
        breaks: 'Episodes served from /episodes routes have no media relationship (videos kept).',
        kind: 'contract',
        rules: ['media.relationships.episode-media', 'media.relationships.table'],
        onResponse(res, req) {
          if (!pathOnly(req.path).startsWith(`${EDGE}/episodes`)) return res;
          return mapJson(res, (body) => {
            if (!isObj(body)) return body;
            const data = body['data'];
            for (const r of Array.isArray(data) ? data : [data])
              if (isObj(r) && r['type'] === 'episodes' && isObj(r['relationships'])) delete r['relationships']['media'];
            return body;
          });
        },
      },
      'ho-deprecated-genres-wrong-replacement': {
        breaks: 'The deprecated genres relationship is marked deprecated but names mediaRelationships as its replacement (the spec says categories).',
        kind: 'contract',
        rules: ['media.relationships.deprecated-marked'],
        onResponse(res) {
          return mapJson(res, (body) =>
            walk(body, (o) => {
              const g = o['genres'];
              if (isObj(g) && isObj(g['meta']) && g['meta']['replacedBy'] !== undefined) g['meta']['replacedBy'] = 'mediaRelationships';
              if (o['deprecated'] === true && o['replacedBy'] === 'categories') o['replacedBy'] = 'mediaRelationships';
            }),
          );
        },
      },
      'ho-sparse-fields-only-for-primary-type': {
        breaks: 'fields[type] is applied to the primary data only: included resources of other types come back with every attribute.',
        kind: 'reliance',
        rules: ['media.jsonapi.sparse-fields'],
        onRequest(req) {
          const seg =
            pathOnly(req.path)
              .slice(EDGE.length + 1)
              .split('/')[0] ?? '';
          const primary = camel(seg);
          const drop = [...queryOf(req.path).keys()].filter((k) => /^fields\[.+\]$/.test(k) && k !== `fields[${primary}]` && k !== `fields[${seg}]`);
          if (drop.length === 0) return req;
          return withQuery(req, (q) => drop.forEach((k) => q.delete(k)));
        },
      },
      'ho-included-dropped-on-collections': {
        breaks: 'On collection documents, include= fills relationship data but the top-level included member is left out.',
        kind: 'contract',
        rules: ['media.jsonapi.included'],
        onResponse(res) {
          return mapJson(res, (body) => {
            if (isObj(body) && Array.isArray(body['data']) && 'included' in body) delete body['included'];
            return body;
          });
        },
      },
      'ho-meta-count-string-on-library-entries': {
        breaks: 'Library-entry collections give meta.count as a string ("12"); other collections keep an integer.',
        kind: 'reliance',
        rules: ['media.pagination.meta-count'],
        onResponse(res, req) {
          if (!pathOnly(req.path).startsWith(`${EDGE}/library-entries`)) return res;
          return mapJson(res, (body) => {
            if (isObj(body) && isObj(body['meta']) && typeof body['meta']['count'] === 'number') body['meta']['count'] = String(body['meta']['count']);
            return body;
          });
        },
      },
      'ho-links-next-on-last-page': {
        breaks: 'The last page of a paginated collection carries links.next pointing past the end (offset + limit), answering an empty page.',
        kind: 'reliance',
        rules: ['media.pagination.first-last'],
        onResponse(res, req) {
          return editLinks(res, (links, body) => {
            if (!Array.isArray(body['data']) || links['next'] !== undefined || links['prev'] === undefined || typeof links['last'] !== 'string') return;
            const q = queryOf(req.path);
            const u = new URL(links['last']);
            const limit = Number(q.get('page[limit]') ?? u.searchParams.get('page[limit]') ?? '10');
            u.searchParams.set('page[offset]', String(Number(q.get('page[offset]') ?? '0') + limit));
            links['next'] = u.href;
          });
        },
      },
      'ho-linkage-ids-numeric': {
        breaks: 'Relationship data (resource linkage) in primary data carries numeric ids; resource objects keep string ids.',
        kind: 'contract',
        rules: ['media.jsonapi.string-ids'],
        onResponse(res) {
          return mapJson(res, (body) => {
            if (!isObj(body)) return body;
            const data = body['data'];
            for (const r of Array.isArray(data) ? data : [data])
              if (isObj(r) && isObj(r['relationships']))
                for (const rel of Object.values(r['relationships'])) {
                  if (!isObj(rel)) continue;
                  const d = rel['data'];
                  for (const l of Array.isArray(d) ? d : [d]) if (isObj(l) && typeof l['id'] === 'string' && /^\d+$/.test(l['id'])) l['id'] = Number(l['id']);
                }
            return body;
          });
        },
      },
      'ho-nested-include-ignored': {
        breaks: 'Dotted include paths stop at their first step: include=mediaRelationships.destination includes only mediaRelationships.',
        kind: 'contract',
        rules: ['media.jsonapi.included'],
        onRequest(req) {
          const include = queryOf(req.path).get('include');
          if (!include || !include.includes('.')) return req;
          const firsts = [...new Set(include.split(',').map((p) => p.split('.')[0]!))].join(',');
          return withQuery(req, (q) => q.set('include', firsts));
        },
      },
      'ho-adult-manga-shown-directly': {
        breaks: 'An anonymous GET /manga/{id} of an adult-flagged manga answers 200 with the manga (anime are still hidden).',
        kind: 'contract',
        rules: ['media.visibility.adult-direct-404', 'media.errors.hidden-404'],
        onRequest(req, ctx) {
          if (req.method !== 'GET' || !anonymous(req) || !ctx.signedInToken || !/^\/api\/edge\/manga\/\d+$/.test(pathOnly(req.path))) return req;
          return { ...req, headers: { ...req.headers, authorization: `Bearer ${ctx.signedInToken}` } };
        },
      },
      'ho-episodes-type-singular': {
        breaks: 'The episode serializer writes type "episode" (singular) on /episodes and /episodes/{id}; every other type stays the collection\'s plural.',
        kind: 'contract',
        rules: ['media.jsonapi.resource-object'],
        onResponse(res, req) {
          if (!/^\/api\/edge\/episodes(\/\d+)?$/.test(pathOnly(req.path))) return res;
          return mapJson(res, (body) => {
            if (!isObj(body)) return body;
            const data = body['data'];
            for (const r of Array.isArray(data) ? data : [data]) if (isObj(r) && r['type'] === 'episodes') r['type'] = 'episode';
            return body;
          });
        },
      },
    },
    deviations: {
      'ho-error-objects-extra-members': {
        allows:
          'Error objects add id, links.about, meta and, on 400s, source.parameter (status stays a string, as JSON:API has it): "Error status codes by condition and the members of the error object: not shown."',
        onResponse(res, req) {
          if (res.status < 400) return res;
          const param = [...queryOf(req.path).keys()][0];
          return mapJson(res, (body) => {
            if (isObj(body) && Array.isArray(body['errors']))
              body['errors'] = body['errors'].map((e, i) =>
                isObj(e)
                  ? {
                      id: `err-${i}`,
                      ...e,
                      links: { about: 'https://example.invalid/errors' },
                      meta: { requestId: 'r-1' },
                      ...(res.status === 400 && param && !('source' in e) ? { source: { parameter: param } } : {}),
                    }
                  : e,
              );
            return body;
          });
        },
      },
      'ho-top-level-meta-and-self-on-single-documents': {
        allows: 'Single-resource documents add top-level meta {requestId} and links.self, which JSON:API documents may carry and the spec does not rule out.',
        onResponse(res) {
          if (res.status >= 300) return res;
          return mapJson(res, (body) => {
            if (isObj(body) && isObj(body['data']) && !('meta' in body)) {
              body['meta'] = { requestId: 'held-out-1' };
              if (!('links' in body) && isObj(body['data']['links']) && typeof body['data']['links']['self'] === 'string')
                body['links'] = { self: body['data']['links']['self'] };
            }
            return body;
          });
        },
      },
      'ho-unencoded-brackets-in-links': {
        allows:
          'Pagination links write page[limit], filter[...] with literal brackets instead of %5B/%5D: still full URLs that echo the query; the encoding is not in the contract.',
        onResponse(res) {
          return editLinks(res, (links) => {
            for (const [k, v] of Object.entries(links)) if (typeof v === 'string') links[k] = v.replace(/%5B/gi, '[').replace(/%5D/gi, ']');
          });
        },
      },
      'ho-default-limit-20-on-media': {
        allows:
          'GET /anime and /manga without page[limit] are served 20 per page (links carry page[limit]=20): "Rate limits, page sizes and size limits: not shown."',
        onRequest(req) {
          if (req.method !== 'GET' || !/^\/api\/edge\/(anime|manga)$/.test(pathOnly(req.path)) || queryOf(req.path).has('page[limit]')) return req;
          return withQuery(req, (q) => q.set('page[limit]', '20'));
        },
      },
      'ho-no-prev-links': {
        allows: 'Collections never carry links.prev (first, next and last are kept): the spec names no pagination links, and no client walks backwards.',
        onResponse(res) {
          return editLinks(res, (links) => {
            delete links['prev'];
          });
        },
      },
      'ho-create-200': {
        allows: 'A successful create answers 200 (with Location and the document) instead of 201: "Success status codes per route: not shown."',
        onResponse(res, req) {
          return req.method === 'POST' && res.status === 201 ? { ...res, status: 200 } : res;
        },
      },
      'ho-delete-200-meta': {
        allows: 'A successful DELETE answers 200 with a meta-only JSON:API document {"meta":{}} instead of 204: "Success status codes per route: not shown."',
        onResponse(res, req) {
          if (req.method !== 'DELETE' || res.status !== 204) return res;
          return { ...withHeaders(res, { 'content-type': 'application/vnd.api+json' }), status: 200, body: JSON.stringify({ meta: {} }) };
        },
      },
    },
  },
};

export default set;
