/**
 * What each contract and reliance rule of the catalogues (src/rules) is about,
 * in the terms a pact shows: its routes, and the headers, body members, query
 * parameters or statuses it speaks of. The catalogue says what a rule requires
 * in words; this says where a consumer's pact would lean on it, so a failed
 * rule can name the consumers it affects (affectedConsumers.ts). A rule no pact
 * interaction can lean on (webhook deliveries, the storefront script) says why.
 * A unit test checks that every contract and reliance rule is here.
 */
import { findRule } from '../rules/catalogues.ts';
import { ruleKind } from '../rules/Rule.ts';
import { SPECIAL_ROUTES } from '../rules/mediaRoutes.ts';
import { EVERY_ROUTE, routeOf, type Break, type Concern, type ConcernApi } from './affectedConsumers.ts';
import type { DriftFinding } from '../recording/drift/findings.ts';

/** Why no pact interaction can depend on a rule. */
export interface NoConcern {
  readonly none: string;
}

const ALL = [EVERY_ROUTE];
const WRITES = ['POST', 'PUT', 'PATCH'];
const STORE_COLLECTIONS = ['/products', '/categories', '/webhooks', '/products/{id}/variants', '/products/{id}/images'];
const RATE_HEADERS = ['X-Rate-Limit-Limit', 'X-Rate-Limit-Remaining', 'X-Rate-Limit-Reset'];
const LOCALIZED = ['name', 'description', 'handle'];
const TOKEN_ROUTE = '/apps/authorize/token';
const MEDIA_ITEMS = ['/anime', '/anime/{id}', '/manga', '/manga/{id}'];
const LIBRARY_ENTRIES = ['/library-entries', '/library-entries/{id}'];
const BROWSER = { none: 'the storefront script runs in a shop page, outside any HTTP pact' };
const WEBHOOK_DELIVERY = { none: 'webhook deliveries go from the store to the app: no pact interaction sends them' };

