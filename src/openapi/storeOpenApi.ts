/**
 * The Store Commerce API as an OpenAPI 3.1 document, generated from the
 * harness's own sources of truth: the response-schema table
 * (src/schemas/storeResponseSchema.ts) for the operations and their bodies,
 * the contract's JSON Schemas for the components, STORE_CONTRACT for headers,
 * content type and page sizes, and the store twin's seed for the examples.
 * Error statuses are those the spec or its field notes document; where a body
 * is "not specified in the interface", the response has no content.
 */
import { DEFAULT_STORE_API_URL, DEFAULT_STORE_TWIN_PORT, HARNESS_USER_AGENT, TWIN_HOST } from '../config/harnessConfig.ts';
import { STORE_CONTRACT } from '../rules/storeContract.ts';
import { STORE_RESPONSE_ROUTES, storeResponseSchema, type StoreResponseRoute } from '../schemas/storeResponseSchema.ts';
import { JSON_SCHEMA_DIALECT, componentSchemas, schemaRef } from './componentSchemas.ts';
import { OPENAPI_VERSION, addOperation, operationId, placeholders, samplePath, singular, statusText } from './document.ts';
import type { JsonObject, OpenApiDocument, Operation, Paths } from './document.ts';
import { storeExamples, type StoreExample, type StoreExamples } from './storeExamples.ts';

const JSON_TYPE = STORE_CONTRACT.jsonContentType.split(';')[0]!;
const ID_PATTERN = '\\d+';
const WITH_BODY: ReadonlySet<string> = new Set(['POST', 'PUT']);

