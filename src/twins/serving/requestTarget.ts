import type { IncomingMessage } from 'node:http';

/** A request target split into raw path segments and the query. */
export interface RequestTarget {
  /** Path segments, not decoded; a trailing slash is ignored. */
  readonly segments: readonly string[];
  readonly query: URLSearchParams;
}

/**
 * Splits `req.url` without throwing on anything a client can send: absolute
 * form, `*`, bad percent-encoding (segments stay raw; URLSearchParams never throws).
 */
export function parseRequestTarget(rawUrl: string): RequestTarget {
  let target = rawUrl;
  if (!target.startsWith('/')) {
    try {
      const url = new URL(target);
      target = `${url.pathname}${url.search}`;
    } catch {
      return { segments: [], query: new URLSearchParams() };
    }
  }
  const hash = target.indexOf('#');
  if (hash >= 0) target = target.slice(0, hash);
  const mark = target.indexOf('?');
  const path = mark >= 0 ? target.slice(0, mark) : target;
  const segments = path.split('/').slice(1);
  if (segments.length > 0 && segments[segments.length - 1] === '') segments.pop();
  return { segments, query: new URLSearchParams(mark >= 0 ? target.slice(mark + 1) : '') };
}

/** A path segment percent-decoded, or as sent when its encoding is broken. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Digits only, a safe integer: anything else (`1e9999`, `-1`, `abc`) is no id at all. */
export function parseNumericId(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^[0-9]{1,15}$/.test(raw)) return undefined;
  return Number(raw);
}

// Host names, IPv4, bracketed IPv6, optional port: nothing that could break a Link header.
const SAFE_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * `http://{host}` for URLs a twin hands out (links, baseUrl): the request's
 * Host header when it is a plain host, else the twin's own address.
 */
export function requestOrigin(req: IncomingMessage, fallbackHost: string): string {
  const host = req.headers.host;
  return `http://${host !== undefined && SAFE_HOST.test(host) ? host : fallbackHost}`;
}
