/**
 * Static cross-check of the consumer pacts against the JSON Schemas: the
 * example response body of every interaction must satisfy the schema of its
 * route, so a pact that promises what the contract forbids fails before any
 * provider is run. Which schema a route has is the suites' own decision
 * (store/mediaResponseSchema); this module only reads the pact.
 *
 * Not checked here: the pact's matchers (Pact checks its examples against
 * them) and request bodies (no contracts/<api>/schemas file describes a request).
 */
import { MEDIA_CONTRACT } from '../src/rules/mediaContract.ts';
import { STORE_CONTRACT } from '../src/rules/storeContract.ts';
import { mediaResponseSchema } from '../src/schemas/mediaResponseSchema.ts';
import type { RouteSchemas } from '../src/schemas/schemaBreaches.ts';
import { storeResponseSchema } from '../src/schemas/storeResponseSchema.ts';
import { formatIssues, validate } from '../src/schemas/validate.ts';
import { MEDIA_PACT } from './media/mediaPact.ts';
import { STORE_PACT } from './store/storePact.ts';
import { pactPath } from './verification/pactFile.ts';

/** RouteSchemas whose base path may be a pattern: a pact names one store id, the routes hold for any. */
export interface PactRoutes extends Omit<RouteSchemas, 'basePath'> {
  basePath: string | RegExp;
}

/** One API whose pact is cross-checked: where its pact file is, and which schema each route has. */
export interface PactApi {
  readonly name: string;
  readonly pactFile: string;
  readonly routes: PactRoutes;
}

export const PACT_APIS: readonly PactApi[] = [
  {
    name: 'store',
    pactFile: pactPath(STORE_PACT),
    routes: { basePath: new RegExp(`/${STORE_CONTRACT.version}/\\d+`), schemaFor: storeResponseSchema },
  },
  { name: 'media', pactFile: pactPath(MEDIA_PACT), routes: { basePath: MEDIA_CONTRACT.edgePrefix, schemaFor: mediaResponseSchema } },
];

export interface PactSchemaReport {
  /** Interactions whose example body was validated against a schema (breaking it or not). */
  readonly checked: string[];
  /** One readable entry per interaction whose example body breaks its schema, with the schema's issues. */
  readonly breaches: string[];
  /** Interactions no schema covers, each with why: no body, no schema for the route, outside the base path. */
  readonly notCovered: string[];
}

/**
 * Validates the example response body of every interaction of a V4 pact against
 * the schema of its route. Throws, naming the fix, if `pact` is not a V4 pact
 * with interactions.
 */
export function pactSchemaBreaches(pact: unknown, routes: PactRoutes): PactSchemaReport {
  const report = { checked: [] as string[], breaches: [] as string[], notCovered: [] as string[] };
  for (const interaction of readInteractions(pact)) {
    const { description, type, request, response } = interaction;
    const route = `${request.method} ${request.path} (${response.status})`;
    const at = `"${description}": ${route}`;
    // Message interactions have no route, so no route schema.
    if (type !== 'Synchronous/HTTP') {
      report.notCovered.push(`"${description}": a ${type} interaction; only HTTP interactions have a route schema`);
      continue;
    }
    const path = pathAfterBase(request.path, routes.basePath);
    if (path === undefined) {
      report.notCovered.push(`${at}: the path is outside the API base path ${String(routes.basePath)}`);
      continue;
    }
    const schema = routes.schemaFor(request.method, path, response.status);
    const body = response.body;
    if (!body || body.content === undefined) {
      // A schema with no example to hold to it: the pact leaves that body unpromised, worth seeing.
      report.notCovered.push(`${at}: no response body${schema ? `, though the route has a schema (${schema})` : ' and no schema for this route and status'}`);
      continue;
    }
    const contentType = body.contentType ?? header(response.headers, 'content-type') ?? 'application/json';
    // Like the suites: only JSON bodies have schemas.
    if (!/json/i.test(contentType)) {
      report.notCovered.push(`${at}: a ${contentType} body, and only JSON bodies have schemas`);
      continue;
    }
    if (!schema) {
      report.notCovered.push(`${at}: no schema for this route and status`);
      continue;
    }
    report.checked.push(at);
    const decoded = decodeBody(body);
    if (!decoded.ok) {
      report.breaches.push(`${at} promises a body that is not JSON (${decoded.reason}); it cannot satisfy ${schema}`);
      continue;
    }
    const result = validate(schema, decoded.value);
    if (!result.valid) report.breaches.push(`${at} promises a body that breaks ${schema}:\n${indent(formatIssues(result.errors))}`);
  }
  return report;
}

