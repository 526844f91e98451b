/**
 * The OpenAPI documents as the generator makes them now, built once per
 * worker for the tests of this folder.
 */
import { OPENAPI_FILES, renderOpenApi, type OpenApiFile } from '../../../src/openapi/openApiFiles.ts';
import type { OpenApiDocument, Operation } from '../../../src/openapi/document.ts';

export interface GeneratedDocument {
  readonly file: OpenApiFile;
  readonly text: string;
  readonly document: OpenApiDocument;
}

let generated: Promise<GeneratedDocument[]> | undefined;

export function generatedDocuments(): Promise<GeneratedDocument[]> {
  generated ??= Promise.all(
    OPENAPI_FILES.map(async (file) => {
      const text = await renderOpenApi(file);
      return { file, text, document: JSON.parse(text) as OpenApiDocument };
    }),
  );
  return generated;
}

export async function generatedDocument(api: string): Promise<GeneratedDocument> {
  const found = (await generatedDocuments()).find((generated) => generated.file.api === api);
  if (!found) throw new Error(`generatedDocument: no document for ${api}`);
  return found;
}

/** Every operation with its method (upper case) and path. */
export function operationsOf(document: OpenApiDocument): { method: string; path: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
}
