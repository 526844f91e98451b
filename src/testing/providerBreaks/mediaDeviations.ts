/**
 * Media provider behaviours the contract (../shared/specs/media-tracking-api.md)
 * leaves open: a real JSON:API service may do any of them. scripts/breaks.ts
 * runs the live-target media suites and the media pact verification through
 * each; every one must stay green (observations are fine). A red run here is a
 * false alarm of the suites or the pacts, not a provider bug.
 */
import type { ProviderDeviation } from './breakingProxy.ts';
import { mapDocument, resources } from './mediaBreaks.ts';
import { pathOnly, queryOf, withQuery } from './rewrite.ts';
import { MEDIA_CONTRACT } from '../../rules/mediaContract.ts';

/** Does the request name a sparse fieldset (fields[type]=...)? A provider honouring it adds nothing. */
const namesFields = (path: string) => [...queryOf(path).keys()].some((name) => name.startsWith('fields['));

type ErrorObject = Record<string, unknown>;

export const MEDIA_DEVIATIONS: Record<string, ProviderDeviation> = {
  'jsonapi-member': {
    allows: 'every document carries a top-level jsonapi member ({"version": "1.0"}), which JSON:API allows',
    onResponse: (res) => mapDocument(res, (doc) => void ((doc.data !== undefined || doc.errors !== undefined) && (doc.jsonapi = { version: '1.0' }))),
  },
  'extra-attributes': {
    allows: 'resources carry attributes the harness does not know: "Attribute names ... of any resource: not shown"',
    onResponse: (res, req) =>
      namesFields(req.path)
        ? res
        : mapDocument(res, (doc) => {
            for (const r of resources(doc)) if (r.attributes) Object.assign(r.attributes, { popularityScore: 0.5, externalKey: null });
          }),
  },
  'extra-meta-and-links': {
    allows: 'documents carry more meta and links members (meta.generatedAt, links.self)',
    onResponse: (res, req) =>
      mapDocument(res, (doc) => {
        if (doc.data === undefined) return;
        doc.meta = { ...(doc.meta ?? {}), generatedAt: '2025-01-01T00:00:00.000Z' };
        doc.links = { ...(doc.links ?? {}), self: `http://${req.headers.host}${req.path}` };
      }),
  },
  'not-found-other-title': {
    allows: 'a 404 has another title and detail ("Not Found"): "the members of the error object: not shown"',
    onResponse: (res) =>
      res.status === 404
        ? mapDocument(res, (doc) => {
            if (!Array.isArray(doc.errors)) return;
            doc.errors = (doc.errors as ErrorObject[]).map((e) => ({ ...e, title: 'Not Found', detail: 'The resource you asked for does not exist.' }));
          })
        : res,
  },
  'error-members-minimal': {
    allows: 'error objects carry only status and title: "the members of the error object: not shown"',
    onResponse: (res) =>
      res.status >= 400
        ? mapDocument(res, (doc) => {
            if (!Array.isArray(doc.errors)) return;
            doc.errors = (doc.errors as ErrorObject[]).map((e) => ({ status: String(e.status ?? res.status), title: e.title ?? 'Error' }));
          })
        : res,
  },
  'error-objects-extra-members': {
    allows: 'error objects carry id, links and meta too, which JSON:API allows',
    onResponse: (res) =>
      res.status >= 400
        ? mapDocument(res, (doc) => {
            if (!Array.isArray(doc.errors)) return;
            doc.errors = (doc.errors as ErrorObject[]).map((e, i) => ({ id: `err-${i}`, ...e, meta: { requestId: 'f3b1c2d4' } }));
          })
        : res,
  },
  'null-pagination-links': {
    allows:
      'a collection writes an unavailable pagination link as null ("prev": null, "next": null): JSON:API, Pagination: "Keys MUST either be omitted or have a null value to indicate that a particular link is unavailable"',
    onResponse: (res) =>
      mapDocument(res, (doc) => {
        if (!Array.isArray(doc.data) || !doc.links || typeof doc.meta?.['count'] !== 'number') return;
        for (const name of ['prev', 'next']) if (!(name in doc.links)) doc.links[name] = null;
      }),
  },
  'last-link-page-aligned': {
    allows:
      'links.last points at the last page aligned to the page size (page[offset] a multiple of page[limit]), not at max(count − limit, 0) as the field notes saw: JSON:API, Pagination: "last: the last page of data", and JSON:API is "agnostic about the pagination strategy"; that page holds the collection\'s last resources and carries no next',
    onResponse: (res) =>
      mapDocument(res, (doc) => {
        const count = doc.meta?.['count'];
        const last = doc.links?.['last'];
        if (!Array.isArray(doc.data) || typeof count !== 'number' || typeof last !== 'string' || !doc.links) return;
        const url = new URL(last);
        const limit = Number(url.searchParams.get('page[limit]'));
        if (!Number.isInteger(limit) || limit <= 0) return;
        url.searchParams.set('page[offset]', String(count > 0 ? Math.floor((count - 1) / limit) * limit : 0));
        doc.links['last'] = url.href;
      }),
  },
  'update-stamps-derived-timestamps': {
    allows:
      'an update of a library entry stamps what follows from what it was sent, as the real service does: progressedAt when progress is sent, startedAt when status becomes current. JSON:API, Updating Resources: a server may change the resource "in ways other than those specified by the request"',
    onRequest: (req) => {
      if ((req.method !== 'PATCH' && req.method !== 'PUT') || !/^\/api\/edge\/library-entries\/\d+$/.test(pathOnly(req.path))) return req;
      try {
        const doc = JSON.parse(req.body.toString('utf8')) as { data?: { attributes?: Record<string, unknown> } };
        const attributes = doc?.data?.attributes;
        if (!attributes) return req;
        const now = new Date().toISOString();
        if ('progress' in attributes) attributes['progressedAt'] ??= now;
        if (attributes['status'] === 'current') attributes['startedAt'] ??= now;
        return { ...req, body: Buffer.from(JSON.stringify(doc)) };
      } catch {
        return req;
      }
    },
  },
  'page-limit-capped': {
    allows: 'a page[limit] over the maximum is served as the maximum (20), not refused: "Rate limits, page sizes and size limits: not shown"',
    onRequest: (req) => {
      const collection = pathOnly(req.path).split('/')[3] ?? '';
      const max = MEDIA_CONTRACT.maxLimitByCollection[collection] ?? MEDIA_CONTRACT.maxLimit;
      return withQuery(req, (q) => void (Number(q.get('page[limit]')) > max && q.set('page[limit]', String(max))));
    },
  },
};