interface PactBody {
  content?: unknown;
  contentType?: string;
  encoded?: unknown;
}

interface Interaction {
  description: string;
  type: string;
  request: { method: string; path: string };
  response: { status: number; headers?: Record<string, unknown>; body?: PactBody };
}

function readInteractions(pact: unknown): Interaction[] {
  if (!isObject(pact)) throw new Error('pactSchemaCheck: the pact is not a JSON object. Pass the parsed contents of a contracts/pacts/*.json file.');
  const version = (pact.metadata as { pactSpecification?: { version?: unknown } } | undefined)?.pactSpecification?.version;
  if (typeof version !== 'string' || !version.startsWith('4.')) {
    throw new Error(
      `pactSchemaCheck: not a V4 pact (metadata.pactSpecification.version is ${JSON.stringify(version)}). ` +
        'Write the pact with PactV4 and SpecificationVersion.SPECIFICATION_VERSION_V4.',
    );
  }
  const { interactions } = pact;
  if (!Array.isArray(interactions) || interactions.length === 0) {
    throw new Error(
      'pactSchemaCheck: the pact has no interactions, so there is nothing to cross-check. ' +
        'The consumer tests write them: run the contracts-consumer project first (it writes contracts/pacts/).',
    );
  }
  return interactions.map((interaction: unknown, index) => {
    const i = interaction as { description?: unknown; type?: unknown; request?: Record<string, unknown>; response?: Record<string, unknown> };
    const problem =
      typeof i?.description !== 'string'
        ? 'no description'
        : typeof i.request?.method !== 'string' || typeof i.request.path !== 'string'
          ? 'no request method and path'
          : typeof i.response?.status !== 'number'
            ? 'no response status'
            : undefined;
    if (problem) {
      throw new Error(`pactSchemaCheck: interaction #${index} of the pact has ${problem}. Regenerate the pact from the consumer tests rather than editing it.`);
    }
    return { ...(i as Interaction), type: typeof i.type === 'string' ? i.type : 'Synchronous/HTTP' };
  });
}

/** The path after the base path (without the query); undefined when the path is not under it. */
function pathAfterBase(fullPath: string, basePath: string | RegExp): string | undefined {
  const path = fullPath.split('?')[0] ?? '';
  let start: number;
  let length: number;
  if (typeof basePath === 'string') {
    start = path.indexOf(basePath);
    length = basePath.length;
  } else {
    // A copy without g/y, so no lastIndex carries over between calls.
    const match = new RegExp(basePath.source, basePath.flags.replace(/[gy]/g, '')).exec(path);
    start = match ? match.index : -1;
    length = match ? match[0].length : 0;
  }
  if (start < 0) return undefined;
  const rest = path.slice(start + length);
  // /api/edgex is not under /api/edge.
  return rest === '' || rest.startsWith('/') ? rest : undefined;
}

/** V4 keeps JSON bodies as JSON (encoded false); other encodings hold the body as a string. */
function decodeBody(body: PactBody): { ok: true; value: unknown } | { ok: false; reason: string } {
  const { content, encoded } = body;
  if (encoded === false || encoded === undefined) return { ok: true, value: content };
  if (typeof content !== 'string') return { ok: false, reason: `encoded ${JSON.stringify(encoded)} but the content is not a string` };
  const text = String(encoded).toLowerCase() === 'base64' ? Buffer.from(content, 'base64').toString('utf8') : content;
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
}

function header(headers: Record<string, unknown> | undefined, name: string): string | undefined {
  const entry = Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === name);
  const value = Array.isArray(entry?.[1]) ? entry[1][0] : entry?.[1];
  return typeof value === 'string' ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
