/**
 * JSON:API documents as the real service writes them (fixtures/media):
 * resource objects `{id, type, links: {self}, attributes, relationships}`,
 * relationships `{links: {self, related}}` plus `data` when included, and
 * top-level keys in the order data, included, meta, links
 * (media.jsonapi.document-structure: errors are written apart, jsonapi/errors.ts).
 */
import { jsonArray, jsonObject, type JsonText } from '../../serving/jsonText.ts';
import { ownsRecord, viewerKey, visibleLinkage, visibleTargets } from '../access.ts';
import type { MediaState } from '../mediaState.ts';
import type { MediaRecord, Ref, Viewer } from '../model.ts';
import { requireDefinition } from '../registry.ts';
import type { RelationshipSpec, ResourceDefinition } from '../resources/define.ts';
import { showsField, type Fieldsets } from './fields.ts';
import type { IncludeNode } from './include.ts';
import { dasherize } from './names.ts';

export interface RenderContext {
  readonly state: MediaState;
  readonly viewer: Viewer;
  /** `http://{host}/api/edge`. */
  readonly baseUrl: string;
  readonly fields: Fieldsets;
}

export interface RelationshipObject {
  readonly links?: { readonly self: string; readonly related: string };
  readonly data?: Ref | null | Ref[];
  readonly meta?: Record<string, unknown>;
}

export interface ResourceObject {
  readonly id: string;
  readonly type: string;
  readonly links?: { readonly self: string };
  readonly attributes: Record<string, unknown>;
  readonly relationships?: Record<string, RelationshipObject>;
}

export function resourceUrl(baseUrl: string, definition: ResourceDefinition, id: string): string {
  return `${baseUrl}/${definition.collection}/${encodeURIComponent(id)}`;
}

function attributesOf(context: RenderContext, definition: ResourceDefinition, record: MediaRecord): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  const owner = ownsRecord(context.viewer, record);
  for (const [name, spec] of Object.entries(definition.attributes)) {
    if (spec.writeOnly || (spec.ownerOnly && !owner) || !showsField(context.fields, definition.type, name)) continue;
    const value = spec.compute ? spec.compute(record, context.state) : record.attributes[name];
    attributes[name] = value === undefined ? null : value;
  }
  return attributes;
}

function relationshipObject(
  context: RenderContext,
  definition: ResourceDefinition,
  record: MediaRecord,
  name: string,
  spec: RelationshipSpec,
  withData: boolean,
): RelationshipObject {
  const routable = definition.routes !== 'none';
  const base = resourceUrl(context.baseUrl, definition, record.id);
  // media.relationships.self-link and media.relationships.related-link: the routes relationshipResponse and
  // relatedResponse (operations.ts) serve for this record and this relationship.
  const links = routable ? { links: { self: `${base}/relationships/${dasherize(name)}`, related: `${base}/${dasherize(name)}` } } : {};
  if (spec.kind === 'deprecated') {
    // media.relationships.deprecated-marked: kept as an empty relationship marked deprecated (the real service
    // shows plain links: its known defect).
    return { ...links, data: [], meta: { deprecated: true, replacedBy: spec.replacedBy } };
  }
  // Types with no routes have no links to give, so their linkage is always shown.
  if (!withData && routable) return links;
  // media.jsonapi.included: an included relationship carries its identifiers in data.
  return { ...links, data: visibleLinkage(context.state, context.viewer, record, name, spec) };
}

/**
 * One resource object; `included` names the relationships whose `data` is shown.
 * media.jsonapi.resource-object: id, type (the type the collection serves), attributes, relationships;
 * media.jsonapi.string-ids: ids are stored as strings, so they are written as strings.
 */
export function renderResource(context: RenderContext, record: MediaRecord, included: ReadonlySet<string> = new Set()): ResourceObject {
  const definition = requireDefinition(record.type);
  const relationships: Record<string, RelationshipObject> = {};
  for (const [name, spec] of Object.entries(definition.relationships)) {
    if (!showsField(context.fields, definition.type, name)) continue;
    relationships[name] = relationshipObject(context, definition, record, name, spec, included.has(name));
  }
  // media.jsonapi.self-links: the show route of this record.
  const links = definition.routes !== 'none' ? { links: { self: resourceUrl(context.baseUrl, definition, record.id) } } : {};
  return {
    id: record.id,
    type: record.type,
    ...links,
    attributes: attributesOf(context, definition, record),
    ...(Object.keys(relationships).length > 0 ? { relationships } : {}),
  };
}

const keyOf = (record: MediaRecord): string => `${record.type}\u0000${record.id}`;

interface Collected {
  readonly primaries: ReadonlySet<string>;
  /** Included records, in the order first reached, with the relationships to show data for. */
  readonly included: Map<string, { record: MediaRecord; relationships: Set<string> }>;
  /** Relationships of each primary whose data is shown. */
  readonly primaryRelationships: Set<string>;
}

/**
 * Walks the include tree from the primary records (media.jsonapi.included). Hidden targets are never
 * reached (media.visibility.adult-include-null), so nothing below them is included either: the twin does not
 * repeat the real service's 500 on `include=anime,anime.categories` (media.errors.known-defect-adult-include-500).
 * Each record is included once and never beside itself as a primary (media.jsonapi.included-unique), and only what a
 * relationship of the tree reaches, so the linkage names every included record (media.jsonapi.full-linkage); each
 * (record, node) pair is walked once, so cyclic paths stay linear.
 */
