/**
 * Single observable breaks of the Store contract (../shared/specs/store-commerce-api.md),
 * each a rule of the spec a broken provider could violate. scripts/mutants.ts runs
 * the live-target store suites against each and expects them to go red.
 */
import type { Mutation, ProxiedResponse } from './breakingProxy.ts';

type Json = unknown;

function mapJson(res: ProxiedResponse, fn: (body: Json) => Json): ProxiedResponse {
  try {
    return { ...res, body: JSON.stringify(fn(JSON.parse(res.body))) };
  } catch {
    return res;
  }
}

function deepMap(value: Json, fn: (key: string, v: Json) => [string, Json] | undefined): Json {
  if (Array.isArray(value)) return value.map((v) => deepMap(v, fn));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(value)) {
    const mapped = fn(k, v);
    if (mapped === undefined) continue;
    out[mapped[0]] = deepMap(mapped[1], fn);
  }
  return out;
}

const isCollection = (path: string) => /\/(products|categories)(\?|$)/.test(path);

export const STORE_MUTATIONS: Record<string, Mutation> = {
  'link-relative-urls': {
    breaks: 'store.pagination.link-full-urls: Link values are paths, not full URLs',
    onResponse: (res) => ({ ...res, headers: { ...res.headers, link: String(res.headers.link ?? '').replace(/<https?:\/\/[^/]+/g, '<') || undefined } }),
  },
  'link-without-next': {
    breaks: 'store.pagination.follow-links: Link never offers rel="next"',
    onResponse: (res) => ({
      ...res,
      headers: {
        ...res.headers,
        link:
          String(res.headers.link ?? '')
            .split(', ')
            .filter((e) => !e.includes('rel="next"'))
            .join(', ') || undefined,
      },
    }),
  },
  'total-count-off-by-one': {
    breaks: 'store.pagination.total-count: X-Total-Count is one more than the results',
    onResponse: (res) =>
      res.headers['x-total-count'] ? { ...res, headers: { ...res.headers, 'x-total-count': String(Number(res.headers['x-total-count']) + 1) } } : res,
  },
  'total-count-missing': {
    breaks: 'store.pagination.total-count: no X-Total-Count on collections',
    onResponse: (res) => ({ ...res, headers: { ...res.headers, 'x-total-count': undefined } }),
  },
  'default-page-size-25': {
    breaks: 'store.pagination.default-page-size: a page without per_page holds 25',
    onRequest: (req) =>
      isCollection(req.path) && !req.path.includes('per_page') ? { ...req, path: `${req.path}${req.path.includes('?') ? '&' : '?'}per_page=25` } : req,
  },
  'max-page-size-100': {
    breaks: 'store.pagination.max-page-size: per_page over 100 is served as 100',
    onRequest: (req) => ({ ...req, path: req.path.replace(/per_page=(\d+)/, (m, n: string) => (Number(n) > 100 ? 'per_page=100' : m)) }),
  },
  'pages-zero-based': {
    breaks: 'store.pagination.first-page-default: page=1 is the second page',
    onRequest: (req) => ({ ...req, path: req.path.replace(/([?&])page=(\d+)/, (_m, sep: string, n: string) => `${sep}page=${Number(n) + 1}`) }),
  },
  'timestamps-with-colon': {
    breaks: 'store.timestamps.format: offsets written +00:00',
    onResponse: (res) => ({ ...res, body: res.body.replace(/(T\d{2}:\d{2}:\d{2})\+0000/g, '$1+00:00') }),
  },
  'localized-name-as-string': {
    breaks: 'store.localized.always-object: name is a plain string',
    onResponse: (res) =>
      mapJson(res, (body) => deepMap(body, (k, v) => (k === 'name' && v && typeof v === 'object' && !Array.isArray(v) ? [k, Object.values(v)[0]] : [k, v]))),
  },
  'string-name-sets-main-language-only': {
    breaks: 'store.localized.string-applies-to-all: a string name is stored for the main language only',
    onRequest: (req) => {
      if (req.method !== 'POST' && req.method !== 'PUT') return req;
      try {
        const body = JSON.parse(req.body.toString('utf8')) as Record<string, unknown>;
        if (typeof body.name === 'string') body.name = { es: body.name };
        return { ...req, body: Buffer.from(JSON.stringify(body)) };
      } catch {
        return req;
      }
    },
  },
  'camel-case-keys': {
    breaks: 'store.json.snake-case-keys: created_at is createdAt',
    onResponse: (res) => mapJson(res, (body) => deepMap(body, (k, v) => [k === 'created_at' ? 'createdAt' : k, v])),
  },
  'collection-root-element': {
    breaks: 'store.json.no-root-element: a collection is wrapped in {"items": [...]}',
    onResponse: (res, req) => (req.method === 'GET' && isCollection(req.path) && res.status === 200 ? { ...res, body: `{"items":${res.body}}` } : res),
  },
  'no-main-language-on-errors': {
    breaks: 'store.headers.main-language: errors lack X-Main-Language',
    onResponse: (res) => (res.status >= 400 ? { ...res, headers: { ...res.headers, 'x-main-language': undefined } } : res),
  },
  'rate-headers-missing': {
    breaks: 'store.ratelimit.headers: no X-Rate-Limit-Remaining',
    onResponse: (res) => ({ ...res, headers: { ...res.headers, 'x-rate-limit-remaining': undefined } }),
  },
  'rate-reset-in-seconds': {
    breaks: 'store.ratelimit.headers: X-Rate-Limit-Reset in seconds',
    onResponse: (res) =>
      res.headers['x-rate-limit-reset']
        ? { ...res, headers: { ...res.headers, 'x-rate-limit-reset': String(Math.ceil(Number(res.headers['x-rate-limit-reset']) / 1000)) } }
        : res,
  },
  'rate-limit-header-60': {
    breaks: 'store.ratelimit.headers: X-Rate-Limit-Limit says 60',
    onResponse: (res) => (res.headers['x-rate-limit-limit'] ? { ...res, headers: { ...res.headers, 'x-rate-limit-limit': '60' } } : res),
  },
  'no-429': {
    breaks: 'store.ratelimit.bucket-429: a full bucket answers 200 []',
    onResponse: (res) => (res.status === 429 ? { ...res, status: 200, body: '[]' } : res),
  },
  'user-agent-optional': {
    breaks: 'store.http.user-agent-required: a request without User-Agent is served',
    onRequest: (req) => (req.headers['user-agent'] ? req : { ...req, headers: { ...req.headers, 'user-agent': 'filled in by the provider' } }),
  },
  'content-type-optional': {
    breaks: 'store.http.content-type-required: a body without Content-Type is read as JSON',
    onRequest: (req) => (req.body.length > 0 ? { ...req, headers: { ...req.headers, 'content-type': 'application/json' } } : req),
  },
  'invalid-json-standard-error': {
    breaks: 'store.errors.invalid-json-400: bad JSON answers {code,message,description}',
    onResponse: (res) =>
      res.status === 400 && res.body.includes('"error"') ? { ...res, body: '{"code":400,"message":"Bad Request","description":"Problems parsing JSON"}' } : res,
  },
  'validation-errors-flat': {
    breaks: 'store.errors.validation-422: 422 bodies are {"message": "..."}',
    onResponse: (res) => (res.status === 422 ? { ...res, body: '{"message":"Validation failed"}' } : res),
  },
  'validation-as-400': {
    breaks: 'store.errors.validation-422: an invalid field answers 400',
    onResponse: (res) => (res.status === 422 ? { ...res, status: 400 } : res),
  },
  'category-parent-missing': {
    breaks: 'store.categories.get-category: categories lack parent',
    onResponse: (res, req) => (/\/categories/.test(req.path) ? mapJson(res, (body) => deepMap(body, (k, v) => (k === 'parent' ? undefined : [k, v]))) : res),
  },
  'leaf-subcategories-null': {
    breaks: 'store.categories.subcategories-empty-array: a leaf shows subcategories null',
    onResponse: (res) => ({ ...res, body: res.body.replace(/"subcategories":\[\]/g, '"subcategories":null') }),
  },
  'top-level-parent-zero': {
    breaks: 'store.categories.parent-null-top-level: a top-level category shows parent 0',
    onResponse: (res) => ({ ...res, body: res.body.replace(/"parent":null/g, '"parent":0') }),
  },
  'authentication-header-ignored': {
    breaks: 'store.auth.authentication-header: only Authorization is read',
    onRequest: (req) => {
      const headers = { ...req.headers };
      delete headers.authentication;
      return { ...req, headers };
    },
  },
  'head-not-allowed': {
    breaks: 'store.http.head-any-resource: HEAD answers 405',
    onResponse: (res, req) => (req.method === 'HEAD' ? { ...res, status: 405 } : res),
  },
  'create-fails-500': {
    breaks: 'store.products.create: POST /products answers 500',
    onResponse: (res, req) =>
      req.method === 'POST' && /\/products(\?|$)/.test(req.path) && res.status < 300 ? { ...res, status: 500, body: '{"code":500}' } : res,
  },
  'category-description-null': {
    breaks: 'store.categories.get-category: description is null instead of a localized object',
    onResponse: (res, req) =>
      /\/categories/.test(req.path) ? mapJson(res, (body) => deepMap(body, (k, v) => (k === 'description' ? [k, null] : [k, v]))) : res,
  },
};
