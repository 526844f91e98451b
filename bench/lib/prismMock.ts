/**
 * Prism (@stoplight/prism-cli) mocking an API from its OpenAPI document, in a
 * child process: the throughput bench's third server. The documents come from
 * `npm run openapi`; without one Prism is skipped, and the bench says why.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnServer, stopChild } from './childProcesses.ts';
import { freePort } from '../../src/http/freePort.ts';

/** Relative to the repository root. */
export const OPENAPI_DOCUMENTS = {
  store: 'contracts/openapi/store-commerce-api.openapi.json',
  media: 'contracts/openapi/media-tracking-api.openapi.json',
} as const;

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PRISM_CLI = join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');
const START_TIMEOUT_MS = 60_000;
const OUTPUT_TAIL_CHARS = 2_000;

export type PrismMock =
  | {
      readonly kind: 'running';
      readonly url: string;
      readonly child: ChildProcess;
      /** Where Prism serves what the twin serves at `twinPath`, or undefined when the document has no such path. */
      pathFor(twinPath: string): string | undefined;
    }
  | { readonly kind: 'skipped'; readonly reason: string };

/**
 * Starts `prism mock <document>` on a free port. Its request log is off
 * (`-v error`): the twins log nothing per request either, so neither pays for
 * writing a log line per answer.
 */
export async function startPrism(document: string): Promise<PrismMock> {
  const file = resolve(ROOT, document);
  if (!existsSync(file)) return { kind: 'skipped', reason: `${document} is missing; \`npm run openapi\` makes it` };
  let paths: string[];
  try {
    paths = Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { paths?: object }).paths ?? {});
  } catch (error) {
    return { kind: 'skipped', reason: `${document} is not a readable JSON document (${(error as Error).message}); \`npm run openapi\` makes it` };
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawnServer(process.execPath, [PRISM_CLI, 'mock', file, '-p', String(port), '-h', '127.0.0.1', '-v', 'error'], {
    SCARF_ANALYTICS: 'false',
  });
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const started = performance.now();
  while (performance.now() - started < START_TIMEOUT_MS) {
    if (child.exitCode !== null) return { kind: 'skipped', reason: `prism exited (${child.exitCode}) on ${document}: ${output.trim()}` };
    try {
      await fetch(url);
      return { kind: 'running', url, child, pathFor: (twinPath) => prismPathFor(paths, twinPath) };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  await stopChild(child);
  return { kind: 'skipped', reason: `prism did not listen on ${url} within ${START_TIMEOUT_MS / 1000} s: ${output.trim()}` };
}

/**
 * The Prism path of a twin path: the document path whose segments match the
 * twin path's last segments (literals equal, `{parameters}` take the twin's
 * value), the longest such one; the query is kept. A document may put
 * `/v1/{store_id}` in its paths or in its server URL: both match.
 */
export function prismPathFor(documentPaths: readonly string[], twinPath: string): string | undefined {
  const [pathPart = '', query] = twinPath.split(/\?(.*)/s);
  const twinSegments = pathPart.split('/').filter(Boolean);
  let best: string[] | undefined;
  for (const documentPath of documentPaths) {
    const segments = documentPath.split('/').filter(Boolean);
    const offset = twinSegments.length - segments.length;
    if (offset < 0 || (best && segments.length <= best.length)) continue;
    const filled = segments.map((segment, i) => (/^\{[^}]+\}$/.test(segment) ? twinSegments[offset + i]! : segment));
    if (filled.every((segment, i) => segment === twinSegments[offset + i])) best = filled;
  }
  return best && `/${best.join('/')}${query ? `?${query}` : ''}`;
}
