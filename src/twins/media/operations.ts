/**
 * The standard operations, driven by the registry for every collection:
 * index, show, create, update (PATCH and PUT), destroy, and the related and
 * relationship routes the documents link to.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { canRead, visibleLinkage, visibleTargets } from './access.ts';
import { decodeSegment } from '../serving/requestTarget.ts';
import { isJsonApiContentType } from './http/negotiation.ts';
import { jsonResponse, type TwinResponse } from './http/responses.ts';
import { collectionBody, resourceUrl, singleBody, singleDocument, type RenderContext } from './jsonapi/document.ts';
import { JsonApiError, forbidden, invalidFieldValue, recordNotFound, routeNotFound, unsupportedMediaType, validationFailed } from './jsonapi/errors.ts';
import { parseFieldsets } from './jsonapi/fields.ts';
import { compileFilters } from './jsonapi/filters.ts';
import { emptyInclude, parseInclude } from './jsonapi/include.ts';
import { camelize, dasherize } from './jsonapi/names.ts';
import { pageLinks, pageOf, parsePage } from './jsonapi/paginator.ts';
import { parseJsonApiQuery, type JsonApiQuery } from './jsonapi/query.ts';
import { readResourceDocument } from './jsonapi/requestDocument.ts';
import { compileSort } from './jsonapi/sort.ts';
import type { MediaState } from './mediaState.ts';
import type { MediaRecord, Viewer } from './model.ts';
import { requireDefinition } from './registry.ts';
import { targetTypes, type RelationshipSpec, type ResourceDefinition, type WriteContext } from './resources/define.ts';
import { buildDraft, draftRecord, saveDraft, validateDraft } from './writes.ts';
import { filtersAsRead } from './twinBreaks.ts';
import { visibleIndex } from './visibleIndex.ts';

/** What a handler sees once the pipeline has let a request through. */
export interface ApiContext {
  readonly state: MediaState;
  readonly viewer: Viewer;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  /** `http://{host}/api/edge`. */
  readonly baseUrl: string;
  /** The request path under the base, for collection links: `/anime`, `/anime/1/episodes`. */
  readonly path: string;
  /** Whether the request carried a body. */
  readonly hasBody: boolean;
  /** The body as JSON; throws 400 when it is not JSON. Undefined without a body. */
  json(): unknown;
}

export function renderContext(context: ApiContext, query: JsonApiQuery): RenderContext {
  return { state: context.state, viewer: context.viewer, baseUrl: context.baseUrl, fields: parseFieldsets(query.fields) };
}

/** An id segment: digits only (400 Invalid field value otherwise, media.errors.bad-query-400), leading zeros dropped. */
export function readId(raw: string): string {
  const id = decodeSegment(raw);
  if (!/^\d{1,30}$/.test(id)) throw invalidFieldValue('id', id);
  return id.replace(/^0+(?=\d)/, '');
}

/**
 * The record an id segment names, if the viewer may see it; 404 Record not found otherwise, hidden records
 * included (media.errors.hidden-404, media.visibility.adult-direct-404).
 */
export function findReadable(context: ApiContext, definition: ResourceDefinition, rawId: string): MediaRecord {
  const id = readId(rawId);
  const record = context.state.get(definition.type, id);
  if (!record || !canRead(context.state, context.viewer, record)) throw recordNotFound(decodeSegment(rawId));
  return record;
}

interface CollectionSource {
  readonly records: readonly MediaRecord[];
  /** A related route is exempt from a required filter. */
  readonly related: boolean;
  readonly extraMeta?: Record<string, unknown>;
}

/** A paginated, filtered, sorted collection document of `definition`'s records (or of `source`). */
export function indexResponse(context: ApiContext, definition: ResourceDefinition, source?: CollectionSource): TwinResponse {
  const query = parseJsonApiQuery(context.query);
  // media.errors.library-entries-need-filter: the real LibraryEntriesController refuses an unfiltered index before anything else.
  if (definition.requiresFilter && !source?.related && query.filters.length === 0) throw JsonApiError.custom(400, 'No filter provided');
  const render = renderContext(context, query);
  // media.jsonapi.parameters-combined: filter, sort, page window, include and fields are each read once and applied
  // together in this one order, so none of them depends on which others came with it.
  const tree = parseInclude(query.include, definition);
  const filters = filtersAsRead(context.state.twinBreak, context.query, query.filters);
  const accept = compileFilters(definition, filters, { state: context.state, viewer: context.viewer });
  const order = compileSort(definition, query.sort, context.state);
  const window = parsePage(query.page, definition.page);
  const matching = source
    ? source.records.filter(accept).sort(order)
    : visibleIndex(context.state, context.viewer, definition.type, { filters, accept, sort: query.sort, order });
  const twinBreak = context.state.twinBreak;
  const page = pageOf(matching, window, twinBreak);
  // media.pagination.meta-count: the whole filtered collection the viewer may see (media.visibility.adult-hidden-from-lists).
  const meta = { ...source?.extraMeta, ...definition.collectionMeta?.(matching), count: matching.length };
  const links = pageLinks(`${context.baseUrl}${context.path}`, query.echo, window, matching.length, twinBreak);
  return jsonResponse(200, collectionBody(render, page, tree, meta, links));
}

export function showResponse(context: ApiContext, definition: ResourceDefinition, rawId: string): TwinResponse {
  const query = parseJsonApiQuery(context.query);
  const render = renderContext(context, query);
  const tree = parseInclude(query.include, definition);
  // media.jsonapi.show-identity: the record the id names, rendered as itself.
  const record = findReadable(context, definition, rawId);
  return jsonResponse(200, singleBody(render, record, tree));
}