function collectIncluded(context: RenderContext, primaries: readonly MediaRecord[], tree: IncludeNode): Collected {
  const primaryKeys = new Set(primaries.map(keyOf));
  const included = new Map<string, { record: MediaRecord; relationships: Set<string> }>();
  const walked = new Set<string>();
  const nodeIds = new Map<IncludeNode, number>();
  const nodeId = (node: IncludeNode): number => {
    let id = nodeIds.get(node);
    if (id === undefined) {
      id = nodeIds.size;
      nodeIds.set(node, id);
    }
    return id;
  };
  const walk = (record: MediaRecord, node: IncludeNode): void => {
    const visit = `${keyOf(record)}\u0000${nodeId(node)}`;
    if (walked.has(visit)) return;
    walked.add(visit);
    const definition = requireDefinition(record.type);
    for (const [name, child] of node.children) {
      const spec = definition.relationships[name];
      if (!spec) continue; // a polymorphic path names a relationship another target type has
      const targets = visibleTargets(context.state, context.viewer, record, name, spec);
      for (const target of Array.isArray(targets) ? targets : targets ? [targets] : []) {
        const key = keyOf(target);
        if (!primaryKeys.has(key)) {
          let entry = included.get(key);
          if (!entry) {
            entry = { record: target, relationships: new Set() };
            included.set(key, entry);
          }
          for (const grandchild of child.children.keys()) entry.relationships.add(grandchild);
        }
        walk(target, child);
      }
    }
  };
  for (const primary of primaries) walk(primary, tree);
  return { primaries: primaryKeys, included, primaryRelationships: new Set(tree.children.keys()) };
}

export interface SingleDocument {
  readonly data: ResourceObject | null;
  readonly included?: ResourceObject[];
}

export interface CollectionDocument {
  readonly data: ResourceObject[];
  readonly included?: ResourceObject[];
  readonly meta?: Record<string, unknown>;
  readonly links?: DocumentLinks;
}

/** Top-level links: the offset paginator's, or a feed's `first`/`next`. */
export type DocumentLinks = Readonly<Record<string, string | undefined>>;

function renderIncluded(context: RenderContext, collected: Collected): ResourceObject[] {
  return [...collected.included.values()].map(({ record, relationships }) => renderResource(context, record, relationships));
}

export function singleDocument(context: RenderContext, record: MediaRecord | null, tree: IncludeNode): SingleDocument {
  if (!record) return { data: null };
  const collected = collectIncluded(context, [record], tree);
  const included = renderIncluded(context, collected);
  return { data: renderResource(context, record, collected.primaryRelationships), ...(included.length > 0 ? { included } : {}) };
}

/** A collection document; `meta` and `links` are left out when not given (trending answers `{data}` only). */
export function collectionDocument(
  context: RenderContext,
  records: readonly MediaRecord[],
  tree: IncludeNode,
  meta?: Record<string, unknown>,
  links?: DocumentLinks,
): CollectionDocument {
  const collected = collectIncluded(context, records, tree);
  const included = renderIncluded(context, collected);
  return {
    data: records.map((record) => renderResource(context, record, collected.primaryRelationships)),
    ...(included.length > 0 ? { included } : {}),
    ...(meta ? { meta } : {}),
    ...(links ? { links } : {}),
  };
}

/**
 * What else a whole resource object's rendering depends on, as a render-cache
 * variant (src/twins/serving/renderCache.ts): who asks (owner-only fields, hidden
 * linkage) and the base URL of its links. None when the request asks for
 * sparse fieldsets or included data: those are rendered afresh.
 */
function cacheVariant(context: RenderContext, tree: IncludeNode): string | undefined {
  if (context.fields.size > 0 || tree.children.size > 0) return undefined;
  return `${viewerKey(context.viewer)}\u0000${context.baseUrl}`;
}

function cachedResource(context: RenderContext, variant: string, record: MediaRecord): JsonText {
  return context.state.rendered.json(record, variant, () => renderResource(context, record));
}

/** The body of a GET of one resource: `singleDocument`, from the render cache when it can be. */
export function singleBody(context: RenderContext, record: MediaRecord | null, tree: IncludeNode): unknown {
  const variant = cacheVariant(context, tree);
  if (!record || variant === undefined) return singleDocument(context, record, tree);
  return jsonObject([['data', cachedResource(context, variant, record)]]);
}

/** The body of a GET of a collection: `collectionDocument`, from the render cache when it can be. */
export function collectionBody(
  context: RenderContext,
  records: readonly MediaRecord[],
  tree: IncludeNode,
  meta?: Record<string, unknown>,
  links?: DocumentLinks,
): unknown {
  const variant = cacheVariant(context, tree);
  if (variant === undefined) return collectionDocument(context, records, tree, meta, links);
  return jsonObject([
    ['data', jsonArray(records.map((record) => cachedResource(context, variant, record)))],
    ['meta', meta],
    ['links', links],
  ]);
}
