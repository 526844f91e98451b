/**
 * The second reviewer's held-out set of provider breaks and allowed deviations, written from the specs, the
 * field notes, the fixtures and the rule catalogues only (not from the suites or the project's break lists).
 * Each entry is one change a real provider could plausibly make. docs/breaks.md gives its first run.
 *
 *   npm run breaks -- --held-out tests/held-out/secondBreakSet.ts held-out
 */
import type { ProviderBreak, ProviderDeviation } from '../../src/testing/providerBreaks/breakingProxy.ts';
import type { BreakSet } from '../../src/testing/providerBreaks/breakSet.ts';
import {
  deepMap,
  headerOf,
  mapJson,
  mapLink,
  parseLink,
  pathOnly,
  queryOf,
  withHeaders,
  withParam,
  withQuery,
  type Json,
} from '../../src/testing/providerBreaks/rewrite.ts';

type Obj = Record<string, Json>;
const isObj = (v: Json): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

// ---------------------------------------------------------------------------
// Store Commerce API
// ---------------------------------------------------------------------------

const LOCALIZED_KEYS = new Set(['name', 'description', 'handle']);

const storeBreaks: Record<string, ProviderBreak<'store'>> = {
  'ho-total-count-is-page-length': {
    breaks: 'X-Total-Count on a collection page is the number of items on that page, not the total number of results (a count taken after LIMIT).',
    kind: 'contract',
    rules: ['store.pagination.total-count', 'store.pagination.follow-links'],
    onResponse(res) {
      if (headerOf(res, 'x-total-count') === undefined) return res;
      let body: Json;
      try {
        body = JSON.parse(res.body);
      } catch {
        return res;
      }
      return Array.isArray(body) ? withHeaders(res, { 'x-total-count': String(body.length) }) : res;
    },
  },

  'ho-main-language-only-on-success': {
    breaks: 'X-Main-Language is sent on 2xx answers only; error answers (4xx/5xx) come without it (set by a success-only response filter).',
    kind: 'contract',
    rules: ['store.headers.main-language'],
    onResponse(res) {
      return res.status >= 400 ? withHeaders(res, { 'x-main-language': undefined }) : res;
    },
  },

  'ho-localized-collapsed-when-uniform': {
    breaks:
      'A localized property (name, description, handle) whose value is the same in every language is serialized as a plain string (e.g. category description "" instead of {"es":"","pt":"","en":""}).',
    kind: 'contract',
    rules: ['store.localized.always-object'],
    onResponse(res) {
      return mapJson(res, (body) =>
        deepMap(body, (k, v) => {
          if (LOCALIZED_KEYS.has(k) && isObj(v)) {
            const values = Object.values(v);
            if (values.length > 0 && values.every((x) => typeof x === 'string' && x === values[0])) return [k, values[0]];
          }
          return [k, v];
        }),
      );
    },
  },

  'ho-user-agent-not-enforced': {
    breaks: 'A request without a User-Agent header is served as usual (200) instead of answering 400 Bad Request (a gateway fills in a default User-Agent).',
    kind: 'contract',
    rules: ['store.http.user-agent-required'],
    onRequest(req) {
      const ua = req.headers['user-agent'];
      if (ua !== undefined && ua !== '') return req;
      return { ...req, headers: { ...req.headers, 'user-agent': 'gateway-default/1.0' } };
    },
  },

  'ho-invalid-json-unified-error': {
    breaks:
      'A body that is not valid JSON answers 400 in the generic error shape {"code":400,"message":"Bad Request","description":"Problems parsing JSON"}: no string member error.',
    kind: 'contract',
    rules: ['store.errors.invalid-json-400'],
    onResponse(res) {
      if (res.status !== 400) return res;
      return mapJson(res, (body) =>
        isObj(body) && typeof body.error === 'string' && Object.keys(body).length === 1 ? { code: 400, message: 'Bad Request', description: body.error } : body,
      );
    },
  },

  'ho-validation-messages-as-strings': {
    breaks: 'A 422 field error lists its message as a string, not an array of strings: {"name":"can\'t be blank"} instead of {"name":["can\'t be blank"]}.',
    kind: 'contract',
    rules: ['store.errors.validation-422', 'store.errors.image-src-blank-422', 'store.client.validation-error-fields'],
    onResponse(res) {
      if (res.status !== 422) return res;
      return mapJson(res, (body) => {
        if (!isObj(body)) return body;
        const out: Obj = {};
        for (const [k, v] of Object.entries(body))
          out[k] = Array.isArray(v) && v.length > 0 && v.every((m) => typeof m === 'string') ? (v as string[]).join(', ') : v;
        return out;
      });
    },
  },

  'ho-next-on-last-page': {
    breaks: 'Off-by-one in the Link header: the last page of a collection still carries rel="next", pointing to the page after the last (which answers 404).',
    kind: 'contract',
    rules: ['store.pagination.follow-links', 'store.pagination.link-rels-presence'],
    onResponse(res, req) {
      if (res.status !== 200) return res;
      const entries = parseLink(headerOf(res, 'link'));
      if (entries.length === 0 || entries.some((e) => e.rel === 'next')) return res;
      const anchor = entries.find((e) => e.rel === 'last') ?? entries.find((e) => e.rel === 'first');
      if (!anchor) return res;
      const page = Number(queryOf(req.path).get('page') ?? '1');
      if (!Number.isInteger(page) || page < 1) return res;
      return mapLink(res, (es) => [...es, { url: withParam(anchor.url, 'page', String(page + 1)), rel: 'next' }]);
    },
  },

  'ho-per-page-capped-at-100': {
    breaks: 'per_page is capped at 100: per_page=200 (the documented maximum) serves pages of 100 items.',
    kind: 'contract',
    rules: ['store.pagination.max-page-size'],
    onRequest(req) {
      return withQuery(req, (q) => {
        const n = Number(q.get('per_page'));
        if (Number.isFinite(n) && n > 100) q.set('per_page', '100');
      });
    },
  },

  'ho-rate-reset-in-seconds': {
    breaks: 'X-Rate-Limit-Reset is given in whole seconds (rounded up), as an old draft said, instead of milliseconds until the bucket is empty.',
    kind: 'contract',
    rules: ['store.ratelimit.headers', 'store.ratelimit.reset-ms'],
    onResponse(res) {
      const reset = headerOf(res, 'x-rate-limit-reset');
      if (reset === undefined || !/^\d+$/.test(reset)) return res;
      return withHeaders(res, { 'x-rate-limit-reset': String(Math.ceil(Number(reset) / 1000)) });
    },
  },
};

