/**
 * The committed OpenAPI documents (contracts/openapi/) and how each is made:
 * one list for `npm run openapi` (write or --check) and for the unit test that
 * holds the committed files to the generator.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import type { OpenApiDocument } from './document.ts';
import { mediaOpenApi } from './mediaOpenApi.ts';
import { storeOpenApi } from './storeOpenApi.ts';

export const OPENAPI_DIR = fileURLToPath(new URL('../../contracts/openapi/', import.meta.url));

export interface OpenApiFile {
  /** `store` or `media`: whose contract schemas (contracts/<api>/schemas) the components are. */
  readonly api: string;
  /** Relative to the repository: `contracts/openapi/store-commerce-api.openapi.json`. */
  readonly name: string;
  readonly path: string;
  readonly build: () => OpenApiDocument | Promise<OpenApiDocument>;
}

function openApiFile(api: string, fileName: string, build: OpenApiFile['build']): OpenApiFile {
  return { api, name: `contracts/openapi/${fileName}`, path: join(OPENAPI_DIR, fileName), build };
}

export const OPENAPI_FILES: readonly OpenApiFile[] = [
  openApiFile('store', 'store-commerce-api.openapi.json', storeOpenApi),
  openApiFile('media', 'media-tracking-api.openapi.json', mediaOpenApi),
];

/** The file's text as the generator makes it now: JSON in the repository's Prettier style, so `prettier --check` agrees. */
export async function renderOpenApi(file: OpenApiFile): Promise<string> {
  const document = await file.build();
  const options = await prettier.resolveConfig(file.path);
  return prettier.format(JSON.stringify(document), { ...options, filepath: file.path });
}

/** The committed text, or undefined when the file is missing. */
export async function committedOpenApi(file: OpenApiFile): Promise<string | undefined> {
  try {
    return await readFile(file.path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