export const RULE_CONCERNS: Readonly<Record<string, Concern | NoConcern>> = {
  // Store: response format, requests and headers
  'store.json.no-root-element': { routes: ALL, body: true },
  'store.json.snake-case-keys': { routes: ALL, members: ['*_*'] },
  'store.versioning.v1-path': { routes: ALL },
  'store.http.head-any-resource': { routes: ALL, methods: ['HEAD'] },
  'store.http.user-agent-required': { routes: ALL, statuses: [400], withoutHeaders: ['User-Agent'] },
  'store.http.content-type-required': { routes: ALL, methods: WRITES, statuses: [415] },
  'store.http.put-empty-body-content-length': { routes: ALL, methods: ['PUT'] },
  'store.headers.main-language': { routes: ALL, headers: ['X-Main-Language'] },
  'store.auth.authentication-header': { routes: ALL, headers: ['Authentication'] },
  'store.auth.token-validated': { routes: ALL, headers: ['Authentication'], statuses: [401, 403] },
  'store.oauth.install-grants-token': { routes: [TOKEN_ROUTE, '/apps/{id}/authorize'] },
  'store.oauth.user-id-is-store-id': { routes: [TOKEN_ROUTE], members: ['user_id'] },
  'store.oauth.token-request-form-encoded': { routes: [TOKEN_ROUTE], methods: ['POST'], headers: ['Content-Type'] },
  'store.oauth.token-errors-rfc6749': { routes: [TOKEN_ROUTE], statuses: [400, 401], members: ['error'] },
  'store.oauth.token-success-rfc6749': { routes: [TOKEN_ROUTE], members: ['access_token', 'token_type'] },
  // Store: scope (a token reaches its store; the path's store id is the store that answers)
  'store.scope.token-reaches-own-store': { routes: ALL, headers: ['Authentication'] },
  'store.scope.path-names-the-store': { routes: ALL },
  // Store: errors
  'store.errors.invalid-json-400': { routes: ALL, methods: WRITES, statuses: [400] },
  'store.errors.validation-422': { routes: ALL, statuses: [422] },
  'store.errors.image-src-blank-422': { routes: ['/products/{id}/images', '/products/{id}/images/{id}'], statuses: [422] },
  'store.errors.server-errors-retried': { routes: ALL, statuses: [500, 502, 503, 504] },
  'store.client.payment-required-message': { routes: ALL, statuses: [402] },
  'store.client.validation-error-fields': { routes: ALL, statuses: [422] },
  // Store: resources
  'store.categories.get-category': {
    routes: ['/categories/{id}'],
    methods: ['GET'],
    members: ['id', 'name', 'description', 'handle', 'parent', 'subcategories', 'created_at', 'updated_at'],
  },
  'store.categories.parent-null-top-level': { routes: ['/categories', '/categories/{id}'], members: ['parent'] },
  'store.categories.subcategories-empty-array': { routes: ['/categories', '/categories/{id}'], members: ['subcategories'] },
  'store.products.list': { routes: ['/products'], methods: ['GET'] },
  'store.products.fetched-by-id': { routes: ['/products/{id}'], methods: ['GET'], members: ['id'] },
  'store.categories.fetched-by-id': { routes: ['/categories/{id}'], methods: ['GET'], members: ['id'] },
  'store.writes.create-reflected': { routes: STORE_COLLECTIONS, methods: ['POST'], body: true },
  'store.writes.update-reflected': { routes: ['/products/{id}', '/categories/{id}'], methods: ['PUT'], body: true },
  'store.writes.delete-gone': { routes: ['/products/{id}', '/categories/{id}'], methods: ['DELETE'] },
  'store.writes.create-adds-one': { routes: STORE_COLLECTIONS, methods: ['POST'], headers: ['X-Total-Count'] },
  'store.writes.update-leaves-the-rest': { routes: ['/products/{id}', '/categories/{id}'], methods: ['PUT'], body: true },
  'store.writes.delete-removes-one': { routes: ['/products/{id}', '/categories/{id}'], methods: ['DELETE'], headers: ['X-Total-Count'] },
  'store.writes.refused-changes-nothing': { routes: ALL, methods: WRITES, statuses: [402, 415, 422, 429] },
  'store.products.create': { routes: ['/products'], methods: ['POST'] },
  'store.timestamps.format': { routes: ALL, members: ['*_at'] },
  'store.localized.always-object': { routes: ALL, members: LOCALIZED },
  'store.localized.string-applies-to-all': { routes: ALL, methods: WRITES, members: LOCALIZED },
  'store.localized.object-per-language': { routes: ALL, methods: WRITES, members: LOCALIZED },
  // Store: pagination and the rate limit
  'store.pagination.collection-is-array': { routes: STORE_COLLECTIONS, methods: ['GET'], body: true },
  'store.pagination.default-page-size': { routes: STORE_COLLECTIONS, methods: ['GET'], withoutParams: ['per_page'] },
  'store.pagination.max-page-size': { routes: STORE_COLLECTIONS, params: ['per_page'] },
  'store.pagination.first-page-default': { routes: STORE_COLLECTIONS, methods: ['GET'] },
  'store.pagination.total-count': { routes: STORE_COLLECTIONS, headers: ['X-Total-Count'] },
  'store.pagination.link-full-urls': { routes: STORE_COLLECTIONS, headers: ['Link'] },
  'store.pagination.follow-links': { routes: STORE_COLLECTIONS, headers: ['Link'], params: ['page'] },
  'store.pagination.links-same-listing': { routes: STORE_COLLECTIONS, headers: ['Link'] },
  'store.pagination.filters-with-pages': { routes: STORE_COLLECTIONS, params: ['page', 'per_page', 'since_id', 'created_at_min', 'created_at_max'] },
  'store.ratelimit.headers': { routes: ALL, headers: RATE_HEADERS },
  'store.ratelimit.bucket-429': { routes: ALL, statuses: [429] },
  'store.ratelimit.leak-rate': { routes: ALL, statuses: [429] },
  'store.ratelimit.reset-ms': { routes: ALL, headers: ['X-Rate-Limit-Reset'] },
  'store.client.paces-to-bucket': { routes: ALL, headers: RATE_HEADERS, statuses: [429] },
  'store.suspension.every-call-402': { routes: ALL, statuses: [402] },
  'store.webhooks.app-events-registrable': { routes: ['/webhooks', '/webhooks/{id}'] },
  'store.webhooks.suspension-events': WEBHOOK_DELIVERY,
  'store.webhooks.not-called-while-suspended': WEBHOOK_DELIVERY,
  'store.storefront.on-change-variant': BROWSER,
  'store.storefront.variant-element': BROWSER,
  'store.storefront.works-while-suspended': BROWSER,
  // Media: JSON:API documents
  'media.jsonapi.media-type': { routes: ALL, headers: ['Content-Type'] },
  'media.jsonapi.document-structure': { routes: ALL, members: ['data', 'included', 'errors'] },
  'media.jsonapi.string-ids': { routes: ALL, members: ['id'] },
  'media.jsonapi.resource-object': { routes: ALL, members: ['data.id', 'data.type', 'data.attributes', 'data.relationships', 'included'] },
  'media.jsonapi.camel-case-members': { routes: ALL, members: [/^[a-z]+[A-Z]/] },
  'media.jsonapi.included': { routes: ALL, params: ['include'], members: ['included'] },
  'media.jsonapi.included-unique': { routes: ALL, params: ['include'], members: ['included'] },
  'media.jsonapi.sparse-fields': { routes: ALL, params: ['fields[*]'] },
  'media.jsonapi.filters': { routes: ALL, params: ['filter[*]'] },
  'media.jsonapi.sort': { routes: ALL, params: ['sort'] },
  'media.jsonapi.accept-parameters-406': { routes: ALL, headers: ['Accept'], statuses: [406] },
  'media.jsonapi.content-type-parameters-415': { routes: ['/{collection}', '/{collection}/{id}'], methods: WRITES, headers: ['Content-Type'], statuses: [415] },
  'media.jsonapi.unsupported-query-400': { routes: ALL, params: ['include', 'sort'], statuses: [400] },
  'media.jsonapi.show-identity': { routes: ['/{collection}/{id}'], methods: ['GET'], members: ['data.id', 'data.type', 'data.attributes'] },
  'media.jsonapi.full-linkage': { routes: ALL, params: ['include'], members: ['included'] },
  'media.jsonapi.parameters-combined': { routes: ALL, params: ['filter[*]', 'sort', 'include', 'fields[*]', 'page[offset]', 'page[limit]'] },
  'media.jsonapi.self-links': { routes: ALL, members: ['links.self', 'data.links.self'] },
  // Media: routes and relationships
  'media.routes.edge-prefix': { routes: ALL },
  'media.routes.standard': { routes: ALL },
  'media.routes.read-only': { routes: ['/profile-link-sites', '/library-entry-logs', '/stats'].flatMap((r) => [r, `${r}/{id}`]) },
  'media.routes.special': { routes: SPECIAL_ROUTES.map((r) => r.path) },
  'media.relationships.table': { routes: ['/anime/**', '/manga/**', '/episodes/**', '/anime', '/manga', '/episodes'], members: ['relationships'] },
  'media.relationships.episode-media': { routes: ['/episodes', '/episodes/{id}'], members: ['relationships.media'] },
  'media.relationships.deprecated-marked': { routes: MEDIA_ITEMS, members: ['relationships'] },
  'media.relationships.self-link': { routes: ALL, members: ['relationships'] },
  'media.relationships.related-link': { routes: ALL, members: ['relationships'] },
  // Media: adult content, errors, pagination, authentication
  'media.visibility.adult-direct-404': { routes: ['/anime/{id}', '/manga/{id}'], statuses: [404] },
  'media.visibility.adult-include-null': { routes: LIBRARY_ENTRIES, params: ['include'] },
  'media.visibility.adult-hidden-from-lists': { routes: ['/anime', '/manga'], methods: ['GET'], withoutHeaders: ['Authorization'] },
  'media.errors.jsonapi-errors': { routes: ALL, members: ['errors'] },
  'media.errors.hidden-404': { routes: ALL, statuses: [404] },
  'media.errors.status-agrees': { routes: ALL, members: ['errors'] },
  'media.errors.known-defect-adult-include-500': { routes: LIBRARY_ENTRIES, params: ['include'] },
  'media.pagination.meta-count': { routes: ALL, members: ['meta.count'] },
  'media.pagination.first-last': { routes: ALL, members: ['links.first', 'links.last'] },
  'media.pagination.same-listing': { routes: ALL, members: ['links.first', 'links.prev', 'links.next', 'links.last'] },
  'media.pagination.follow-next': { routes: ALL, members: ['links.next'], params: ['page[offset]', 'page[limit]'] },
  'media.auth.anonymous-reads': { routes: ALL, methods: ['GET'], withoutHeaders: ['Authorization'] },
  'media.auth.bearer-token': { routes: ALL, headers: ['Authorization'] },
  'media.auth.token-errors-rfc6749': { routes: ['/api/oauth/token'], statuses: [400, 401], members: ['error'] },
  // Media: writes (set C), what a write does; how it answers is field notes
  'media.writes.update-applied': { routes: ['/{collection}/{id}'], methods: ['PATCH', 'PUT'] },
  'media.writes.create-destroy-applied': { routes: ['/{collection}', '/{collection}/{id}'], methods: ['POST', 'DELETE'] },
  'media.writes.answer-is-resource': { routes: ['/{collection}', '/{collection}/{id}'], methods: ['POST', 'PATCH', 'PUT'], members: ['data'] },
  'media.writes.create-adds-one': { routes: ['/{collection}'], methods: ['POST'], members: ['meta.count'] },
  'media.writes.create-linkage-as-sent': { routes: ['/{collection}'], methods: ['POST'], members: ['data.relationships'] },
  'media.writes.update-keeps-the-rest': { routes: ['/{collection}/{id}'], methods: ['PATCH', 'PUT'], members: ['data.attributes', 'data.relationships'] },
  'media.writes.bulk-applies-to-named': { routes: ['/library-entries/_bulk'], methods: ['PATCH', 'PUT'], params: ['filter[id]'] },
  'media.writes.refused-changes-nothing': { routes: ['/{collection}', '/{collection}/{id}'], methods: ['POST', 'PATCH', 'PUT'], statuses: [415, 422] },
};