function sortKeysDeep(v: Json): Json {
  if (Array.isArray(v)) return v.map(sortKeysDeep);
  if (!isObj(v)) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sortKeysDeep(v[k])]),
  );
}

const storeDeviations: Record<string, ProviderDeviation> = {
  'ho-link-entries-reordered': {
    allows:
      'The Link header lists its entries in another order (last, next, prev, first). The contract names the rel values, not their order; RFC 8288 gives the order no meaning.',
    onResponse(res) {
      const order = ['last', 'next', 'prev', 'first'];
      return mapLink(res, (es) => [...es].sort((a, b) => order.indexOf(a.rel) - order.indexOf(b.rel)));
    },
  },

  'ho-category-seo-members': {
    allows:
      'Categories carry extra members seo_title and seo_description, as some guides show for the real service. The contract lists the category fields it shows; extra members are not forbidden.',
    onResponse(res) {
      const main = headerOf(res, 'x-main-language') ?? 'es';
      const walk = (v: Json): Json => {
        if (Array.isArray(v)) return v.map(walk);
        if (!isObj(v)) return v;
        const out: Obj = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
        if ('subcategories' in out && 'parent' in out && !('seo_title' in out)) {
          const name = isObj(out.name) ? out.name : {};
          const title = typeof name[main] === 'string' ? name[main] : (Object.values(name).find((x) => typeof x === 'string') ?? '');
          return { ...out, seo_title: title, seo_description: '' };
        }
        return out;
      };
      return mapJson(res, walk);
    },
  },

  'ho-not-found-null-description': {
    allows:
      'A missing resource answers 404 {"code":404,"message":"Not Found","description":null}, which the docs show. The contract leaves 404 bodies unspecified; pages past the last keep their "Last page is N" description.',
    onResponse(res) {
      if (res.status !== 404) return res;
      return mapJson(res, (body) =>
        isObj(body) && typeof body.description === 'string' && !/^Last page is/.test(body.description) ? { ...body, description: null } : body,
      );
    },
  },

  'ho-json-keys-alphabetical': {
    allows:
      "Every JSON object is serialized with its keys in alphabetical order (as the docs' create example is). JSON object member order carries no meaning.",
    onResponse(res) {
      return mapJson(res, sortKeysDeep);
    },
  },

  'ho-content-type-without-charset': {
    allows:
      "Responses say Content-Type: application/json without a charset parameter (UTF-8 is JSON's default). The contract fixes the request Content-Type only.",
    onResponse(res) {
      const ct = headerOf(res, 'content-type');
      return ct && /^application\/json\s*;/i.test(ct) ? withHeaders(res, { 'content-type': 'application/json' }) : res;
    },
  },
};

// ---------------------------------------------------------------------------
// Media Tracking API
// ---------------------------------------------------------------------------

const EDGE = '/api/edge';

