import { Validator } from '@seriousme/openapi-schema-validator';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { OPENAPI_FILES, committedOpenApi } from '../../../src/openapi/openApiFiles.ts';
import { generatedDocument, operationsOf } from './generatedDocuments.ts';

/** Where two texts first part, as `line N: <committed> / <generated>`, so a stale file reads at a glance. */
function firstDifference(committed: string, generated: string): string {
  const a = committed.split('\n');
  const b = generated.split('\n');
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}: committed ${JSON.stringify(a[at] ?? '<end of file>')}, generated ${JSON.stringify(b[at] ?? '<end of file>')}`;
}

for (const file of OPENAPI_FILES) {
  test.describe(file.name, () => {
    test('is valid OpenAPI 3.1, and every $ref resolves', async () => {
      const { document } = await generatedDocument(file.api);
      const validator = new Validator();
      // The validator resolves $refs in place: give it a copy, not the document the other tests read.
      const result = await validator.validate(structuredClone(document));
      expect(result.errors, `${file.name} breaks the OpenAPI schema`).toBeUndefined();
      expect(result.valid).toBe(true);
      expect(validator.version).toBe('3.1');
      expect(() => validator.resolveRefs(), `${file.name} has a $ref that does not resolve`).not.toThrow();
    });

    test('is committed as the generator makes it now', async () => {
      const { text } = await generatedDocument(file.api);
      const committed = await committedOpenApi(file);
      expect(committed, `${file.name} is missing: run npm run openapi and commit it`).toBeDefined();
      expect(committed === text, `${file.name} is stale (${firstDifference(committed ?? '', text)}): run npm run openapi and commit the result`).toBe(true);
    });

    test('names every operation once, with a summary and declared tags', async () => {
      const { document } = await generatedDocument(file.api);
      const operations = operationsOf(document);
      const ids = operations.map(({ operation }) => operation.operationId);
      expect(new Set(ids).size, 'operationIds are unique').toBe(ids.length);
      const declared = new Set((document['tags'] as { name: string }[]).map((tag) => tag.name));
      const problems = operations.flatMap(({ method, path, operation }) => [
        ...(operation.summary.trim() === '' ? [`${method} ${path} has no summary`] : []),
        ...(operation.tags.length === 0 ? [`${method} ${path} has no tag`] : []),
        ...operation.tags.filter((tag) => !declared.has(tag)).map((tag) => `${method} ${path}: tag ${tag} is not declared in the top-level tags`),
      ]);
      expect(problems).toEqual([]);
    });
  });
}
