/**
 * The Media Tracking API as an OpenAPI 3.1 document, generated from the
 * harness's own sources of truth: every route of mediaRoutes(), the response
 * schema of each from mediaResponseSchema(), the contract's JSON Schemas for
 * the components, MEDIA_CONTRACT for the media type, page sizes and OAuth
 * endpoints, and the media twin's seed for the examples. Where the spec says
 * "not shown" (success codes, query parameters, OAuth), the field notes fill in.
 */
import { DEFAULT_KITSU_API_URL } from '../config/harnessConfig.ts';
import { MEDIA_CONTRACT } from '../rules/mediaContract.ts';
import { DEPRECATED_RELATIONSHIPS, ROUTES_NOT_SERVED_ON_LIVE, MEDIA_RELATIONSHIPS, mediaRoutes, type MediaRoute } from '../rules/mediaRoutes.ts';
import { mediaResponseSchema } from '../schemas/mediaResponseSchema.ts';
import { definitionForCollection } from '../twins/media/registry.ts';
import { JSON_SCHEMA_DIALECT, componentSchemas, schemaRef } from './componentSchemas.ts';
import { OPENAPI_VERSION, addOperation, operationId, placeholders, samplePath, sentence, statusText } from './document.ts';
import type { JsonObject, OpenApiDocument, Operation, Paths } from './document.ts';
import { mediaExamples, type MediaExamples } from './mediaExamples.ts';

const MEDIA_TYPE = MEDIA_CONTRACT.mediaType;
/** {base_url}: the host, without the /api/edge every route carries. */
const DEFAULT_BASE_URL = DEFAULT_KITSU_API_URL.slice(0, -MEDIA_CONTRACT.edgePrefix.length);
const TOKEN_URL = `${DEFAULT_BASE_URL}${MEDIA_CONTRACT.oauthTokenPath}`;

const ref = (kind: string, name: string): JsonObject => ({ $ref: `#/components/${kind}/${name}` });

const KIND_LABELS: Readonly<Record<MediaRoute['kind'], string>> = {
  standard: 'standard resource routes (set C)',
  'read-only': 'read-only routes',
  special: 'special routes',
};

const STANDARD_SUMMARIES: Readonly<Record<string, (collection: string) => string>> = {
  index: (collection) => `List ${collection}`,
  create: (collection) => `Create one of ${collection}`,
  show: (collection) => `Show one of ${collection}`,
  update: (collection) => `Update one of ${collection}`,
  destroy: (collection) => `Delete one of ${collection}`,
};

function summaryOf(route: MediaRoute, collection: string): string {
  if (route.kind === 'special') return sentence(route.operation);
  const summary = STANDARD_SUMMARIES[route.operation];
  if (!summary) throw new Error(`mediaOpenApi: no summary for the ${route.operation} operation; add one to STANDARD_SUMMARIES`);
  return `${summary(collection)}${route.method === 'PUT' ? ' (PUT, same as PATCH)' : ''}`;
}

/**
 * Success codes per route are not shown in the spec; the field notes give
 * POST 201, PATCH 200, DELETE 204. Special POSTs vary (an invite accept is
 * 201, a decline 200), so they are documented as a range.
 */
function successStatus(route: MediaRoute): string {
  if (route.method === 'POST') return route.kind === 'special' ? '2XX' : '201';
  return route.method === 'DELETE' ? '204' : '200';
}

const SUCCESS_TEXT: Readonly<Record<string, string>> = {
  '201': `${statusText('201')}, with a Location header (field notes: Media type, keys, ids).`,
  '204': `${statusText('204')}: no body (field notes: Media type, keys, ids).`,
  '2XX': 'Success; the status code of this route is not shown in the spec.',
};

