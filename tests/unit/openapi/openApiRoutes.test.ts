import { expect, test } from '../../../src/testing/harnessTest.ts';
import { schemaRef } from '../../../src/openapi/componentSchemas.ts';
import { samplePath, type JsonObject } from '../../../src/openapi/document.ts';
import { storePathTemplate } from '../../../src/openapi/storeOpenApi.ts';
import { MEDIA_CONTRACT } from '../../../src/rules/mediaContract.ts';
import { mediaRoutes } from '../../../src/rules/mediaRoutes.ts';
import { STORE_CONTRACT } from '../../../src/rules/storeContract.ts';
import { mediaResponseSchema } from '../../../src/schemas/mediaResponseSchema.ts';
import { STORE_RESPONSE_ROUTES } from '../../../src/schemas/storeResponseSchema.ts';
import { formatIssues, validate } from '../../../src/schemas/validate.ts';
import { generatedDocument, generatedDocuments, operationsOf } from './generatedDocuments.ts';

const STORE_JSON = STORE_CONTRACT.jsonContentType.split(';')[0]!;
const COMPONENTS = '#/components/schemas/';

interface MediaTypeObject {
  readonly schema?: JsonObject;
  readonly example?: unknown;
}

function contentOf(response: JsonObject | undefined, mediaType: string): MediaTypeObject | undefined {
  return (response?.['content'] as Record<string, MediaTypeObject> | undefined)?.[mediaType];
}

test('every route of mediaRoutes() is an operation, answering the schema mediaResponseSchema names', async () => {
  const { document } = await generatedDocument('media');
  const problems: string[] = [];
  for (const route of mediaRoutes()) {
    const operation = document.paths[route.path]?.[route.method.toLowerCase()];
    if (!operation) {
      problems.push(`${route.method} ${route.path} is not an operation`);
      continue;
    }
    const [status, success] = Object.entries(operation.responses).find(([code]) => code.startsWith('2'))!;
    const expected = mediaResponseSchema(route.method, samplePath(route.path, '1'), status === '2XX' ? 200 : Number(status));
    const actual = contentOf(success, MEDIA_CONTRACT.mediaType)?.schema;
    if (JSON.stringify(actual) !== JSON.stringify(expected ? schemaRef(expected) : undefined)) {
      problems.push(`${route.method} ${route.path} ${status} answers ${JSON.stringify(actual)}, not ${expected ?? 'no body schema'}`);
    }
  }
  expect(problems).toEqual([]);
});

test('every route of the store response table is an operation, with each of its statuses and its schema', async () => {
  const { document } = await generatedDocument('store');
  for (const route of STORE_RESPONSE_ROUTES) {
    const path = storePathTemplate(route.pattern);
    expect(route.pattern.test(samplePath(path, '1')), `${path} is a path of ${route.pattern}`).toBe(true);
    const operation = document.paths[path]?.[route.method.toLowerCase()];
    expect(operation, `${route.method} ${path} is an operation`).toBeDefined();
    for (const status of route.status) {
      expect(contentOf(operation?.responses[status], STORE_JSON)?.schema, `${route.method} ${path} ${status}`).toEqual(schemaRef(route.schema));
    }
  }
  expect(operationsOf(document).length, 'no operation beyond the table').toBe(STORE_RESPONSE_ROUTES.length);
});

test('every list and single-resource GET has a 200 example', async () => {
  const { document: media } = await generatedDocument('media');
  for (const route of mediaRoutes().filter((r) => r.kind !== 'special' && r.method === 'GET')) {
    const example = contentOf(media.paths[route.path]?.get?.responses['200'], MEDIA_CONTRACT.mediaType)?.example;
    expect(example, `GET ${route.path} has an example`).toBeDefined();
  }
  const { document: store } = await generatedDocument('store');
  for (const route of STORE_RESPONSE_ROUTES.filter((r) => r.method === 'GET')) {
    const path = storePathTemplate(route.pattern);
    expect(contentOf(store.paths[path]?.get?.responses['200'], STORE_JSON)?.example, `GET ${path} has an example`).toBeDefined();
  }
});

test('every example validates against its own response schema', async () => {
  const problems: string[] = [];
  let checked = 0;
  for (const { file, document } of await generatedDocuments()) {
    for (const { method, path, operation } of operationsOf(document)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const [mediaType, content] of Object.entries((response['content'] ?? {}) as Record<string, MediaTypeObject>)) {
          if (content.example === undefined) continue;
          const where = `${file.name}: ${method} ${path} ${status} ${mediaType}`;
          const ref = content.schema?.['$ref'];
          if (typeof ref !== 'string' || !ref.startsWith(COMPONENTS)) {
            problems.push(`${where}: the example's schema is not a component`);
            continue;
          }
          const result = validate(`${file.api}/${ref.slice(COMPONENTS.length)}`, content.example);
          if (!result.valid) problems.push(`${where}: the example breaks ${ref}:\n${formatIssues(result.errors)}`);
          checked += 1;
        }
      }
    }
  }
  expect(problems).toEqual([]);
  expect(checked, 'examples checked').toBeGreaterThan(0);
});