function isNone(entry: Concern | NoConcern | undefined): entry is NoConcern {
  return entry !== undefined && 'none' in entry;
}

/** What a rule is about in a pact's terms; undefined for a rule no pact can lean on, or one not listed. */
export function concernOf(ruleId: string): Concern | undefined {
  const entry = RULE_CONCERNS[ruleId];
  return isNone(entry) ? undefined : entry;
}

/** Why no pact interaction can depend on a rule, when that is so. */
export function noConcernReason(ruleId: string): string | undefined {
  const entry = RULE_CONCERNS[ruleId];
  return isNone(entry) ? entry.none : undefined;
}

/** A failed rule as a break: its API, kind and concern, and the requests its failing tests were about. */
export function breakOfRule(ruleId: string, failingRequests: readonly string[] = [], summary?: string): Break | undefined {
  const rule = findRule(ruleId);
  const api = ruleId.split('.')[0];
  if (!rule || (api !== 'store' && api !== 'media')) return undefined;
  const kind = ruleKind(rule);
  if (kind === 'field notes') return undefined;
  const concern = concernOf(ruleId);
  return {
    id: ruleId,
    api,
    kind,
    ...(concern ? { concern } : {}),
    ...(failingRequests.length > 0 ? { failingRequests: [...new Set(failingRequests)] } : {}),
    ...(summary ? { summary } : {}),
  };
}

