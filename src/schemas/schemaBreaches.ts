/**
 * Checks every answer a test saw against the schema of its route: one line per
 * breach. Each API says where its paths start and which schema a route has.
 */
import type { Exchange } from '../http/Exchange.ts';
import { formatIssues, validate } from './validate.ts';

export interface RouteSchemas {
  /** The path prefix of the API (e.g. /v1/100001 or /api/edge); answers elsewhere are not checked. */
  basePath: string;
  /** The schema of an answer, from method, the path after basePath and status; undefined: not checked. */
  schemaFor(method: string, path: string, status: number): string | undefined;
}

export function schemaBreaches(exchanges: readonly Pick<Exchange, 'request' | 'response'>[], routes: RouteSchemas): string[] {
  const breaches: string[] = [];
  for (const { request, response } of exchanges) {
    // Bodies that say they are not JSON (a text/plain throttle answer) are left to the suites' own checks.
    if (!response || request.method === 'HEAD' || !/json/.test(response.headers['content-type'] ?? 'json')) continue;
    const url = new URL(request.url);
    const at = url.pathname.indexOf(routes.basePath);
    if (at < 0) continue;
    const schema = routes.schemaFor(request.method, url.pathname.slice(at + routes.basePath.length), response.status);
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
