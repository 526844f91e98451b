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
import { CONTRACT_ROUTES } from '../src/schemas/contractRoutes.ts';
import { pathAfterBase, type RouteSchemas } from '../src/schemas/schemaBreaches.ts';
import { formatIssues, validate } from '../src/schemas/validate.ts';
import { MEDIA_PACT, STORE_PACT } from './pactNames.ts';
import { parsePact, pactPath, type PactBody, type PactNames } from './verification/pactFile.ts';

/** One API whose pact is cross-checked: its pact, and which schema each route has (a pact names one store id; the routes hold for any). */
export interface PactApi {
  readonly name: string;
  readonly pact: PactNames;
  readonly pactFile: string;
  readonly routes: RouteSchemas;
}

export const PACT_APIS: readonly PactApi[] = [
  { name: 'store', pact: STORE_PACT, pactFile: pactPath(STORE_PACT), routes: CONTRACT_ROUTES.store },
  { name: 'media', pact: MEDIA_PACT, pactFile: pactPath(MEDIA_PACT), routes: CONTRACT_ROUTES.media },
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
 * Kept whole: the checks' order decides which reason an uncovered interaction gets (the first that applies), so they read as a list.
 */
export function pactSchemaBreaches(pact: unknown, routes: RouteSchemas): PactSchemaReport {
  const report = { checked: [] as string[], breaches: [] as string[], notCovered: [] as string[] };
  for (const interaction of parsePact(pact).interactions) {
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

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