function successAnswer(route: MediaRoute, examples: MediaExamples): Record<string, JsonObject> {
  const status = successStatus(route);
  const description = SUCCESS_TEXT[status] ?? statusText(status);
  if (status === '204') return { [status]: { description } };
  const schema = mediaResponseSchema(route.method, samplePath(route.path, '1'), status === '2XX' ? 200 : Number(status));
  const collection = route.path.split('/')[1]!;
  const example = route.kind !== 'special' && route.method === 'GET' ? examples(collection)[route.operation === 'index' ? 'index' : 'show'] : undefined;
  return {
    [status]: {
      description: schema ? description : `${description} The body is not a JSON:API document (field notes: a bare {}).`,
      ...(status === '201' ? { headers: { Location: { description: 'URL of the new resource.', schema: { type: 'string', format: 'uri' } } } } : {}),
      ...(schema ? { content: { [MEDIA_TYPE]: { schema: schemaRef(schema), ...(example === undefined ? {} : { example }) } } } : {}),
    },
  };
}

function pathParameter(name: string): JsonObject {
  return {
    name,
    in: 'path',
    required: true,
    description:
      name === 'id'
        ? 'Resource identifier: a string (spec: Identifier segments are strings).'
        : `The ${name} segment; its allowed values are not shown in the spec.`,
    schema: { type: 'string' },
  };
}

/** page[limit] as MEDIA_CONTRACT gives it for `collection`: most stop at 20, library entries at 500. */
function pageLimit(collection: string): JsonObject {
  const maximum = MEDIA_CONTRACT.maxLimitByCollection[collection] ?? MEDIA_CONTRACT.maxLimit;
  return {
    name: 'page[limit]',
    in: 'query',
    description: `Page size of the offset paginator (field notes: Pagination); more than ${maximum} answers 400 Invalid page value.`,
    schema: { type: 'integer', minimum: 1, maximum, default: MEDIA_CONTRACT.defaultLimit },
  };
}

function queryParameters(route: MediaRoute, collection: string): JsonObject[] {
  if (route.kind === 'special' || route.method !== 'GET') return [];
  if (route.operation === 'show') return [ref('parameters', 'include'), ref('parameters', 'fields')];
  const paginated = !MEDIA_CONTRACT.unpaginatedCollections.includes(collection);
  return [
    ...(paginated ? [pageLimit(collection), ref('parameters', 'page-offset')] : []),
    ref('parameters', 'filter'),
    ref('parameters', 'sort'),
    ref('parameters', 'include'),
    ref('parameters', 'fields'),
  ];
}

function descriptionOf(route: MediaRoute, collection: string): string | undefined {
  const notes: string[] = [];
  if (route.kind !== 'special' && route.operation === 'index') {
    notes.push(
      MEDIA_CONTRACT.unpaginatedCollections.includes(collection)
        ? 'Not paginated: the whole collection, with meta.count (field notes: Pagination).'
        : 'One page of the collection, with meta.count and first/prev/next/last links (field notes: Pagination).',
    );
    // The real LibraryEntriesController refuses an unfiltered index (field notes: Filters).
    if (definitionForCollection(collection)?.requiresFilter) notes.push('At least one filter is required, else 400 No filter provided.');
  }
  const notServed = ROUTES_NOT_SERVED_ON_LIVE[route.path];
  if (notServed) notes.push(`Listed by the spec; ${notServed} (field notes: its absence on live is an observation, not a failure).`);
  return notes.length > 0 ? notes.join(' ') : undefined;
}

function mediaOperation(route: MediaRoute, examples: MediaExamples): Operation {
  const collection = route.path.split('/')[1]!;
  const ids = placeholders(route.path);
  const writes = route.kind === 'standard' && (route.operation === 'create' || route.operation === 'update');
  const description = descriptionOf(route, collection);
  return {
    operationId: operationId(route.method, route.path),
    summary: summaryOf(route, collection),
    ...(description ? { description } : {}),
    tags: [collection],
    parameters: [...ids.map(pathParameter), ...queryParameters(route, collection)],
    ...(writes ? { requestBody: ref('requestBodies', 'resource-document') } : {}),
    // One 4XX answer rather than one per status: they share the error document, and every copy costs Prism start-up time.
    responses: { ...successAnswer(route, examples), '4XX': ref('responses', 'error-document') },
  };
}

