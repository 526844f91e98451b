/**
 * `npm run openapi`: writes the OpenAPI 3.1 documents of both APIs to
 * contracts/openapi/, generated from the contract's JSON Schemas and route
 * tables (src/openapi/).
 *
 *   npm run openapi               write them
 *   npm run openapi -- --check    exit 1 when the committed files differ from what the generator makes
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { OPENAPI_DIR, OPENAPI_FILES, committedOpenApi, renderOpenApi } from '../src/openapi/openApiFiles.ts';
import type { OpenApiDocument } from '../src/openapi/document.ts';

function operationCount(text: string): number {
  const { paths } = JSON.parse(text) as OpenApiDocument;
  return Object.values(paths).reduce((count, item) => count + Object.keys(item).length, 0);
}

async function main(argv: readonly string[]): Promise<number> {
  const unknown = argv.filter((arg) => arg !== '--check');
  if (unknown.length > 0) {
    console.error(`openapi: unknown argument ${unknown.join(' ')}. Use npm run openapi, or npm run openapi -- --check.`);
    return 2;
  }
  const check = argv.includes('--check');
  const stale: string[] = [];
  if (!check) await mkdir(OPENAPI_DIR, { recursive: true });
  for (const file of OPENAPI_FILES) {
    const text = await renderOpenApi(file);
    if (check) {
      const committed = await committedOpenApi(file);
      if (committed !== text) stale.push(`${file.name} ${committed === undefined ? 'is missing' : 'differs from the generator'}`);
      continue;
    }
    await writeFile(file.path, text);
    console.log(`openapi: wrote ${file.name} (${operationCount(text)} operations, ${Math.round(text.length / 1024)} KiB)`);
  }
  if (stale.length > 0) {
    console.error(`openapi: ${stale.join('; ')}. Run npm run openapi and commit the result.`);
    return 1;
  }
  if (check) console.log(`openapi: ${OPENAPI_FILES.map((file) => file.name).join(' and ')} are up to date`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
