/**
 * Single observable breaks of the Media contract (../shared/specs/media-tracking-api.md)
 * and of what the typed clients and the pacts rely on, each naming the rules it
 * breaks. scripts/breaks.ts runs the live-target media suites (and the media
 * pact verification) against each and expects a test of one of those rules to
 * go red. Not listed: breaks the field notes say the real service already has
 * (deprecated relationships without a marker, the search-keys and
 * recommendations routes): those are observations on live by design. What the
 * contract leaves open is in mediaDeviations.ts instead.
 */
import { request as httpRequest } from '../../http/nodeHttp.ts';
import type { ProviderBreak, ProxiedRequest, ProxiedResponse, ProxyContext } from './breakingProxy.ts';
import { pathOnly, queryOf, withQuery } from './rewrite.ts';
import { MEDIA_SEED } from '../../twins/media/seedFacts.ts';

export type MediaBreak = ProviderBreak<'media'>;

/** The request with its JSON:API document's `data` changed in place by `fn`; unchanged when the body is not such a document. */
function mapRequestData(req: ProxiedRequest, fn: (data: Record<string, unknown> & { attributes?: Record<string, unknown> }) => void): ProxiedRequest {
  try {
    const doc = JSON.parse(req.body.toString('utf8')) as { data?: unknown };
    if (!doc?.data || typeof doc.data !== 'object' || Array.isArray(doc.data)) return req;
    fn(doc.data as Record<string, unknown>);
    return { ...req, body: Buffer.from(JSON.stringify(doc)) };
  } catch {
    return req;
  }
}

/** A write of one library entry (not `_bulk`): PATCH or PUT /library-entries/{id}. */
const isEntryUpdate = (req: ProxiedRequest) =>
  (req.method === 'PATCH' || req.method === 'PUT') && /^\/api\/edge\/library-entries\/\d+$/.test(pathOnly(req.path));

/** Marks a request for the break's onResponse (the proxy passes the rewritten request on). */
const WAS = 'x-provider-break-was';

/** Sends a request again through the proxy it came to (its Host), marked so the break lets it pass: a provider writing more than asked. */
function sendAgain(req: ProxiedRequest): void {
  const [hostname, port] = String(req.headers.host ?? '').split(':');
  const { 'transfer-encoding': _chunks, 'content-length': _length, ...headers } = req.headers;
  const again = httpRequest(
    { hostname, port, method: req.method, path: req.path, headers: { ...headers, [WAS]: 'again', 'content-length': String(req.body.length) } },
    (answer) => answer.resume(),
  );
  again.on('error', () => undefined);
  again.end(req.body);
}

export type JsonApiDoc = Record<string, unknown> & { data?: unknown; included?: unknown; meta?: Record<string, unknown>; links?: Record<string, unknown> };

/** The answer with its JSON:API document changed in place by `fn`; unchanged when the body is not JSON. */
export function mapDocument(res: ProxiedResponse, fn: (doc: JsonApiDoc) => void): ProxiedResponse {
  try {
    const doc = JSON.parse(res.body) as JsonApiDoc;
    if (doc === null || typeof doc !== 'object') return res;
    fn(doc);
    return { ...res, body: JSON.stringify(doc) };
  } catch {
    return res;
  }
}

export type Resource = { id?: unknown; type?: string; attributes?: Record<string, unknown>; relationships?: Record<string, { data?: unknown }> };

/** The primary and included resources of a document. */
export function resources(doc: JsonApiDoc): Resource[] {
  const data = doc.data;
  const primary = Array.isArray(data) ? data : data && typeof data === 'object' ? [data] : [];
  return [...(primary as Resource[]), ...((doc.included as Resource[] | undefined) ?? [])];
}

/** A collection document: data is an array and meta.count says how many in all. */
/** The answer replaced by `instead` where it is a 200 JSON:API document for which `when` holds; else as it is. */
function mapDocumentOr(
  res: ProxiedResponse,
  req: ProxiedRequest,
  when: (doc: JsonApiDoc) => boolean,
  instead: { status: number; body: unknown },
): ProxiedResponse {
  if (req.method !== 'GET' || res.status !== 200) return res;
  let doc: JsonApiDoc;
  try {
    doc = JSON.parse(res.body) as JsonApiDoc;
  } catch {
    return res;
  }
  return when(doc) ? { ...res, status: instead.status, body: JSON.stringify(instead.body) } : res;
}

const isCollection = (doc: JsonApiDoc) => Array.isArray(doc.data) && typeof doc.meta?.count === 'number';

