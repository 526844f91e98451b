import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { HARNESS_USER_AGENT } from '../../../src/config/harnessConfig.ts';
import { OPENAPI_FILES } from '../../../src/openapi/openApiFiles.ts';
import { MEDIA_CONTRACT } from '../../../src/rules/mediaContract.ts';
import { STORE_CONTRACT } from '../../../src/rules/storeContract.ts';
import { formatIssues, validate } from '../../../src/schemas/validate.ts';

const PRISM = fileURLToPath(new URL('../../../node_modules/.bin/prism', import.meta.url));
const START_TIMEOUT_MS = 30_000;

interface LaunchedPrism {
  /** The URL from Prism's "Prism is listening on ..." line. */
  readonly ready: Promise<string>;
  stop(): Promise<void>;
}

/** `prism mock <file>` on a port the system picks (-p 0): Prism prints the one it got. */
function launchPrism(file: string): LaunchedPrism {
  const child = spawn(process.execPath, [PRISM, 'mock', file, '-p', '0'], {
    env: { ...process.env, SCARF_ANALYTICS: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const failed = (why: string): Error =>
    new Error(`prism mock ${file} ${why}. Its output:\n${output.slice(-2000) || '(none)'}\nCheck that npm ci installed @stoplight/prism-cli.`);
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(failed(`printed no "Prism is listening" line within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    const read = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const url = /Prism is listening on (http:\/\/[\w.:[\]-]+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(failed(`could not start: ${error.message}`));
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(failed(`exited (${signal ?? `code ${code}`}) before listening`));
    });
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    ready,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

function fileOf(api: string): string {
  const file = OPENAPI_FILES.find((candidate) => candidate.api === api);
  if (!file) throw new Error(`no OpenAPI file for ${api}`);
  return file.path;
}

async function expectValidBody(response: Response, schemaId: string): Promise<void> {
  const text = await response.text();
  expect(response.status, `${response.url} answered ${response.status}: ${text.slice(0, 300)}`).toBe(200);
  const result = validate(schemaId, JSON.parse(text));
  expect(result.valid, `Prism's answer to ${response.url} breaks ${schemaId}:\n${formatIssues(result.errors)}`).toBe(true);
}

test('Prism mocks both committed documents, answering their list operations with bodies our schemas accept', async () => {
  test.setTimeout(60_000);
  const store = launchPrism(fileOf('store'));
  const media = launchPrism(fileOf('media'));
  try {
    const [storeUrl, mediaUrl] = await Promise.all([store.ready, media.ready]);
    const products = await fetch(`${storeUrl}/products`, {
      headers: { 'User-Agent': HARNESS_USER_AGENT, Authentication: `${STORE_CONTRACT.tokenScheme} prism-token` },
    });
    await expectValidBody(products, 'store/product-list');
    const anime = await fetch(`${mediaUrl}/anime`, { headers: { Accept: MEDIA_CONTRACT.mediaType } });
    expect(anime.headers.get('content-type')).toContain(MEDIA_CONTRACT.mediaType);
    await expectValidBody(anime, 'media/anime-collection');
  } finally {
    await Promise.all([store.stop(), media.stop()]);
  }
});