/** The Doorkeeper endpoints beside /api/edge (field notes: Authentication): not routes of the spec's table. */
function oauthOperations(paths: Paths): void {
  const servers = [{ url: '{base_url}', variables: { base_url: { default: DEFAULT_BASE_URL, description: 'The host, without /api/edge.' } } }];
  const oauthError = { description: 'An OAuth 2 error (RFC 6749, section 5.2).', content: { 'application/json': { schema: schemaRef('media/oauth-error') } } };
  const form = (properties: JsonObject, required: string[]): JsonObject => ({
    required: true,
    content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', required, properties } } },
  });
  addOperation(paths, MEDIA_CONTRACT.oauthTokenPath, 'POST', {
    operationId: operationId('POST', MEDIA_CONTRACT.oauthTokenPath),
    summary: 'Request or refresh an access token',
    description: `The password grant (username, password) or the refresh_token grant; tokens last ${MEDIA_CONTRACT.tokenLifetimeSeconds / 86_400} days (field notes: Authentication).`,
    tags: ['oauth'],
    servers,
    security: [{}],
    requestBody: form(
      {
        grant_type: { enum: ['password', 'refresh_token'] },
        username: { type: 'string' },
        password: { type: 'string' },
        refresh_token: { type: 'string' },
      },
      ['grant_type'],
    ),
    responses: {
      200: { description: statusText('200'), content: { 'application/json': { schema: schemaRef('media/oauth-token') } } },
      400: oauthError,
      401: oauthError,
    },
  });
  addOperation(paths, MEDIA_CONTRACT.oauthRevokePath, 'POST', {
    operationId: operationId('POST', MEDIA_CONTRACT.oauthRevokePath),
    summary: 'Revoke a token',
    description: 'Revokes an access or refresh token (field notes: Authentication); the body of the answer is not shown.',
    tags: ['oauth'],
    servers,
    security: [{}],
    requestBody: form({ token: { type: 'string' } }, ['token']),
    responses: { 200: { description: statusText('200') } },
  });
}

function tagsOf(routes: readonly MediaRoute[]): JsonObject[] {
  const kinds = new Map<string, Set<MediaRoute['kind']>>();
  for (const route of routes) {
    const tag = route.path.split('/')[1]!;
    kinds.set(tag, (kinds.get(tag) ?? new Set()).add(route.kind));
  }
  const tags = [...kinds].map(([name, of]) => {
    const relationships = Object.keys(MEDIA_RELATIONSHIPS).filter((relationship) => MEDIA_RELATIONSHIPS[relationship]!.includes(name));
    const description = sentence([...of].map((kind) => KIND_LABELS[kind]).join(' and '));
    return { name, description: relationships.length > 0 ? `${description}. Relationships: ${relationships.join(', ')}.` : `${description}.` };
  });
  return [...tags, { name: 'oauth', description: 'OAuth 2 token endpoints (field notes: Authentication).' }];
}

function sharedParameters(): Record<string, JsonObject> {
  const deepObject = (name: string, description: string): JsonObject => ({
    name,
    in: 'query',
    description,
    style: 'deepObject',
    explode: true,
    schema: { type: 'object', additionalProperties: { type: 'string' } },
  });
  return {
    'page-offset': {
      name: 'page[offset]',
      in: 'query',
      description: 'Records to skip (field notes: Pagination).',
      schema: { type: 'integer', minimum: 0, default: 0 },
    },
    filter: deepObject(
      'filter',
      '`filter[<name>]=<value>`, comma lists allowed. Filters exist per resource; their names and values are not shown in the spec (field notes: Filters, sort, include, fields).',
    ),
    sort: {
      name: 'sort',
      in: 'query',
      description: 'Sort fields, comma-separated, `-` for descending: `-averageRating,startDate`.',
      schema: { type: 'string' },
    },
    include: {
      name: 'include',
      in: 'query',
      description: 'Relationship paths to include, comma-separated: `categories,mediaRelationships.destination`.',
      schema: { type: 'string' },
    },
    fields: deepObject('fields', 'Sparse fieldsets: `fields[<type>]=<member>,<member>`.'),
  };
}