/** `authentication` → `Authentication`: the spelling the spec writes. */
function headerName(lowerCase: string): string {
  return lowerCase.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`);
}

/** `/products/{product_id}` from the table's `^\/products\/\d+$`: literal segments, and an id named after the collection before it. */
export function storePathTemplate(pattern: RegExp): string {
  const segments = pattern.source.replace(/^\^/, '').replace(/\$$/, '').split('\\/').slice(1);
  const template = segments.map((segment, i) => {
    if (segment === ID_PATTERN && i > 0) return `{${singular(segments[i - 1]!)}_id}`;
    if (/^[a-z_]+$/.test(segment)) return segment;
    throw new Error(`storeOpenApi: cannot read a path from ${pattern}: teach storePathTemplate the segment ${segment}`);
  });
  return `/${template.join('/')}`;
}

const ref = (kind: string, name: string): JsonObject => ({ $ref: `#/components/${kind}/${name}` });

const RATE_HEADERS = ['X-Rate-Limit-Limit', 'X-Rate-Limit-Remaining', 'X-Rate-Limit-Reset'];

function headers(mainLanguage: string): Record<string, JsonObject> {
  return {
    'X-Main-Language': {
      description: "The store's main language code; every response carries it (spec: Localized properties).",
      required: true,
      schema: schemaRef('store/localized', '/$defs/language-code'),
      example: mainLanguage,
    },
    'X-Rate-Limit-Limit': {
      description: 'Total requests allowed in the period, equal to the bucket size (spec: Limits).',
      schema: { type: 'integer', minimum: 0 },
      example: STORE_CONTRACT.bucketSize,
    },
    'X-Rate-Limit-Remaining': {
      description: 'Requests remaining before the bucket is full (spec: Limits).',
      schema: { type: 'integer', minimum: 0 },
      example: STORE_CONTRACT.bucketSize - 1,
    },
    'X-Rate-Limit-Reset': {
      description: 'Milliseconds remaining until the bucket is completely empty (spec: Limits).',
      schema: { type: 'integer', minimum: 0 },
      example: 1000 / STORE_CONTRACT.leakPerSecond,
    },
  };
}

/** The headers of a collection (spec: Common request rules 5), with the twin's values for its example page; none for a single resource. */
function collectionHeaders(example: StoreExample): Record<string, JsonObject> {
  const total = example.headers['X-Total-Count'];
  const link = example.headers['Link'];
  if (total === undefined) return {};
  return {
    'X-Total-Count': {
      description: 'Total number of results of the collection.',
      required: true,
      schema: { type: 'integer', minimum: 0 },
      example: Number(total),
    },
    Link: {
      description: `Full URLs of other pages, with rel values ${STORE_CONTRACT.linkRels.join(', ')}; clients follow them and do not build page URLs.`,
      schema: { type: 'string' },
      ...(link === undefined ? {} : { example: link }),
    },
  };
}

/** Headers of every answer: the main language and the rate headers. */
function answerHeaders(): Record<string, JsonObject> {
  return Object.fromEntries(['X-Main-Language', ...RATE_HEADERS].map((name) => [name, ref('headers', name)]));
}

/** An answer; `schema` only where the spec or its field notes give the body. */
function answer(description: string, schema?: string, example?: StoreExample): JsonObject {
  const body = schema ? { schema: schemaRef(schema), ...(example ? { example: example.body } : {}) } : undefined;
  return {
    description,
    headers: { ...answerHeaders(), ...(example ? collectionHeaders(example) : {}) },
    ...(body ? { content: { [JSON_TYPE]: body } } : {}),
  };
}

function errorResponses(): Record<string, JsonObject> {
  return {
    'bad-request': answer(
      '400 Bad Request: the User-Agent header is missing (body not specified in the interface), or the request body is not valid JSON (a JSON object with a string member error: #/components/schemas/error-invalid-json). Spec: Errors.',
    ),
    unauthorized: answer(
      '401 Unauthorized: the access token is missing, invalid or not for this store. Not shown in the spec; the body is the standard error of the field notes (Error bodies: "Invalid access token").',
      'store/error-standard',
    ),
    'payment-required': answer(
      "402 Payment Required: the store's subscription was not renewed or the app's recurring price is unpaid; every API call answers it until payment is made. Body not specified in the interface (spec: Errors, States and transitions).",
    ),
    'not-found': answer(
      '404 Not Found: no such resource. Not shown in the spec; the body is the standard error of the field notes (Error bodies: "Category with such id does not exist").',
      'store/error-standard',
    ),
    'page-not-found': answer(
      '404 Not Found: a page past the last, or an empty collection at page 1 ("Last page is N"). Observed in client code, not documented (field notes: Error bodies).',
      'store/error-standard',
    ),
    'unsupported-media-type': answer(
      `415 Unsupported Media Type: a request with a body lacks Content-Type: ${STORE_CONTRACT.jsonContentType}. Body not specified in the interface; the field notes show the standard error.`,
      'store/error-standard',
    ),
    'too-many-requests': answer(
      `429 Too Many Requests: the leaky bucket (${STORE_CONTRACT.bucketSize} requests, leaking ${STORE_CONTRACT.leakPerSecond} per second) is full. Body not specified in the interface (spec: Limits).`,
    ),
    'service-trouble': answer('Service trouble: the client retries later. Body not specified in the interface (spec: Errors).'),
  };
}

function parameters(): Record<string, JsonObject> {
  return {
    'user-agent': {
      name: 'User-Agent',
      in: 'header',
      required: true,
      description:
        'The application name and a link to it or a contact address, e.g. `Some app (<CONTACT_URL_OR_EMAIL>)`; without it the answer is 400 (spec: Authentication).',
      schema: { type: 'string', minLength: 1 },
      example: HARNESS_USER_AGENT,
    },
    page: {
      name: 'page',
      in: 'query',
      description: 'Page number, 1-based; omitting it returns the first page (spec: Limits).',
      schema: { type: 'integer', minimum: 1, default: 1 },
    },
    per_page: {
      name: 'per_page',
      in: 'query',
      description: `Page size: ${STORE_CONTRACT.defaultPerPage} by default, at most ${STORE_CONTRACT.maxPerPage} (spec: Limits; behaviour over the maximum: not shown).`,
      schema: { type: 'integer', minimum: 1, maximum: STORE_CONTRACT.maxPerPage, default: STORE_CONTRACT.defaultPerPage },
    },
  };
}

/** POST and PUT bodies: the contract shows only the localized write forms, so the rest is left open. */
function writeBody(method: string, collection: string): JsonObject {
  return {
    required: method === 'POST',
    description:
      method === 'PUT'
        ? `The ${singular(collection)}'s new values. A PUT without a body must send Content-Length: 0 (spec: Common request rules 4).`
        : `The new ${singular(collection)}.`,
    content: {
      [JSON_TYPE]: {
        schema: {
          type: 'object',
          description:
            'A localized property accepts an object with one value per language code, or a plain string applied to every language (spec: Localized properties). Other fields: not shown.',
          properties: { name: { anyOf: [{ type: 'string' }, schemaRef('store/localized')] } },
        },
      },
    },
  };
}

const SUMMARIES: Readonly<Record<string, (collection: string) => string>> = {
  'GET list': (collection) => `List ${collection}`,
  'GET item': (collection) => `Get a ${singular(collection)}`,
  'POST list': (collection) => `Create a ${singular(collection)}`,
  'PUT item': (collection) => `Replace a ${singular(collection)}`,
};

async function storeOperation(route: StoreResponseRoute, path: string, examples: StoreExamples): Promise<Operation> {
  const [collection = ''] = path.split('/').slice(1);
  const ids = placeholders(path);
  const onCollection = ids.length === 0;
  const summary = SUMMARIES[`${route.method} ${onCollection ? 'list' : 'item'}`];
  if (!summary) throw new Error(`storeOpenApi: no summary for ${route.method} ${path}; add one to SUMMARIES`);
  const listing = route.method === 'GET' && onCollection;
  const success = await successAnswers(route, path, examples);
  const body = WITH_BODY.has(route.method);
  const errors = errorAnswers(route.method, path, onCollection ? (listing ? 'page-not-found' : undefined) : 'not-found');
  return {
    operationId: operationId(route.method, path),
    summary: summary(collection),
    ...(listing ? { description: 'A bare JSON array, paginated (spec: Common request rules 5 and Limits).' } : {}),
    tags: [collection],
    parameters: [
      ref('parameters', 'user-agent'),
      ...ids.map((name) => ({
        name,
        in: 'path',
        required: true,
        description: `Numeric identifier of the ${singular(collection)}.`,
        schema: { type: 'integer', minimum: 1 },
      })),
      ...(listing ? [ref('parameters', 'page'), ref('parameters', 'per_page')] : []),
    ],
    ...(body ? { requestBody: writeBody(route.method, collection) } : {}),
    responses: { ...success, ...errors },
  };
}

/** The route's success statuses; a GET's 200 carries the twin's seed as its example. */
async function successAnswers(route: StoreResponseRoute, path: string, examples: StoreExamples): Promise<Record<string, JsonObject>> {
  const success: Record<string, JsonObject> = {};
  for (const status of route.status) {
    const example = route.method === 'GET' && status === 200 ? await examples.get(path) : undefined;
    success[status] = answer(statusText(String(status)), route.schema, example);
  }
  return success;
}

/** The errors every route can answer, a 404 where there is something to miss, and 415/422 where a body is sent. */
function errorAnswers(method: string, path: string, notFound: string | undefined): Record<string, JsonObject> {
  const body = WITH_BODY.has(method);
  return {
    400: ref('responses', 'bad-request'),
    401: ref('responses', 'unauthorized'),
    402: ref('responses', 'payment-required'),
    ...(notFound ? { 404: ref('responses', notFound) } : {}),
    ...(body ? { 415: ref('responses', 'unsupported-media-type'), 422: validationAnswer(method, path) } : {}),
    429: ref('responses', 'too-many-requests'),
    ...Object.fromEntries(STORE_CONTRACT.retryableStatuses.map((status) => [status, ref('responses', 'service-trouble')])),
  };
}

/** 422 takes the schema the suites hold every 422 to. */
function validationAnswer(method: string, path: string): JsonObject {
  const schema = storeResponseSchema(method, samplePath(path, '1'), 422);
  return answer('422 Unprocessable Entity: a field in the body is invalid (spec: Errors).', schema);
}

export async function storeOpenApi(): Promise<OpenApiDocument> {
  const examples = storeExamples(DEFAULT_STORE_API_URL);
  const paths: Paths = {};
  const tags: string[] = [];
  for (const route of STORE_RESPONSE_ROUTES) {
    const path = storePathTemplate(route.pattern);
    const operation = await storeOperation(route, path, examples);
    addOperation(paths, path, route.method, operation);
    for (const tag of operation.tags) if (!tags.includes(tag)) tags.push(tag);
  }
  return {
    openapi: OPENAPI_VERSION,
    jsonSchemaDialect: JSON_SCHEMA_DIALECT,
    info: storeInfo(),
    servers: storeServers(examples),
    security: [{ 'access-token': [] }],
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      schemas: componentSchemas('store'),
      parameters: parameters(),
      headers: headers(examples.mainLanguage),
      responses: errorResponses(),
      securitySchemes: {
        'access-token': {
          type: 'apiKey',
          in: 'header',
          name: headerName(STORE_CONTRACT.tokenHeader),
          description: `The store's OAuth 2 access token, sent on every request as \`${headerName(STORE_CONTRACT.tokenHeader)}: ${STORE_CONTRACT.tokenScheme} <ACCESS_TOKEN>\` (spec: Authentication). The authorization endpoints, scopes and token lifetime are not shown.`,
        },
      },
    },
  };
}

