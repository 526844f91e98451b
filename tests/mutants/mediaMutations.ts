/**
 * Single observable breaks of the Media contract (../shared/specs/media-tracking-api.md).
 * scripts/mutants.ts runs the live-target media suites against each and expects red.
 * Not listed: breaks the field notes say the real service already has (deprecated
 * relationships without a marker, the search-keys and recommendations routes):
 * those are drift on live by design.
 */
import type { Mutation, ProxiedRequest, ProxiedResponse, ProxyContext } from './breakingProxy.ts';
import { MEDIA_SEED } from '../../src/twins/media/seedFacts.ts';

function mapDocument(res: ProxiedResponse, fn: (doc: Record<string, unknown>) => void): ProxiedResponse {
  try {
    const doc = JSON.parse(res.body) as Record<string, unknown>;
    fn(doc);
    return { ...res, body: JSON.stringify(doc) };
  } catch {
    return res;
  }
}

type Resource = { id?: unknown; type?: string; relationships?: Record<string, unknown> };

function resources(doc: Record<string, unknown>): Resource[] {
  const data = doc.data;
  const primary = Array.isArray(data) ? data : data && typeof data === 'object' ? [data] : [];
  return [...(primary as Resource[]), ...((doc.included as Resource[] | undefined) ?? [])];
}

/** Replays anonymous requests as a signed-in user who allows adult content: adult media leak. */
function asSignedIn(req: ProxiedRequest, ctx: ProxyContext): ProxiedRequest {
  return req.headers.authorization || !ctx.signedInToken ? req : { ...req, headers: { ...req.headers, authorization: `Bearer ${ctx.signedInToken}` } };
}

export const MEDIA_MUTATIONS: Record<string, Mutation> = {
  'numeric-ids': {
    breaks: 'media.jsonapi.string-ids: resource ids are numbers',
    onResponse: (res) =>
      mapDocument(res, (doc) => {
        for (const r of resources(doc)) if (typeof r.id === 'string' && /^\d+$/.test(r.id)) r.id = Number(r.id);
      }),
  },
  'plain-json-media-type': {
    breaks: 'media.jsonapi.media-type: answers are application/json',
    onResponse: (res) => ({ ...res, headers: { ...res.headers, 'content-type': 'application/json; charset=utf-8' } }),
  },
  'included-dropped': {
    breaks: 'media.jsonapi.included: include= adds nothing under included',
    onResponse: (res) => mapDocument(res, (doc) => void delete doc.included),
  },
  'errors-not-jsonapi': {
    breaks: 'media.errors.jsonapi-errors: errors are {"message": ...}',
    onResponse: (res) => (res.status >= 400 ? { ...res, body: '{"message":"something went wrong"}' } : res),
  },
  'adult-visible-anonymously': {
    breaks: 'media.visibility.adult-direct-404: adult media are served to anonymous requests',
    onRequest: asSignedIn,
  },
  'episodes-relationship-missing': {
    breaks: 'media.relationships.table: anime lack the episodes relationship',
    onResponse: (res) =>
      mapDocument(res, (doc) => {
        for (const r of resources(doc)) if (r.type === 'anime' && r.relationships) delete r.relationships.episodes;
      }),
  },
  'wrong-type-name': {
    breaks: 'media.jsonapi.resource-object: anime come back with type "animes"',
    onResponse: (res) => ({ ...res, body: res.body.replace(/"type":"anime"/g, '"type":"animes"') }),
  },
  'missing-record-200': {
    breaks: 'media.errors.hidden-404: a missing record answers 200 {"data":null}',
    onResponse: (res) => (res.status === 404 && /Record not found/.test(res.body) ? { ...res, status: 200, body: '{"data":null}' } : res),
  },
  'embeds-route-removed': {
    breaks: 'media.routes.special: POST /embeds is not served',
    onResponse: (res, req) =>
      req.path.startsWith('/api/edge/embeds') ? { ...res, status: 404, body: '{"errors":[{"status":404,"title":"Route Not Found"}]}' } : res,
  },
  'group-members-routes-removed': {
    breaks: 'media.routes.standard: /group-members is not served',
    onResponse: (res, req) =>
      req.path.startsWith('/api/edge/group-members') ? { ...res, status: 404, body: '{"errors":[{"status":404,"title":"Route Not Found"}]}' } : res,
  },
  'read-only-stats-removed': {
    breaks: 'media.routes.read-only: /stats is not served',
    onResponse: (res, req) =>
      req.path.startsWith('/api/edge/stats') ? { ...res, status: 404, body: '{"errors":[{"status":404,"title":"Route Not Found"}]}' } : res,
  },
  'episode-media-is-manga': {
    breaks: "media.relationships.episode-media: an episode's media points to a manga",
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
  'edge-prefix-dropped-from-links': {
    breaks: 'media.routes.edge-prefix: links point outside /api/edge',
    onResponse: (res) => ({ ...res, body: res.body.replace(/\/api\/edge\//g, '/api/') }),
  },
  'adult-include-not-null': {
    breaks: 'media.visibility.adult-include-null: an anonymous library entry includes its adult anime',
    onRequest: (req, ctx) => (req.path.includes(`/library-entries/${MEDIA_SEED.adultLibraryEntry.id}`) ? asSignedIn(req, ctx) : req),
  },
};