function resourcesOf(body: Obj): Obj[] {
  const out: Obj[] = [];
  const add = (v: Json) => {
    if (Array.isArray(v)) v.forEach(add);
    else if (isObj(v)) out.push(v);
  };
  add(body.data);
  add(body.included);
  return out;
}

function dasherize(s: string): string {
  return s.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

const mediaBreaks: Record<string, ProviderBreak<'media'>> = {
  'ho-linkage-ids-numeric': {
    breaks:
      'Resource identifier objects inside relationships.data carry numeric ids ({"type":"categories","id":1}); the resource objects themselves keep string ids.',
    kind: 'contract',
    rules: ['media.jsonapi.string-ids'],
    onResponse(res) {
      return mapJson(res, (body) => {
        if (!isObj(body)) return body;
        const numeric = (v: Json): Json => (isObj(v) && typeof v.id === 'string' && /^\d+$/.test(v.id) ? { ...v, id: Number(v.id) } : v);
        for (const r of resourcesOf(body)) {
          if (!isObj(r.relationships)) continue;
          for (const rel of Object.values(r.relationships)) {
            if (!isObj(rel) || !('data' in rel)) continue;
            rel.data = Array.isArray(rel.data) ? rel.data.map(numeric) : numeric(rel.data);
          }
        }
        return body;
      });
    },
  },

  'ho-primary-echoed-in-included': {
    breaks: 'A compound document (include=...) repeats its primary resource (the first one of data) inside included, so one type/id pair appears twice.',
    kind: 'contract',
    rules: ['media.jsonapi.included-unique'],
    onResponse(res) {
      return mapJson(res, (body) => {
        if (!isObj(body) || !Array.isArray(body.included)) return body;
        const primary = Array.isArray(body.data) ? body.data[0] : body.data;
        if (!isObj(primary)) return body;
        return { ...body, included: [...body.included, primary] };
      });
    },
  },

  'ho-meta-count-is-page-length': {
    breaks: 'meta.count on a collection is the number of resources on this page, not the size of the whole collection.',
    kind: 'reliance',
    rules: ['media.pagination.meta-count', 'media.pagination.follow-next'],
    onResponse(res) {
      return mapJson(res, (body) =>
        isObj(body) && Array.isArray(body.data) && isObj(body.meta) && typeof body.meta.count === 'number'
          ? { ...body, meta: { ...body.meta, count: body.data.length } }
          : body,
      );
    },
  },

  'ho-next-on-last-page': {
    breaks:
      'Off-by-one in the offset paginator: the last page of a collection still carries links.next, pointing one window past the end (which answers an empty page).',
    kind: 'reliance',
    rules: ['media.pagination.first-last', 'media.pagination.links', 'media.pagination.follow-next'],
    onResponse(res, req) {
      return mapJson(res, (body) => {
        if (!isObj(body) || !Array.isArray(body.data) || !isObj(body.links)) return body;
        const links = body.links;
        if (typeof links.last !== 'string' || typeof links.first !== 'string' || typeof links.next === 'string') return body;
        const last = new URL(links.last);
        const limit = Number(last.searchParams.get('page[limit]'));
        if (!Number.isInteger(limit) || limit <= 0) return body;
        const offset = Number(queryOf(req.path).get('page[offset]') ?? '0') || 0;
        return { ...body, links: { ...links, next: withParam(links.last, 'page[offset]', String(offset + limit)) } };
      });
    },
  },

  'ho-error-content-type-plain-json': {
    breaks: 'Error answers (4xx/5xx) are sent as Content-Type: application/json (a framework error handler) instead of application/vnd.api+json.',
    kind: 'contract',
    rules: ['media.jsonapi.media-type'],
    onResponse(res) {
      return res.status >= 400 ? withHeaders(res, { 'content-type': 'application/json; charset=utf-8' }) : res;
    },
  },

  'ho-errors-with-null-data': {
    breaks: 'Error documents carry "data": null beside "errors" (a serializer that always emits data), which JSON:API forbids.',
    kind: 'contract',
    rules: ['media.jsonapi.document-structure'],
    onResponse(res) {
      return mapJson(res, (body) => (isObj(body) && Array.isArray(body.errors) && !('data' in body) ? { data: null, ...body } : body));
    },
  },

  'ho-types-dasherized': {
    breaks:
      'Resource types are dasherized like the URL segments ("library-entries", "media-relationships", "streaming-links") instead of camelCase plurals ("libraryEntries", ...).',
    kind: 'reliance',
    rules: ['media.jsonapi.camel-case-members', 'media.jsonapi.resource-object'],
    onResponse(res) {
      return mapJson(res, (body) => {
        if (!isObj(body)) return body;
        const fix = (v: Json): Json => (isObj(v) && typeof v.type === 'string' ? { ...v, type: dasherize(v.type) } : v);
        for (const r of resourcesOf(body)) {
          if (typeof r.type === 'string') r.type = dasherize(r.type);
          if (!isObj(r.relationships)) continue;
          for (const rel of Object.values(r.relationships)) {
            if (!isObj(rel) || !('data' in rel)) continue;
            rel.data = Array.isArray(rel.data) ? rel.data.map(fix) : fix(rel.data);
          }
        }
        return body;
      });
    },
  },

  'ho-put-not-routed': {
    breaks: 'PUT /{collection}/{id} is not routed (only PATCH is): it answers 404 Route Not Found, although set C says PUT updates like PATCH.',
    kind: 'contract',
    rules: ['media.routes.standard', 'media.writes.update-applied'],
    onRequest(req) {
      if (req.method !== 'PUT') return req;
      const m = /^\/api\/edge\/[a-z-]+\/([^/?]+)$/.exec(pathOnly(req.path));
      if (!m || m[1]!.startsWith('_')) return req;
      return { ...req, path: `${EDGE}/__not-routed-put` };
    },
  },

  'ho-adult-in-anonymous-index': {
    breaks:
      'The anonymous anime and manga index (GET /anime, GET /manga) lists and counts adult-flagged titles (the list endpoint skips the visibility scope); direct reads still answer 404.',
    kind: 'contract',
    rules: ['media.visibility.adult-hidden-from-lists'],
    onRequest(req, ctx) {
      if (req.method !== 'GET' || req.headers.authorization || !ctx.signedInToken) return req;
      if (!/^\/api\/edge\/(anime|manga)\/?$/.test(pathOnly(req.path))) return req;
      return { ...req, headers: { ...req.headers, authorization: `Bearer ${ctx.signedInToken}` } };
    },
  },
};

const mediaDeviations: Record<string, ProviderDeviation> = {
  'ho-last-link-page-aligned': {
    allows:
      'links.last points at the last page boundary (offset floor((count-1)/limit)*limit) rather than at max(count - limit, 0). The contract says nothing of pagination; JSON:API leaves the link values to the server.',
    onResponse(res) {
      return mapJson(res, (body) => {
        if (!isObj(body) || !isObj(body.links) || typeof body.links.last !== 'string' || !isObj(body.meta) || typeof body.meta.count !== 'number') return body;
        const last = new URL(body.links.last);
        const limit = Number(last.searchParams.get('page[limit]'));
        const count = body.meta.count;
        if (!Number.isInteger(limit) || limit <= 0 || count <= 0) return body;
        const aligned = Math.floor((count - 1) / limit) * limit;
        return { ...body, links: { ...body.links, last: withParam(body.links.last, 'page[offset]', String(aligned)) } };
      });
    },
  },

  'ho-jsonapi-version-member': {
    allows: 'Every document carries the top-level member "jsonapi": {"version": "1.0"}, which JSON:API allows in any document.',
    onResponse(res) {
      return mapJson(res, (body) => (isObj(body) && ('data' in body || 'errors' in body) ? { ...body, jsonapi: { version: '1.0' } } : body));
    },
  },

  'ho-top-level-keys-reversed': {
    allows: 'Top-level members come in another order (links, meta, included, data). JSON object member order carries no meaning.',
    onResponse(res) {
      return mapJson(res, (body) => (isObj(body) ? Object.fromEntries(Object.entries(body).reverse()) : body));
    },
  },

  'ho-error-objects-extra-members': {
    allows:
      'Error objects carry the optional JSON:API members id, links.about and meta (a request id) beside title/detail/code/status. The contract does not list error members; JSON:API allows these.',
    onResponse(res) {
      let n = 0;
      return mapJson(res, (body) =>
        isObj(body) && Array.isArray(body.errors)
          ? {
              ...body,
              errors: body.errors.map((e) =>
                isObj(e) ? { id: `err-${++n}`, links: { about: 'https://status.example.invalid/errors' }, ...e, meta: { requestId: 'req-heldout-1' } } : e,
              ),
            }
          : body,
      );
    },
  },

  'ho-new-attribute-on-media': {
    allows:
      'Anime and manga gain a new attribute (originalLanguage: "ja") when no sparse fieldset is asked: an additive change. The contract does not list attributes.',
    onResponse(res, req) {
      if ([...queryOf(req.path).keys()].some((k) => k.startsWith('fields['))) return res;
      return mapJson(res, (body) => {
        if (!isObj(body)) return body;
        for (const r of resourcesOf(body))
          if ((r.type === 'anime' || r.type === 'manga') && isObj(r.attributes)) r.attributes = { ...r.attributes, originalLanguage: 'ja' };
        return body;
      });
    },
  },
};

const HELD_OUT: BreakSet = {
  store: { breaks: storeBreaks, deviations: storeDeviations },
  media: { breaks: mediaBreaks, deviations: mediaDeviations },
};

export default HELD_OUT;