/** The document's title and description: where it comes from, and the rule every path shares (HEAD). */
function storeInfo(): OpenApiDocument['info'] {
  return {
    title: 'Store Commerce API',
    version: STORE_CONTRACT.version,
    description: [
      'The store-scoped REST interface of a store-hosting platform, as the contract-verification harness states it: the contract (store-commerce-api.md) and, where it says "not shown", the field notes on the real service.',
      "Generated by `npm run openapi` from the harness's JSON Schemas (contracts/store/schemas) and its route table (src/schemas/storeResponseSchema.ts): edit those, not this file.",
      "HEAD is allowed on every resource and answers the headers of the GET without a body (spec: Common request rules 4). The examples are the store twin's seed.",
    ].join('\n\n'),
  };
}

/** One server: the host and the store every path is scoped to, defaulting to the twin's first seeded store. */
function storeServers(examples: StoreExamples): OpenApiDocument['servers'] {
  return [
    {
      url: `{base_url}/${STORE_CONTRACT.version}/{store_id}`,
      description: 'Every path is scoped to one store (spec: Common request rules 1, Versioning).',
      variables: {
        base_url: {
          default: DEFAULT_STORE_API_URL,
          description: `The platform host (https://api.tiendanube.com or https://api.nuvemshop.com.br serve the same paths), or the store twin, e.g. http://${TWIN_HOST}:${DEFAULT_STORE_TWIN_PORT} (npm run twins).`,
        },
        store_id: { default: String(examples.storeId), description: "Numeric identifier of the store; the default is the twin's first seeded store." },
      },
    },
  ];
}