export function mediaOpenApi(): OpenApiDocument {
  const routes = mediaRoutes();
  const examples = mediaExamples(DEFAULT_KITSU_API_URL);
  const paths: Paths = {};
  for (const route of routes) addOperation(paths, route.path, route.method, mediaOperation(route, examples));
  oauthOperations(paths);
  return {
    openapi: OPENAPI_VERSION,
    jsonSchemaDialect: JSON_SCHEMA_DIALECT,
    info: mediaInfo(),
    servers: [
      {
        url: `{base_url}${MEDIA_CONTRACT.edgePrefix}`,
        description: `Every route is under {base_url}${MEDIA_CONTRACT.edgePrefix} (spec: Versioning).`,
        variables: { base_url: { default: DEFAULT_BASE_URL, description: 'The host: https://kitsu.io, https://kitsu.app, or the media twin.' } },
      },
    ],
    // Some reads work without authentication (spec: Authentication).
    security: [{}, { oauth2: [] }],
    tags: tagsOf(routes),
    paths,
    components: mediaComponents(),
  };
}

/** The document's title and description: where it comes from, and the API's ground rules a reader needs first. */
function mediaInfo(): OpenApiDocument['info'] {
  const deprecated = Object.entries(DEPRECATED_RELATIONSHIPS).map(
    ([name, replacement]) => `${name} (${replacement ? `use ${replacement}` : 'no replacement'})`,
  );
  return {
    title: 'Media Tracking API',
    version: MEDIA_CONTRACT.edgePrefix.split('/').pop()!,
    description: [
      'The media tracking and community interface (anime and manga catalogue, libraries, social features, groups) as the contract-verification harness states it: the contract (media-tracking-api.md) and, where it says "not shown", the field notes on the real service.',
      "Generated by `npm run openapi` from the harness's JSON Schemas (contracts/media/schemas), its route table (src/rules/mediaRoutes.ts) and src/schemas/mediaResponseSchema.ts: edit those, not this file. The examples are the media twin's seed.",
      'Bodies are JSON:API documents; identifiers are strings. A media item flagged as adult content is hidden from unauthenticated requests: requesting it answers 404.',
      `Deprecated relationships, kept as empty relationships marked deprecated: ${deprecated.join(', ')}.`,
    ].join('\n\n'),
  };
}

/** The schemas, shared parameters, the resource-document body, the error answer and OAuth 2. */
function mediaComponents(): OpenApiDocument['components'] {
  return {
    schemas: componentSchemas('media'),
    parameters: sharedParameters(),
    requestBodies: {
      'resource-document': resourceDocumentBody(),
    },
    responses: {
      'error-document': {
        description:
          'A JSON:API error document (spec: Errors; status codes by condition: not shown). A missing record, or one hidden from this viewer (adult-flagged media without authentication), answers 404 (spec: Visibility).',
        content: { [MEDIA_TYPE]: { schema: schemaRef('media/error-document') } },
      },
    },
    securitySchemes: {
      oauth2: {
        type: 'oauth2',
        description: `OAuth 2 (spec: Authentication; its addresses and scopes are not shown). The field notes give the password and refresh_token grants at {base_url}${MEDIA_CONTRACT.oauthTokenPath} and requests that send Authorization: Bearer <token>.`,
        flows: { password: { tokenUrl: TOKEN_URL, refreshUrl: TOKEN_URL, scopes: {} } },
      },
    },
  };
}

/** What every write sends: one JSON:API resource object (its attributes per route are not shown in the spec). */
function resourceDocumentBody(): JsonObject {
  return {
    required: true,
    description:
      'A JSON:API document whose data is one resource object: type, attributes, relationships; no id on create, the id of the URL on update. Request attributes per route: not shown in the spec.',
    content: {
      [MEDIA_TYPE]: {
        schema: {
          type: 'object',
          required: ['data'],
          properties: {
            data: {
              type: 'object',
              required: ['type'],
              properties: { id: { type: 'string' }, type: { type: 'string' }, attributes: { type: 'object' }, relationships: { type: 'object' } },
            },
          },
        },
      },
    },
  };
}
