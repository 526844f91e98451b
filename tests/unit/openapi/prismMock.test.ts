/**
 * Prism reads the committed OpenAPI documents (contracts/openapi/) and mocks them with bodies our schemas accept: the
 * benches measure the twins against Prism serving those documents (bench/twinThroughput.ts, which starts `prism mock`).
 * Here Prism's own HTTP client (@stoplight/prism-http, the engine `prism mock` serves: the same operations read from the
 * document, router, validator and mocker) answers in this process, with the CLI's defaults: two `prism mock` processes
 * were about 4.5 s of CPU in every gate for the same answers.
 */
import prismCore from '@stoplight/prism-core';
import prismHttp from '@stoplight/prism-http';
import prismClient from '@stoplight/prism-http/dist/client.js';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { HARNESS_USER_AGENT } from '../../../src/config/harnessConfig.ts';
import { OPENAPI_FILES } from '../../../src/openapi/openApiFiles.ts';
import { MEDIA_CONTRACT } from '../../../src/rules/mediaContract.ts';
import { STORE_CONTRACT } from '../../../src/rules/storeContract.ts';
import { formatIssues, validate } from '../../../src/schemas/validate.ts';

/** Prism's client on one committed document, configured as `prism mock` is by default (static examples, checks on). */
async function prismOn(api: string): Promise<ReturnType<typeof prismClient.createClientFromOperations>> {
  const file = OPENAPI_FILES.find((candidate) => candidate.api === api);
  if (!file) throw new Error(`no OpenAPI file for ${api}`);
  const operations = await prismHttp.getHttpOperationsFromSpec(file.path);
  return prismClient.createClientFromOperations(operations, {
    mock: { dynamic: false },
    checkSecurity: true,
    validateRequest: true,
    validateResponse: true,
    errors: false,
    upstreamProxy: undefined,
    isProxy: false,
    // Prism's logger: its mocker logs at a level of its own (success); nothing is printed.
    logger: prismCore.createLogger('prism-mock-test', { enabled: false }),
  });
}

function expectValidBody(answer: { status: number; data: unknown; request: { url: { path: string } } }, schemaId: string): void {
  const path = answer.request.url.path;
  expect(answer.status, `Prism answered ${path} with ${answer.status}: ${JSON.stringify(answer.data).slice(0, 300)}`).toBe(200);
  const result = validate(schemaId, answer.data);
  expect(result.valid, `Prism's answer to ${path} breaks ${schemaId}:\n${formatIssues(result.errors)}`).toBe(true);
}

test('Prism mocks both committed documents, answering their list operations with bodies our schemas accept', async () => {
  const store = await prismOn('store');
  const products = await store.get('/products', {
    headers: { 'user-agent': HARNESS_USER_AGENT, authentication: `${STORE_CONTRACT.tokenScheme} prism-token` },
  });
  expectValidBody(products, 'store/product-list');

  const media = await prismOn('media');
  const anime = await media.get('/anime', { headers: { accept: MEDIA_CONTRACT.mediaType } });
  const contentType = Object.entries(anime.headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  expect(String(contentType)).toContain(MEDIA_CONTRACT.mediaType);
  expectValidBody(anime, 'media/anime-collection');
});