/** media.writes.media-type-415 */
function assertWriteMediaType(context: ApiContext): void {
  if (!isJsonApiContentType(context.headers)) throw unsupportedMediaType(context.headers['content-type'] ?? '');
}

export function createResponse(context: ApiContext, definition: ResourceDefinition): TwinResponse {
  assertWriteMediaType(context);
  const query = parseJsonApiQuery(context.query);
  const render = renderContext(context, query);
  const tree = parseInclude(query.include, definition);
  const write = readResourceDocument(context.json(), definition, 'create');
  const draft = buildDraft(definition, write, undefined, context.viewer);
  const writeContext: WriteContext = { state: context.state, viewer: context.viewer, action: 'create', previous: undefined };
  if (!definition.policy.create(context.viewer, draftRecord(definition, draft), context.state)) throw forbidden('create', definition.singular);
  const issues = validateDraft(definition, draft, writeContext);
  if (issues.length > 0) throw validationFailed(issues);
  const record = saveDraft(context.state, definition, draft, writeContext);
  // media.writes.create-destroy-applied; media.writes.status-codes: 201 with Location; media.writes.answer-is-resource:
  // the document of the record saved, whose links.self is the Location.
  return jsonResponse(201, singleDocument(render, record, tree), { Location: resourceUrl(context.baseUrl, definition, record.id) });
}

export function updateResponse(context: ApiContext, definition: ResourceDefinition, rawId: string): TwinResponse {
  assertWriteMediaType(context);
  const query = parseJsonApiQuery(context.query);
  const render = renderContext(context, query);
  const tree = parseInclude(query.include, definition);
  const record = findReadable(context, definition, rawId);
  const write = readResourceDocument(context.json(), definition, 'update', record.id);
  if (!definition.policy.update(context.viewer, record, context.state)) throw forbidden('update', definition.singular);
  const draft = buildDraft(definition, write, record, context.viewer);
  const writeContext: WriteContext = { state: context.state, viewer: context.viewer, action: 'update', previous: record };
  const issues = validateDraft(definition, draft, writeContext);
  if (issues.length > 0) throw validationFailed(issues);
  // media.writes.update-applied (PATCH and PUT alike); media.writes.status-codes: 200 with the resource;
  // media.writes.answer-is-resource: the record as saved, never 204.
  return jsonResponse(200, singleDocument(render, saveDraft(context.state, definition, draft, writeContext), tree));
}

export function destroyResponse(context: ApiContext, definition: ResourceDefinition, rawId: string): TwinResponse {
  const record = findReadable(context, definition, rawId);
  if (!definition.policy.destroy(context.viewer, record, context.state)) throw forbidden('destroy', definition.singular);
  // media.writes.create-destroy-applied; media.writes.status-codes: 204, no body.
  context.state.remove(definition.type, record.id);
  return { status: 204 };
}

/** The relationship a dasherized path segment names (`media-relationships`); unknown names are unknown routes. */
function relationshipOf(definition: ResourceDefinition, segment: string): [string, RelationshipSpec] {
  const written = decodeSegment(segment);
  const name = camelize(written);
  const spec = Object.hasOwn(definition.relationships, name) ? definition.relationships[name] : undefined;
  // Paths are dasherized only, as the real routes are.
  if (!spec || dasherize(name) !== written) throw routeNotFound();
  return [name, spec];
}

/**
 * `GET /anime/1/episodes`: the related resource, or the related collection (filtered, sorted, paginated).
 * media.relationships.related-link: the targets of this parent's relationship, the ones its linkage names.
 */
export function relatedResponse(context: ApiContext, definition: ResourceDefinition, rawId: string, segment: string): TwinResponse {
  const [name, spec] = relationshipOf(definition, segment);
  const parent = findReadable(context, definition, rawId);
  // media.relationships.deprecated-marked: nothing behind it, and it says what replaced it.
  if (spec.kind === 'deprecated') {
    const query = parseJsonApiQuery(context.query);
    return jsonResponse(200, {
      data: [],
      meta: { count: 0, deprecated: true, replacedBy: spec.replacedBy },
      links: pageLinks(`${context.baseUrl}${context.path}`, query.echo, { limit: 10, offset: 0 }, 0),
    });
  }
  const targets = visibleTargets(context.state, context.viewer, parent, name, spec);
  const targetDefinition = requireDefinition(targetTypes(spec)[0] ?? definition.type);
  if (!Array.isArray(targets)) {
    const query = parseJsonApiQuery(context.query);
    const render = renderContext(context, query);
    const tree = targets ? parseInclude(query.include, requireDefinition(targets.type)) : emptyInclude();
    return jsonResponse(200, singleDocument(render, targets, tree));
  }
  return indexResponse(context, targetDefinition, { records: targets, related: true });
}

/** `GET /anime/1/relationships/episodes`: the linkage itself (media.relationships.self-link: the same visibleLinkage an include shows). */
export function relationshipResponse(context: ApiContext, definition: ResourceDefinition, rawId: string, segment: string): TwinResponse {
  const [name, spec] = relationshipOf(definition, segment);
  const parent = findReadable(context, definition, rawId);
  const base = resourceUrl(context.baseUrl, definition, parent.id);
  const links = { self: `${base}/relationships/${dasherize(name)}`, related: `${base}/${dasherize(name)}` };
  if (spec.kind === 'deprecated') return jsonResponse(200, { links, data: [], meta: { deprecated: true, replacedBy: spec.replacedBy } });
  return jsonResponse(200, { links, data: visibleLinkage(context.state, context.viewer, parent, name, spec) });
}