/** Replays anonymous requests as a signed-in user who allows adult content: adult media leak. */
function asSignedIn(req: ProxiedRequest, ctx: ProxyContext): ProxiedRequest {
  return req.headers.authorization || !ctx.signedInToken ? req : { ...req, headers: { ...req.headers, authorization: `Bearer ${ctx.signedInToken}` } };
}

/** The request without the query parameters `drop` picks. */
const withoutParams = (req: ProxiedRequest, drop: (name: string) => boolean) =>
  withQuery(req, (q) => {
    for (const name of [...q.keys()]) if (drop(name)) q.delete(name);
  });

/** A request whose query names a filter (filter[...]=...). */
const namesFilter = (req: ProxiedRequest) => [...queryOf(req.path).keys()].some((name) => name.startsWith('filter['));

/** `…/{type}/{id}…` with the id after `segment` one more: a link of the neighbouring resource. */
const neighbourOf = (url: string, segment: RegExp) => url.replace(segment, (_, head: string, id: string) => `${head}${Number(id) + 1}`);

/** The links of each relationship of the primary and included resources, changed by `fn`. */
function mapRelationshipLinks(res: ProxiedResponse, fn: (links: Record<string, unknown>) => void): ProxiedResponse {
  return mapDocument(res, (doc) => {
    for (const r of resources(doc)) {
      for (const rel of Object.values(r.relationships ?? {}) as { links?: Record<string, unknown> }[]) if (rel.links) fn(rel.links);
    }
  });
}

/** Sort keys of the seed's anime and manga (ASSUMPTIONS.md, sort): only a sort of these is taken off, so an unknown key still answers 400. */
const SORTABLE = new Set('id averageRating userCount favoritesCount popularityRank ratingRank startDate endDate createdAt updatedAt'.split(' '));

/** The header that carries the sort a break took off the request on to its answer (the proxy forwards it; the twin ignores it). */
const SORT_WITHIN_PAGE = 'x-harness-sort-within-page';

/** A comparator of resources by `sort=a,-b` as a server orders them: numbers (and decimal strings) as numbers, nulls last, ties kept. */
function byCriteria(sort: string): (a: Resource, b: Resource) => number {
  const keys = sort.split(',').map((key) => ({ name: key.replace(/^-/, ''), descending: key.startsWith('-') }));
  const valueOf = (r: Resource, name: string): unknown => (name === 'id' ? Number(r.id) : r.attributes?.[name]);
  return (a, b) => {
    for (const { name, descending } of keys) {
      const [x, y] = [valueOf(a, name), valueOf(b, name)];
      if (x === null || x === undefined || y === null || y === undefined) {
        if ((x === null || x === undefined) !== (y === null || y === undefined)) return x === null || x === undefined ? 1 : -1;
        continue;
      }
      const numeric = Number.isFinite(Number(x)) && Number.isFinite(Number(y));
      const order = numeric ? Number(x) - Number(y) : String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0;
      if (order !== 0) return descending ? -order : order;
    }
    return 0;
  };
}

const ROUTE_NOT_FOUND = '{"errors":[{"status":404,"title":"Route Not Found"}]}';

