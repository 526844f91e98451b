/**
 * Small rewrites the breaks and deviations are written with: JSON bodies,
 * headers, query strings and Link headers of a proxied exchange.
 */
import type { ProxiedRequest, ProxiedResponse } from './breakingProxy.ts';

export type Json = unknown;

/** The answer with its JSON body replaced by what `fn` returns; unchanged when the body is not JSON. */
export function mapJson(res: ProxiedResponse, fn: (body: Json) => Json): ProxiedResponse {
  let body: Json;
  try {
    body = JSON.parse(res.body);
  } catch {
    return res;
  }
  return { ...res, body: JSON.stringify(fn(body)) };
}

/** Rebuilds every object of `value`: `fn` maps each member to a new [key, value], or drops it (undefined). */
export function deepMap(value: Json, fn: (key: string, v: Json) => [string, Json] | undefined): Json {
  if (Array.isArray(value)) return value.map((v) => deepMap(v, fn));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(value)) {
    const mapped = fn(k, v);
    if (mapped === undefined) continue;
    out[mapped[0]] = deepMap(mapped[1], fn);
  }
  return out;
}

/** The answer with headers set; an undefined value removes the header. */
export function withHeaders(res: ProxiedResponse, headers: Record<string, string | undefined>): ProxiedResponse {
  return { ...res, headers: { ...res.headers, ...headers } };
}

export function headerOf(res: ProxiedResponse, name: string): string | undefined {
  const value = res.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The query of a proxied path. */
export function queryOf(path: string): URLSearchParams {
  const at = path.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : path.slice(at + 1));
}

export function pathOnly(path: string): string {
  const at = path.indexOf('?');
  return at < 0 ? path : path.slice(0, at);
}

/** The request with its query rewritten by `fn` (which edits the parameters in place); the very same request when `fn` changed nothing. */
export function withQuery(req: ProxiedRequest, fn: (query: URLSearchParams) => void): ProxiedRequest {
  const query = queryOf(req.path);
  const before = query.toString();
  fn(query);
  const text = query.toString();
  return text === before ? req : { ...req, path: `${pathOnly(req.path)}${text ? `?${text}` : ''}` };
}

export interface LinkEntry {
  url: string;
  rel: string;
}

/**
 * The entries of a Link header (`<url>; rel="x", <url>; rel="y"`), read as RFC 8288 allows them to be
 * written: optional whitespace around `,`, `;` and `=`, rel quoted or not, in any case. Entries
 * without a rel are left out.
 */
export function parseLink(header: string | undefined): LinkEntry[] {
  if (!header) return [];
  return header.split(/\s*,\s*(?=<)/).flatMap((part) => {
    const match = /^\s*<([^>]*)>.*?;\s*rel\s*=\s*(?:"([^"]*)"|([^\s";,]+))/is.exec(part);
    const rel = match?.[2] ?? match?.[3];
    return match && rel ? [{ url: match[1]!, rel }] : [];
  });
}

/** How a Link header is spelt: each entry, and what joins them. */
export interface LinkSpelling {
  entry(e: LinkEntry): string;
  separator: string;
}

/** The spelling of the docs' example: `<url>; rel="x"` joined by ", ". */
export const PUBLISHED_LINK: LinkSpelling = { entry: (e) => `<${e.url}>; rel="${e.rel}"`, separator: ', ' };

export function formatLink(entries: readonly LinkEntry[], spelling: LinkSpelling = PUBLISHED_LINK): string | undefined {
  return entries.length === 0 ? undefined : entries.map(spelling.entry).join(spelling.separator);
}

/** The answer with its Link entries rewritten by `fn` (and spelt as `spelling` says); an answer without Link is left alone. */
export function mapLink(res: ProxiedResponse, fn: (entries: LinkEntry[]) => LinkEntry[], spelling?: LinkSpelling): ProxiedResponse {
  const header = headerOf(res, 'link');
  if (!header) return res;
  return withHeaders(res, { link: formatLink(fn(parseLink(header)), spelling) });
}

/** A URL with one query parameter set. */
export function withParam(url: string, name: string, value: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set(name, value);
  return parsed.href;
}
