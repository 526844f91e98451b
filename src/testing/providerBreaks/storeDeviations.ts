/**
 * Store provider behaviours the contract (../shared/specs/store-commerce-api.md)
 * leaves open: a real store may do any of them. scripts/breaks.ts runs the
 * live-target store suites and the store pact verification through each; every
 * one must stay green (observations are fine). A red run here is a false alarm of
 * the suites or the pacts, not a provider bug.
 */
import type { ProviderDeviation, ProxiedRequest, ProxiedResponse, ProxyMemory } from './breakingProxy.ts';
import { isStoreCollection } from './storeBreaks.ts';
import { headerOf, mapJson, mapLink, pathOnly, queryOf, withHeaders } from './rewrite.ts';

const json = (status: number, body: unknown, res: ProxiedResponse): ProxiedResponse => ({
  status,
  headers: { ...res.headers, 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify(body),
});

const text = (status: number, body: string, contentType: string, res: ProxiedResponse): ProxiedResponse => ({
  status,
  headers: { ...res.headers, 'content-type': contentType },
  body,
});

/** The request header that marks a category create sent on as a read (category-limit-reached). */
const LIMIT_MARK = 'x-provider-deviation-was';

/** A single resource of the store: /products/{id}, /categories/{id}, /webhooks/{id}, ... */
const isSingleResource = (path: string) => /\/v1\/\d+\/[a-z_]+\/[^/]+$/.test(pathOnly(path));

/** Is this answer the invalid-JSON 400 the contract gives a body to ({"error": string})? */
const isInvalidJson400 = (res: ProxiedResponse) => {
  try {
    return typeof (JSON.parse(res.body) as { error?: unknown }).error === 'string';
  } catch {
    return false;
  }
};

/** The key under which a collection's total is remembered: its path and filters, without the page. */
const totalKey = (req: ProxiedRequest) => {
  const query = queryOf(req.path);
  query.delete('page');
  query.delete('per_page');
  query.sort();
  return `total ${pathOnly(req.path)}?${query.toString()}`;
};

/** Answers a page past the last as 200 [] (with the total seen for the collection, and first/last links). */
function pastLastPageEmpty(res: ProxiedResponse, req: ProxiedRequest, memory: ProxyMemory): ProxiedResponse {
  if (!isStoreCollection(req.path) || (req.method !== 'GET' && req.method !== 'HEAD')) return res;
  const total = headerOf(res, 'x-total-count');
  if (res.status === 200 && total !== undefined) memory.set(totalKey(req), total);
  const last = res.status === 404 ? /Last page is (\d+)/.exec(res.body)?.[1] : undefined;
  if (last === undefined) return res;
  const lastPage = Number(last);
  const known = lastPage === 0 ? '0' : memory.get(totalKey(req));
  const perPage = queryOf(req.path).get('per_page') ?? '30';
  const url = (page: number) => `http://${req.headers.host}${pathOnly(req.path)}?page=${page}&per_page=${perPage}`;
  const link = lastPage > 0 ? `<${url(1)}>; rel="first", <${url(lastPage)}>; rel="last"` : undefined;
  return {
    status: 200,
    headers: { ...res.headers, 'content-type': 'application/json; charset=utf-8', 'x-total-count': known, link },
    body: '[]',
  };
}

/**
 * An answer of the Store API, not of the install flow's endpoints (/apps/...): there OAuth 2 fixes what the Store API
 * leaves open (RFC 6749 5.2: errors 400, or 401 invalid_client, as JSON with an error code; 5.1: no-store), so the
 * deviations about the API's error statuses, bodies and headers do not apply to them.
 */
const isApiAnswer = (req: ProxiedRequest) => !pathOnly(req.path).startsWith('/apps/');

/** Fields a real product or category may carry beyond the ones the harness knows. */
const EXTRA_FIELDS = { external_id: null, sort_order: 0, metafields: [] };

export const STORE_DEVIATIONS: Record<string, ProviderDeviation> = {
  'not-found-other-body': {
    allows: 'a missing resource answers 404 with another body: "Responses for missing resources: not shown"',
    onResponse: (res, req) => (res.status === 404 && isSingleResource(req.path) ? json(404, { message: 'Not found', status: 404 }, res) : res),
  },
  'unauthorized-other-body': {
    allows: 'a missing or wrong token answers 401 with an OAuth-style body: "Responses for failed or insufficient authorization: not shown"',
    onResponse: (res, req) =>
      res.status === 401 && isApiAnswer(req) ? json(401, { error: 'invalid_token', error_description: 'The access token is invalid' }, res) : res,
  },
  'wrong-token-403': {
    allows: 'a missing or wrong token answers 403, not 401: the status of failed authorization is not shown',
    onResponse: (res, req) =>
      res.status === 401 && isApiAnswer(req) ? json(403, { code: 403, message: 'Forbidden', description: 'Invalid access token' }, res) : res,
  },
  'per-page-over-200-400': {
    allows: 'per_page over 200 is refused with 400: "Behaviour when per_page exceeds 200: not shown"',
    onResponse: (res, req) =>
      Number(queryOf(req.path).get('per_page')) > 200
        ? json(400, { code: 400, message: 'Bad Request', description: 'per_page must be 200 or less' }, res)
        : res,
  },
  'per-page-over-200-422': {
    allows: 'per_page over 200 is refused with 422 naming the parameter: "Behaviour when per_page exceeds 200: not shown"',
    onResponse: (res, req) => (Number(queryOf(req.path).get('per_page')) > 200 ? json(422, { per_page: ['must be less than or equal to 200'] }, res) : res),
  },
  'past-last-page-200-empty': {
    allows: 'a page past the last (or page 1 of an empty collection) answers 200 [], not the observed 404 "Last page is N"',
    onResponse: pastLastPageEmpty,
  },
  'extra-fields': {
    allows: 'products and categories carry fields the harness does not know: "Fields of a product other than name: not shown"',
    onResponse: (res, req) => {
      const path = pathOnly(req.path);
      if (res.status >= 300 || queryOf(req.path).has('fields') || !/\/(products|categories)(\/\d+)?$/.test(path)) return res;
      return mapJson(res, (body) =>
        Array.isArray(body)
          ? body.map((item: unknown) => (item && typeof item === 'object' ? { ...item, ...EXTRA_FIELDS } : item))
          : body && typeof body === 'object' && 'id' in body
            ? { ...body, ...EXTRA_FIELDS }
            : body,
      );
    },
  },
  'create-200': {
    allows: 'a successful create answers 200, not 201: "Status code and body returned by a successful create: not shown"',
    onResponse: (res, req) => (req.method === 'POST' && res.status === 201 ? { ...res, status: 200 } : res),
  },
  'put-replaces-omitted-members': {
    allows:
      'a PUT replaces the resource: a member it was not sent goes back to its empty value (description "", a category\'s parent null), where the field notes\' service keeps it. Methods: PUT "replace a resource"',
    onRequest: (req) => {
      if (req.method !== 'PUT' || req.body.length === 0 || !/\/v1\/\d+\/(products|categories)\/\d+$/.test(pathOnly(req.path))) return req;
      try {
        const body = JSON.parse(req.body.toString('utf8')) as Record<string, unknown>;
        if (body === null || typeof body !== 'object' || Array.isArray(body)) return req;
        body.description ??= '';
        if (/\/categories\//.test(req.path)) body.parent ??= null;
        return { ...req, body: Buffer.from(JSON.stringify(body)) };
      } catch {
        return req;
      }
    },
  },
  'delete-204': {
    allows: 'a successful delete answers 204 without a body, not 200 {}: DELETE "delete a resource", status not shown',
    onResponse: (res, req) =>
      req.method === 'DELETE' && res.status === 200 ? { ...res, status: 204, body: '', headers: { ...res.headers, 'content-type': undefined } } : res,
  },
  'bad-request-text-body': {
    allows: 'a 400 other than invalid JSON answers with a text body: its body is "not specified in the interface"',
    onResponse: (res, req) =>
      res.status === 400 && !isInvalidJson400(res) && isApiAnswer(req) ? text(400, 'Bad Request', 'text/plain; charset=utf-8', res) : res,
  },
  'too-many-requests-html-body': {
    allows: 'a 429 answers with an HTML body (its rate headers kept): its body is "not specified in the interface"',
    onResponse: (res) =>
      res.status === 429
        ? text(429, '<html><head><title>429 Too Many Requests</title></head><body><h1>Too Many Requests</h1></body></html>', 'text/html', res)
        : res,
  },
  'link-without-prev-first': {
    allows: 'Link offers only next and last: a client follows the Link URLs it is given',
    onResponse: (res) => mapLink(res, (entries) => entries.filter((e) => e.rel !== 'prev' && e.rel !== 'first')),
  },
  'link-entries-reordered': {
    allows: 'Link lists its entries in another order (last first)',
    onResponse: (res) => mapLink(res, (entries) => [...entries].reverse()),
  },
  'link-without-spaces': {
    allows:
      'Link spelt without whitespace, <url>;rel="next",<url>;rel="last": RFC 8288 makes the whitespace around "," and ";" optional, and the contract fixes no spelling',
    onResponse: (res) => mapLink(res, (entries) => entries, { entry: (e) => `<${e.url}>;rel="${e.rel}"`, separator: ',' }),
  },
  'link-spaced-out': {
    allows: 'Link spelt with whitespace before ";" and ",", <url> ; rel="next" , <url> ; rel="last": optional whitespace RFC 8288 allows there',
    onResponse: (res) => mapLink(res, (entries) => entries, { entry: (e) => `<${e.url}> ; rel="${e.rel}"`, separator: ' , ' }),
  },
  'text-plain-400-not-415': {
    allows: "a body sent as text/plain answers 400, not 415: the contract's 415 is for a missing Content-Type only",
    onResponse: (res, req) =>
      res.status === 415 && /^text\/plain/i.test(String(req.headers['content-type'] ?? ''))
        ? json(400, { code: 400, message: 'Bad Request', description: 'Content-Type should be application/json' }, res)
        : res,
  },
  'token-invalid-client-400': {
    allows:
      'the token endpoint answers a failed client authentication 400 invalid_client, without WWW-Authenticate: RFC 6749 5.2 says it MAY answer 401, and 400 otherwise',
    onResponse: (res, req) =>
      pathOnly(req.path) === '/apps/authorize/token' && res.status === 401
        ? { ...res, status: 400, headers: { ...res.headers, 'www-authenticate': undefined } }
        : res,
  },
  'extra-response-headers': {
    allows: 'answers carry headers the contract does not name (X-Request-Id, Cache-Control, Vary) and JSON without a charset',
    onResponse: (res, req) =>
      !isApiAnswer(req)
        ? res
        : withHeaders(res, {
            'x-request-id': 'f3b1c2d4-0000-4000-8000-000000000000',
            'cache-control': 'no-cache',
            vary: 'Accept-Encoding',
            ...(/^application\/json/.test(headerOf(res, 'content-type') ?? '') ? { 'content-type': 'application/json' } : {}),
          }),
  },
  'category-limit-reached': {
    allows:
      'the sandbox is at its category limit: a category create is refused with 422 {"code":422,"message":"Unprocessable Entity","description":"Store has reached maximum limit of 5000 allowed categories"}, as the field notes quote; what needs a new category is not verified, and nothing is red',
    // Sent on as a read of the collection, so nothing is created; its answer becomes the refusal.
    onRequest: (req) =>
      req.method === 'POST' && /\/v1\/\d+\/categories$/.test(pathOnly(req.path))
        ? { ...req, method: 'GET', body: Buffer.alloc(0), headers: { ...req.headers, [LIMIT_MARK]: 'POST' } }
        : req,
    onResponse: (res, req) =>
      req.headers[LIMIT_MARK] === 'POST'
        ? json(422, { code: 422, message: 'Unprocessable Entity', description: 'Store has reached maximum limit of 5000 allowed categories' }, res)
        : res,
  },
};
