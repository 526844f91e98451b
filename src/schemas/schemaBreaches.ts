/**
 * Checks every answer a test saw against the schema of its route: one breach per
 * answer that breaks it. Each API says where its paths start and which schema a route has.
 */
import type { Exchange } from '../http/Exchange.ts';
import { formatIssues, validate, type SchemaIssue } from './validate.ts';
import { fieldNotesShapeOf, type FieldNotesShape } from './fieldNotesShapes.ts';

export interface RouteSchemas {
  /** The path prefix of the API (e.g. /v1/100001, /api/edge, or a pattern such as /v1/\d+); answers elsewhere are not checked. */
  basePath: string | RegExp;
  /** The schema of an answer, from method, the path after basePath and status; undefined: not checked. */
  schemaFor(method: string, path: string, status: number): string | undefined;
  /** Bodies the field notes quote where the contract names another shape (fieldNotesShapes.ts): a breach says which. */
  fieldNotesShapes?: readonly FieldNotesShape[];
}

/** One answer that breaks its route's schema: the schema, its issues, and the whole as one message. */
export interface SchemaBreach {
  /** Undefined when the body is not JSON at all. */
  readonly schema: string | undefined;
  readonly issues: readonly SchemaIssue[];
  readonly text: string;
  /** The body is a shape the field notes quote as the real service's (what they say): on live an observation. */
  readonly fieldNotes?: string;
}

export function schemaBreaches(exchanges: readonly Pick<Exchange, 'request' | 'response'>[], routes: RouteSchemas): SchemaBreach[] {
  return exchanges.flatMap((exchange) => schemaBreachOf(exchange, routes) ?? []);
}

/** The breach of one answer, or undefined when it satisfies its schema (or has none to satisfy). */
export function schemaBreachOf({ request, response }: Pick<Exchange, 'request' | 'response'>, routes: RouteSchemas): SchemaBreach | undefined {
  // Bodies that say they are not JSON (a text/plain throttle answer) are left to the suites' own checks.
  if (!response || request.method === 'HEAD' || !/json/.test(response.headers['content-type'] ?? 'json')) return undefined;
  const url = new URL(request.url);
  const path = pathAfterBase(url.pathname, routes.basePath);
  if (path === undefined) return undefined;
  const schema = routes.schemaFor(request.method, path, response.status);
  if (!schema) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return { schema: undefined, issues: [], text: `${request.method} ${url.pathname} answered ${response.status} with a body that is not JSON` };
  }
  const result = validate(schema, body);
  if (result.valid) return undefined;
  const shape = routes.fieldNotesShapes ? fieldNotesShapeOf(routes.fieldNotesShapes, response.status, body) : undefined;
  return {
    schema,
    issues: result.errors,
    text: `${request.method} ${url.pathname}${url.search} (${response.status}) breaks ${schema}:\n${formatIssues(result.errors)}`,
    ...(shape ? { fieldNotes: shape.says } : {}),
  };
}

/** The path after the API's base path (without the query), as schemaFor takes it; undefined when the path is not under it. */
export function pathAfterBase(fullPath: string, basePath: string | RegExp): string | undefined {
  const path = fullPath.split('?')[0] ?? '';
  // A copy without g/y, so no lastIndex carries over between calls.
  const match = typeof basePath === 'string' ? undefined : new RegExp(basePath.source, basePath.flags.replace(/[gy]/g, '')).exec(path);
  const start = typeof basePath === 'string' ? path.indexOf(basePath) : (match?.index ?? -1);
  if (start < 0) return undefined;
  const rest = path.slice(start + (typeof basePath === 'string' ? basePath.length : match![0].length));
  // /api/edgex is not under /api/edge.
  return rest === '' || rest.startsWith('/') ? rest : undefined;
}
