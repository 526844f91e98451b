/**
 * Checks every answer a test saw against the schema of its route: one line per
 * breach. Each API says where its paths start and which schema a route has.
 */
import type { Exchange } from '../http/Exchange.ts';
import { formatIssues, validate } from './validate.ts';

export interface RouteSchemas {
  /** The path prefix of the API (e.g. /v1/100001, /api/edge, or a pattern such as /v1/\d+); answers elsewhere are not checked. */
  basePath: string | RegExp;
  /** The schema of an answer, from method, the path after basePath and status; undefined: not checked. */
  schemaFor(method: string, path: string, status: number): string | undefined;
}

export function schemaBreaches(exchanges: readonly Pick<Exchange, 'request' | 'response'>[], routes: RouteSchemas): string[] {
  const breaches: string[] = [];
  for (const { request, response } of exchanges) {
    // Bodies that say they are not JSON (a text/plain throttle answer) are left to the suites' own checks.
    if (!response || request.method === 'HEAD' || !/json/.test(response.headers['content-type'] ?? 'json')) continue;
    const url = new URL(request.url);
    const path = pathAfterBase(url.pathname, routes.basePath);
    if (path === undefined) continue;
    const schema = routes.schemaFor(request.method, path, response.status);
    if (!schema) continue;
    let body: unknown;
    try {
      body = JSON.parse(response.body);
    } catch {
      breaches.push(`${request.method} ${url.pathname} answered ${response.status} with a body that is not JSON`);
      continue;
    }
    const result = validate(schema, body);
    if (!result.valid) breaches.push(`${request.method} ${url.pathname}${url.search} (${response.status}) breaks ${schema}:\n${formatIssues(result.errors)}`);
  }
  return breaches;
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