/** The drift report as drift.json holds it, as far as its contract breaks go. */
export interface DriftLike {
  readonly apis: readonly { readonly api: string; readonly cassettes: readonly { readonly findings: readonly DriftFinding[] }[] }[];
}

/** `GET /v1/<store>/products/<id:1>?per_page=1` → method, and the route under the base with `{id}` for each normalised id. */
function driftRoute(api: ConcernApi, route: string): { method: string; route: string; params: string[] } | undefined {
  const match = /^([A-Z]+) (\S+)$/.exec(route.trim());
  if (!match) return undefined;
  const [path, query] = match[2]!.split('?') as [string, string | undefined];
  const under = routeOf(api, path).replace(/<[^>]+>/g, '{id}');
  return { method: match[1]!, route: under, params: query ? [...new URLSearchParams(query).keys()] : [] };
}

/** Each contract break drift found, as a break: its route, and the header or member it is about. */
export function breaksOfDrift(report: DriftLike): Break[] {
  const breaks = new Map<string, Break>();
  for (const { api, cassettes } of report.apis) {
    if (api !== 'store' && api !== 'media') continue;
    for (const finding of cassettes.flatMap((c) => c.findings)) {
      if (finding.kind !== 'contract-break' || !finding.route) continue;
      const where = driftRoute(api, finding.route);
      if (!where) continue;
      const header = finding.change.startsWith('header') ? finding.subject : undefined;
      const member = !header && finding.subject ? finding.subject : undefined;
      const concern: Concern = {
        routes: [where.route],
        methods: [where.method],
        ...(header ? { headers: [header] } : {}),
        ...(member && memberOrRoot(member) ? { members: [memberOrRoot(member)!] } : {}),
        ...(member && !memberOrRoot(member) ? { body: true } : {}),
      };
      const id = `drift: ${where.method} ${where.route}${finding.subject ? ` ${finding.subject}` : ''}`;
      if (!breaks.has(id)) breaks.set(id, { id, api, kind: 'drift', concern, summary: finding.message });
    }
  }
  return [...breaks.values()];
}

/** A drift subject (`$.data[0].type`, `/0/created_at`) as a member path; undefined for the body's root. */
function memberOrRoot(subject: string): string | undefined {
  const dotted = subject.startsWith('/')
    ? subject
        .split('/')
        .filter((s) => s && !/^\d+$/.test(s))
        .join('.')
    : subject
        .replace(/^\$\.?/, '')
        .replace(/\[[^\]]*\]/g, '')
        .replace(/^\.|\.$/g, '');
  return dotted || undefined;
}