export const MEDIA_BREAKS: Record<string, MediaBreak> = {
  // JSON:API documents
  'numeric-ids': {
    breaks: 'resource ids are numbers',
    kind: 'contract',
    rules: ['media.jsonapi.string-ids'],
    onResponse: (res) =>
      mapDocument(res, (doc) => {
        for (const r of resources(doc)) if (typeof r.id === 'string' && /^\d+$/.test(r.id)) r.id = Number(r.id);
      }),
  },
  'relationship-ids-numeric': {
    breaks: 'resource ids are strings, but the ids in relationship data are numbers',
    kind: 'contract',
    rules: ['media.jsonapi.string-ids'],
    onResponse: (res) =>
      mapDocument(res, (doc) => {
        for (const r of resources(doc)) {
          for (const rel of Object.values(r.relationships ?? {})) {
            const data = rel.data;
            for (const ref of (Array.isArray(data) ? data : data ? [data] : []) as { id?: unknown }[]) {
              if (typeof ref.id === 'string' && /^\d+$/.test(ref.id)) ref.id = Number(ref.id);
            }
          }
        }
      }),
  },
  'plain-json-media-type': {
    breaks: 'answers are application/json',
    kind: 'contract',
    rules: ['media.jsonapi.media-type'],
    onResponse: (res) => ({ ...res, headers: { ...res.headers, 'content-type': 'application/json; charset=utf-8' } }),
  },
  'errors-plain-json-media-type': {
    breaks: 'error answers (only) are application/json',
    kind: 'contract',
    rules: ['media.jsonapi.media-type'],
    onResponse: (res) => (res.status >= 400 ? { ...res, headers: { ...res.headers, 'content-type': 'application/json; charset=utf-8' } } : res),
  },
  'wrong-type-name': {
    breaks: 'anime come back with type "animes"',
    kind: 'contract',
    rules: ['media.jsonapi.resource-object'],
    onResponse: (res) => ({ ...res, body: res.body.replace(/"type":"anime"/g, '"type":"animes"') }),
  },
  'single-result-collection-as-object': {
    breaks: 'a collection of one resource answers data as an object, not an array',
    kind: 'contract',
    rules: ['media.jsonapi.document-structure', 'media.jsonapi.filters'],
    onResponse: (res) =>
      mapDocument(res, (doc) => {
        if (Array.isArray(doc.data) && doc.data.length === 1) doc.data = doc.data[0];
      }),
  },
  'snake-case-attributes': {
    breaks: 'attribute names are snake_case (canonical_title), which the typed clients do not read',
    kind: 'reliance',
    rules: ['media.jsonapi.camel-case-members'],
    onResponse: (res) =>
      mapDocument(res, (doc) => {
        for (const r of resources(doc)) {
          if (!r.attributes) continue;
          r.attributes = Object.fromEntries(Object.entries(r.attributes).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]));
        }
      }),
  },

  // Query parameters
  'included-dropped': {
    breaks: 'include= adds nothing under included',
    kind: 'contract',
    rules: ['media.jsonapi.included'],
    onResponse: (res) => mapDocument(res, (doc) => void delete doc.included),
  },
  // The two below answer everything the other way round; the harness's own code must meet them with verdicts, never a
  // TypeError of its own (scripts/robustnessCheck.ts runs them).
  'lists-answered-as-errors': {
    breaks: 'every collection is answered 400 with a JSON:API error document instead of its data array',
    kind: 'contract',
    rules: ['media.jsonapi.document-structure'],
    onResponse: (res, req) =>
      mapDocumentOr(res, req, (doc) => Array.isArray(doc.data), {
        status: 400,
        body: { errors: [{ status: '400', title: 'Lists are not served today' }] },
      }),
  },
  'errors-answered-as-lists': {
    breaks: 'every error is answered 200 with an empty collection instead of its status and error document',
    kind: 'contract',
    rules: ['media.errors.jsonapi-errors', 'media.errors.hidden-404'],
    onResponse: (res) =>
      res.status >= 400 && res.status !== 429
        ? {
            ...res,
            status: 200,
            headers: { ...res.headers, 'content-type': 'application/vnd.api+json' },
            body: JSON.stringify({ data: [], meta: { count: 0 }, links: {} }),
          }
        : res,
  },
  'unsupported-query-answered-200': {
    breaks: 'an include path or a sort the server does not have is answered 200 with an empty collection, not 400',
    kind: 'contract',
    rules: ['media.jsonapi.unsupported-query-400'],
    onResponse: (res, req) => {
      const query = queryOf(req.path);
      if (res.status !== 400 || (!query.has('include') && !query.has('sort'))) return res;
      return { ...res, status: 200, body: JSON.stringify({ data: [], meta: { count: 0 }, links: {} }) };
    },
  },
  'include-ignored': {
    breaks: 'include= is ignored: no included, no relationship data',
    kind: 'contract',
    rules: ['media.jsonapi.included'],
    onRequest: (req) => withoutParams(req, (name) => name === 'include'),
  },
  'included-twice': {
    breaks: 'a compound document includes a resource twice: the first of included comes again at its end',
    kind: 'contract',
    rules: ['media.jsonapi.included-unique'],
    onResponse: (res) =>
      mapDocument(res, (doc) => {
        if (Array.isArray(doc.included) && doc.included.length > 0) doc.included.push(structuredClone(doc.included[0]));
      }),
  },
  'included-attributes-of-a-neighbour': {
    breaks: "in a compound document, the first two included resources of a type carry each other's attributes",
    kind: 'contract',
    rules: ['media.jsonapi.show-identity'],
    onResponse: (res) =>
      mapDocument(res, (doc) => {
        if (!Array.isArray(doc.included)) return;
        const byType = Map.groupBy(doc.included as { type?: unknown; attributes?: unknown }[], (r) => String(r.type));
        for (const [first, second] of byType.values()) {
          if (first && second) [first.attributes, second.attributes] = [second.attributes, first.attributes];
        }
      }),
  },
  'fields-ignored': {
    breaks: 'fields[type]= is ignored: every attribute comes back',
    kind: 'contract',
    rules: ['media.jsonapi.sparse-fields'],
    onRequest: (req) => withoutParams(req, (name) => name.startsWith('fields[')),
  },
  'filter-ignored': {
    breaks: 'filter[...] is ignored: the whole collection comes back (library entries, which need a filter, excepted)',
    kind: 'contract',
    rules: ['media.jsonapi.filters'],
    onRequest: (req) => (/\/library-entries/.test(pathOnly(req.path)) ? req : withoutParams(req, (name) => name.startsWith('filter['))),
  },
  'sort-ignored': {
    breaks: 'sort= is ignored',
    kind: 'contract',
    rules: ['media.jsonapi.sort'],
    onRequest: (req) => withoutParams(req, (name) => name === 'sort'),
  },
  'page-offset-ignored': {
    breaks: 'page[offset] is ignored: every page is the first',
    kind: 'reliance',
    rules: ['media.pagination.offset', 'media.pagination.follow-next'],
    onRequest: (req) => withoutParams(req, (name) => name === 'page[offset]'),
  },

  // Pagination
  'links-next-missing': {
    breaks: 'a collection that has more carries no links.next',
    kind: 'reliance',
    rules: ['media.pagination.follow-next', 'media.pagination.links'],
    onResponse: (res) => mapDocument(res, (doc) => void (isCollection(doc) && doc.links && delete doc.links.next)),
  },
  'links-next-missing-after-first-page': {
    breaks: 'pages after the first carry no links.next: the client stops after page 2',
    kind: 'reliance',
    rules: ['media.pagination.follow-next', 'media.pagination.links'],
    onResponse: (res, req) =>
      Number(queryOf(req.path).get('page[offset]') ?? 0) > 0 ? mapDocument(res, (doc) => void (isCollection(doc) && doc.links && delete doc.links.next)) : res,
  },
  'links-first-last-missing': {
    breaks: 'collections carry links.next and prev only, no first or last',
    kind: 'reliance',
    rules: ['media.pagination.first-last', 'media.pagination.links'],
    onResponse: (res) =>
      mapDocument(res, (doc) => {
        if (!isCollection(doc) || !doc.links) return;
        delete doc.links.first;
        delete doc.links.last;
      }),
  },
  'meta-count-off-by-one': {
    breaks: 'meta.count is one more than the collection',
    kind: 'reliance',
    rules: ['media.pagination.meta-count', 'media.pagination.follow-next', 'media.visibility.adult-hidden-from-lists'],
    onResponse: (res) =>
      mapDocument(res, (doc) => {
        if (isCollection(doc)) doc.meta!.count = (doc.meta!.count as number) + 1;
      }),
  },
  'meta-count-of-the-page': {
    breaks: 'meta.count counts the resources of the page, not the collection',
    kind: 'reliance',
    rules: ['media.pagination.meta-count', 'media.pagination.follow-next'],
    onResponse: (res) =>
      mapDocument(res, (doc) => {
        if (isCollection(doc)) doc.meta!.count = (doc.data as unknown[]).length;
      }),
  },
  'meta-count-missing': {
    breaks: 'collections carry no meta.count',
    kind: 'reliance',
    rules: ['media.pagination.meta-count'],
    onResponse: (res) =>
      mapDocument(res, (doc) => {
        if (isCollection(doc)) delete doc.meta!.count;
      }),
  },

  // Errors
  'errors-not-jsonapi': {
    breaks: 'errors are {"message": ...}',
    kind: 'contract',
    rules: ['media.errors.jsonapi-errors'],
    onResponse: (res) => (res.status >= 400 ? { ...res, body: '{"message":"something went wrong"}' } : res),
  },
  'errors-not-an-array': {
    breaks: 'errors is one error object, not an array of them',
    kind: 'contract',
    rules: ['media.errors.jsonapi-errors'],
    onResponse: (res) =>
      res.status >= 400
        ? mapDocument(res, (doc) => {
            if (Array.isArray(doc.errors)) doc.errors = doc.errors[0];
          })
        : res,
  },
  'errors-array-of-strings': {
    breaks: 'errors is an array of strings (the titles), not of error objects',
    kind: 'contract',
    rules: ['media.errors.jsonapi-errors'],
    onResponse: (res) =>
      res.status >= 400
        ? mapDocument(res, (doc) => {
            if (Array.isArray(doc.errors)) doc.errors = (doc.errors as { title?: string }[]).map((e) => e.title ?? 'error');
          })
        : res,
  },
  'errors-with-data': {
    breaks: 'error documents also carry "data": null',
    kind: 'contract',
    rules: ['media.jsonapi.document-structure', 'media.errors.jsonapi-errors'],
    onResponse: (res) => (res.status >= 400 ? mapDocument(res, (doc) => void (doc.errors && (doc.data = null))) : res),
  },
  'missing-record-200': {
    breaks: 'a missing record answers 200 {"data":null}',
    kind: 'contract',
    rules: ['media.errors.hidden-404'],
    onResponse: (res) => (res.status === 404 && /Record not found/.test(res.body) ? { ...res, status: 200, body: '{"data":null}' } : res),
  },
  'missing-record-410': {
    breaks: 'a missing record answers 410 Gone',
    kind: 'contract',
    rules: ['media.errors.hidden-404'],
    onResponse: (res) => (res.status === 404 && /Record not found/.test(res.body) ? { ...res, status: 410 } : res),
  },

  // Meaning: a well-formed answer that says the wrong thing
  'show-answers-the-neighbour': {
    breaks: 'GET /anime/{id} answers the next anime (its own id and attributes): a well-formed document of another resource',
    kind: 'contract',
    rules: ['media.jsonapi.show-identity'],
    onRequest: (req) =>
      req.method === 'GET' && /^\/api\/edge\/anime\/[1-9]\d*$/.test(pathOnly(req.path))
        ? { ...req, path: neighbourOf(req.path, /^(\/api\/edge\/anime\/)(\d+)/) }
        : req,
  },
  'self-links-of-the-neighbour': {
    breaks: "each resource's links.self names the next id of its type",
    kind: 'contract',
    rules: ['media.jsonapi.self-links'],
    onResponse: (res) =>
      mapDocument(res, (doc) => {
        for (const r of resources(doc) as (Resource & { links?: Record<string, unknown> })[]) {
          const self = r.links?.['self'];
          if (typeof self === 'string') r.links!['self'] = neighbourOf(self, /^(.*\/)(\d+)$/);
        }
      }),
  },
  'relationship-self-of-the-neighbour': {
    breaks: "a relationship's links.self names that relationship of the next resource",
    kind: 'contract',
    rules: ['media.relationships.self-link'],
    onResponse: (res) =>
      mapRelationshipLinks(res, (links) => {
        if (typeof links['self'] === 'string') links['self'] = neighbourOf(links['self'], /^(.*\/)(\d+)(?=\/relationships\/)/);
      }),
  },
  'related-links-to-the-whole-collection': {
    breaks: "a relationship's links.related leads to the whole collection of that name (/categories), not the related resources of this one",
    kind: 'contract',
    rules: ['media.relationships.related-link'],
    onResponse: (res) =>
      mapRelationshipLinks(res, (links) => {
        if (typeof links['related'] === 'string') links['related'] = links['related'].replace(/\/api\/edge\/[^/]+\/\d+\/([^/?]+)$/, '/api/edge/$1');
      }),
  },
  'included-unnamed-resource': {
    breaks: 'included carries one more resource that no relationship of the document names',
    kind: 'contract',
    rules: ['media.jsonapi.full-linkage'],
    onResponse: (res) =>
      mapDocument(res, (doc) => {
        if (!Array.isArray(doc.included) || doc.included.length === 0) return;
        const extra = structuredClone(doc.included[0]) as Resource;
        extra.id = `${String(extra.id)}0000`;
        doc.included.push(extra);
      }),
  },
  'error-status-500': {
    breaks: 'every error object says status "500", whatever the HTTP status',
    kind: 'contract',
    rules: ['media.errors.status-agrees'],
    onResponse: (res) =>
      res.status >= 400
        ? mapDocument(res, (doc) => {
            if (Array.isArray(doc.errors)) for (const e of doc.errors as Record<string, unknown>[]) if (e['status'] !== undefined) e['status'] = '500';
          })
        : res,
  },
  'pagination-links-drop-the-filter': {
    breaks: "collection links (first, prev, next, last) leave the request's filter out: they lead to pages of the whole collection",
    kind: 'contract',
    rules: ['media.pagination.same-listing'],
    onResponse: (res) =>
      mapDocument(res, (doc) => {
        if (!isCollection(doc) || !doc.links) return;
        for (const [name, link] of Object.entries(doc.links)) {
          if (typeof link !== 'string') continue;
          const url = new URL(link);
          for (const key of [...url.searchParams.keys()]) if (key.startsWith('filter[')) url.searchParams.delete(key);
          doc.links[name] = url.href;
        }
      }),
  },
  'sort-within-page-only': {
    breaks:
      'sort orders each page, not the collection: the window is cut from the unsorted collection and only its resources are sorted, so every page is in order but a page can start before the previous one ended (the links keep the sort)',
    kind: 'contract',
    rules: ['media.pagination.same-listing', 'media.jsonapi.sort'],
    onRequest: (req) => {
      const sort = queryOf(req.path).get('sort');
      if (!sort || !sort.split(',').every((key) => SORTABLE.has(key.replace(/^-/, '')))) return req;
      const unsorted = withoutParams(req, (name) => name === 'sort');
      return { ...unsorted, headers: { ...unsorted.headers, [SORT_WITHIN_PAGE]: sort } };
    },
    onResponse: (res, req) => {
      const sort = req.headers[SORT_WITHIN_PAGE];
      if (typeof sort !== 'string') return res;
      return mapDocument(res, (doc) => {
        if (!isCollection(doc) || !doc.links) return;
        (doc.data as Resource[]).sort(byCriteria(sort));
        for (const [name, link] of Object.entries(doc.links)) {
          if (typeof link !== 'string') continue;
          const url = new URL(link);
          url.searchParams.set('sort', sort);
          doc.links[name] = url.href;
        }
      });
    },
  },
  'sort-ignored-with-a-filter': {
    breaks: 'sort= is honoured alone but ignored beside a filter',
    kind: 'reliance',
    rules: ['media.jsonapi.parameters-combined'],
    onRequest: (req) => (namesFilter(req) ? withoutParams(req, (name) => name === 'sort') : req),
  },
  'offset-ignored-with-a-filter': {
    breaks: 'page[offset] is honoured alone but ignored beside a filter (filter[text] included): every filtered page is the first',
    kind: 'reliance',
    rules: ['media.jsonapi.parameters-combined'],
    onRequest: (req) => (namesFilter(req) && !/\/library-entries/.test(pathOnly(req.path)) ? withoutParams(req, (name) => name === 'page[offset]') : req),
  },
  'fields-ignored-with-include': {
    breaks: 'fields[type]= is honoured alone but ignored beside include',
    kind: 'reliance',
    rules: ['media.jsonapi.parameters-combined'],
    onRequest: (req) => (queryOf(req.path).has('include') ? withoutParams(req, (name) => name.startsWith('fields[')) : req),
  },
  'update-answered-204': {
    breaks: 'an update of a library entry is applied but answered 204 with no document, which MediaClient.update cannot return',
    kind: 'reliance',
    rules: ['media.writes.answer-is-resource'],
    onResponse: (res, req) =>
      (req.method === 'PATCH' || req.method === 'PUT') && /^\/api\/edge\/library-entries\/\d+$/.test(pathOnly(req.path)) && res.status === 200
        ? { ...res, status: 204, headers: { ...res.headers, 'content-type': undefined }, body: '' }
        : res,
  },
  'content-type-parameters-accepted': {
    breaks: 'a write whose Content-Type carries a media type parameter is carried out, as if the parameter were not there',
    kind: 'contract',
    rules: ['media.jsonapi.content-type-parameters-415'],
    onRequest: (req) => {
      const type = String(req.headers['content-type'] ?? '');
      return /^application\/vnd\.api\+json\s*;/i.test(type) ? { ...req, headers: { ...req.headers, 'content-type': 'application/vnd.api+json' } } : req;
    },
  },
  'accept-parameters-accepted': {
    breaks: 'an Accept naming the JSON:API media type only with a media type parameter is served',
    kind: 'contract',
    rules: ['media.jsonapi.accept-parameters-406'],
    onRequest: (req) => {
      const accept = String(req.headers.accept ?? '');
      return /^application\/vnd\.api\+json\s*;/i.test(accept) ? { ...req, headers: { ...req.headers, accept: 'application/vnd.api+json' } } : req;
    },
  },

  // Writes
  'update-not-applied': {
    breaks: 'PATCH /library-entries/{id} answers 200 with the entry unchanged: the update is not applied',
    kind: 'contract',
    rules: ['media.writes.update-applied'],
    // The PATCH reaches the twin as a GET of the entry: the answer is the entry as it was.
    onRequest: (req) =>
      req.method === 'PATCH' && /^\/api\/edge\/library-entries\/\d+$/.test(pathOnly(req.path)) ? { ...req, method: 'GET', body: Buffer.alloc(0) } : req,
  },
  // Writes that do more or other than asked (media.writes.*: suites/media/writes.spec.ts).
  'partial-update-clears-omitted': {
    breaks: 'PATCH and PUT of a library entry read the attributes they leave out as null: notes and ratingTwenty not sent are cleared',
    kind: 'contract',
    rules: ['media.writes.update-keeps-the-rest'],
    onRequest: (req) =>
      isEntryUpdate(req)
        ? mapRequestData(req, (data) => {
            const attributes = (data.attributes ??= {});
            for (const name of ['notes', 'ratingTwenty']) if (!(name in attributes)) attributes[name] = null;
          })
        : req,
  },
  'bulk-applies-to-first-id-only': {
    breaks: 'PATCH /library-entries/_bulk?filter[id]=a,b applies its change to the first id only (and answers that one)',
    kind: 'reliance',
    rules: ['media.writes.bulk-applies-to-named'],
    onRequest: (req) =>
      /^\/api\/edge\/library-entries\/_bulk$/.test(pathOnly(req.path)) && req.method !== 'DELETE'
        ? withQuery(req, (q) => {
            const ids = q.get('filter[id]');
            if (ids?.includes(',')) q.set('filter[id]', ids.split(',')[0]!);
          })
        : req,
  },
  'create-makes-two': {
    breaks: 'a library entry created for an anime is created a second time, for a manga (a new one each time, from the last down): one create, two entries',
    kind: 'contract',
    rules: ['media.writes.create-adds-one'],
    onRequest: (req, _ctx, memory) => {
      if (req.method !== 'POST' || pathOnly(req.path) !== '/api/edge/library-entries' || req.headers[WAS] === 'again') return req;
      // A manga the library does not hold yet, each time another: a second entry for the same one would be refused.
      const manga = Number(memory.get('create-makes-two manga') ?? MEDIA_SEED.mangaCount);
      memory.set('create-makes-two manga', String(manga > 1 ? manga - 1 : MEDIA_SEED.mangaCount));
      let forManga = false;
      const second = mapRequestData(req, (data) => {
        const relationships = data.relationships as Record<string, { data?: { type?: string; id?: string } }> | undefined;
        const anime = relationships?.['anime']?.data;
        if (!relationships || anime?.type !== 'anime') return;
        delete relationships['anime'];
        relationships['manga'] = { data: { type: 'manga', id: String(manga) } };
        forManga = true;
      });
      if (forManga) sendAgain(second);
      return req;
    },
  },
  'create-relationship-to-another-resource': {
    breaks: 'a library entry created for an anime is stored for the manga of the same id: its relationships name another resource than the one posted',
    kind: 'contract',
    rules: ['media.writes.create-linkage-as-sent'],
    onRequest: (req) =>
      req.method === 'POST' && pathOnly(req.path) === '/api/edge/library-entries'
        ? mapRequestData(req, (data) => {
            const relationships = data.relationships as Record<string, { data?: { type?: string; id?: string } }> | undefined;
            const anime = relationships?.['anime']?.data;
            if (!relationships || anime?.type !== 'anime') return;
            delete relationships['anime'];
            relationships['manga'] = { data: { type: 'manga', id: anime.id } };
          })
        : req,
  },
  'refused-write-applied': {
    breaks: 'a write sent as application/json is answered 415, and applied all the same (the proxy forwards it as application/vnd.api+json)',
    kind: 'contract',
    rules: ['media.writes.refused-changes-nothing'],
    onRequest: (req) =>
      ['POST', 'PATCH', 'PUT'].includes(req.method) && req.path.startsWith('/api/edge/') && /^application\/json/.test(String(req.headers['content-type'] ?? ''))
        ? { ...req, headers: { ...req.headers, 'content-type': 'application/vnd.api+json', [WAS]: '415' } }
        : req,
    onResponse: (res, req) =>
      req.headers[WAS] === '415'
        ? {
            status: 415,
            headers: { ...res.headers, 'content-type': 'application/vnd.api+json', location: undefined },
            body: JSON.stringify({ errors: [{ status: '415', title: 'Unsupported Media Type', detail: 'Send application/vnd.api+json' }] }),
          }
        : res,
  },
  'invalid-update-partly-applied': {
    breaks: 'an update with an invalid status is answered 422, and its valid attributes applied all the same',
    kind: 'contract',
    rules: ['media.writes.refused-changes-nothing'],
    onRequest: (req) => {
      if (!isEntryUpdate(req)) return req;
      let invalid = false;
      const applied = mapRequestData(req, (data) => {
        const status = data.attributes?.['status'];
        if (typeof status === 'string' && !['current', 'planned', 'completed', 'on_hold', 'dropped'].includes(status)) {
          delete data.attributes!['status'];
          invalid = true;
        }
      });
      return invalid ? { ...applied, headers: { ...applied.headers, [WAS]: '422' } } : req;
    },
    onResponse: (res, req) =>
      req.headers[WAS] === '422'
        ? {
            status: 422,
            headers: { ...res.headers, 'content-type': 'application/vnd.api+json' },
            body: JSON.stringify({
              errors: [
                {
                  title: 'is not included in the list',
                  detail: 'status - is not included in the list',
                  code: '100',
                  source: { pointer: '/data/attributes/status' },
                  status: '422',
                },
              ],
            }),
          }
        : res,
  },

  // Visibility and authentication
  'adult-visible-anonymously': {
    breaks: 'adult media are served to anonymous requests',
    kind: 'contract',
    rules: ['media.visibility.adult-direct-404'],
    onRequest: asSignedIn,
  },
  'adult-in-anonymous-lists': {
    breaks: 'anonymous lists of anime and manga include adult titles (and count them)',
    kind: 'contract',
    rules: ['media.visibility.adult-hidden-from-lists'],
    onRequest: (req, ctx) => (req.method === 'GET' && /\/api\/edge\/(anime|manga)$/.test(pathOnly(req.path)) ? asSignedIn(req, ctx) : req),
  },
  'adult-include-not-null': {
    breaks: 'an anonymous library entry includes its adult anime',
    kind: 'contract',
    rules: ['media.visibility.adult-include-null'],
    onRequest: (req, ctx) => (req.path.includes(`/library-entries/${MEDIA_SEED.adultLibraryEntry.id}`) ? asSignedIn(req, ctx) : req),
  },
  'bearer-token-ignored': {
    breaks: 'Authorization: Bearer is ignored: every request is anonymous',
    kind: 'reliance',
    rules: ['media.auth.bearer-token', 'media.visibility.adult-visible-signed-in'],
    onRequest: (req) => {
      if (req.path.startsWith('/api/oauth')) return req;
      const headers = { ...req.headers };
      delete headers.authorization;
      return { ...req, headers };
    },
  },

  // Relationships and routes
  'episodes-relationship-missing': {
    breaks: 'anime lack the episodes relationship',
    kind: 'contract',
    rules: ['media.relationships.table'],
    onResponse: (res) =>
      mapDocument(res, (doc) => {
        for (const r of resources(doc)) if (r.type === 'anime' && r.relationships) delete r.relationships.episodes;
      }),
  },
  'episode-media-is-manga': {
    breaks: "an episode's media points to a manga",
    kind: 'contract',
    rules: ['media.relationships.episode-media'],
    onResponse: (res, req) =>
      req.path.startsWith('/api/edge/episodes')
        ? mapDocument(res, (doc) => {
            for (const r of resources(doc)) {
              const media = r.relationships?.media as { data?: { type?: string } } | undefined;
              if (r.type === 'episodes' && media?.data) media.data.type = 'manga';
            }
          })
        : res,
  },
  'deprecated-relationships-partly-dropped': {
    breaks: 'anime and manga drop the deprecated genres, installments and animeStaff / mangaStaff relationships and keep the others',
    kind: 'contract',
    rules: ['media.relationships.deprecated-marked'],
    onResponse: (res) =>
      mapDocument(res, (doc) => {
        for (const r of resources(doc)) {
          if ((r.type !== 'anime' && r.type !== 'manga') || !r.relationships) continue;
          for (const name of ['genres', 'installments', 'animeStaff', 'mangaStaff']) delete r.relationships[name];
        }
      }),
  },
  'embeds-route-removed': {
    breaks: 'POST /embeds is not served',
    kind: 'contract',
    rules: ['media.routes.special'],
    onResponse: (res, req) => (req.path.startsWith('/api/edge/embeds') ? { ...res, status: 404, body: ROUTE_NOT_FOUND } : res),
  },
  'group-members-routes-removed': {
    breaks: '/group-members is not served',
    kind: 'contract',
    rules: ['media.routes.standard'],
    onResponse: (res, req) => (req.path.startsWith('/api/edge/group-members') ? { ...res, status: 404, body: ROUTE_NOT_FOUND } : res),
  },
  'read-only-stats-removed': {
    breaks: '/stats is not served',
    kind: 'contract',
    rules: ['media.routes.read-only'],
    onResponse: (res, req) => (req.path.startsWith('/api/edge/stats') ? { ...res, status: 404, body: ROUTE_NOT_FOUND } : res),
  },
  'edge-prefix-dropped-from-links': {
    breaks: 'links point outside /api/edge',
    kind: 'contract',
    rules: ['media.routes.edge-prefix'],
    onResponse: (res) => ({ ...res, body: res.body.replace(/\/api\/edge\//g, '/api/') }),
  },
};
