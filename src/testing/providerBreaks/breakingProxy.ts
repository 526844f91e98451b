/**
 * A provider that differs from a faithful twin in one observable way: an HTTP
 * proxy in front of the twin that rewrites requests or answers as one change
 * says. The change is either a break (the provider breaks a rule of the
 * contract, or something the typed clients and pacts rely on: the suites must
 * go red, and by a test of that rule) or a deviation (the provider does
 * something the contract leaves open: the suites must stay green).
 * scripts/breaks.ts runs the live-target suites and the pact verification
 * through it; tests/self-tests/pacts/providerBreaks.verify.spec.ts runs single
 * pact interactions through it.
 */
import type { IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import { createServer, request as httpRequest } from '../../http/nodeHttp.ts';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  /** Path and query. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface ProxiedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** What a change may need from the run it is part of (each proxy has its own). */
export interface ProxyContext {
  /** A token of the upstream twin's user who allows adult content. */
  signedInToken?: string;
}

/**
 * What a change may remember between the requests of one proxy (e.g. the last
 * X-Total-Count of a collection, to answer a page past the last as 200 []).
 */
export type ProxyMemory = Map<string, string>;

/** One way a provider differs from the faithful twin: a rewrite of the request, of the answer, or both. */
export interface ProviderChange {
  onRequest?(req: ProxiedRequest, ctx: ProxyContext, memory: ProxyMemory): ProxiedRequest;
  onResponse?(res: ProxiedResponse, req: ProxiedRequest, memory: ProxyMemory): ProxiedResponse;
}

/**
 * The kind of a break, after the project's verdict rule:
 * - `contract`: the spec says it; every target fails it.
 * - `reliance`: the spec does not spell it out, but the typed clients or the
 *   pacts depend on it (Link and X-Total-Count on every page, links.next,
 *   meta.count, the rate headers the pacer reads, the error shapes the clients
 *   parse); every target fails it too.
 */
export type BreakKind = 'contract' | 'reliance';

/** A rule id of one API's catalogue (src/rules): `store.…` or `media.…`; tests/unit/breaks checks each exists. */
export type RuleIdOf<Api extends string> = `${Api}.${string}`;

/** A provider that breaks the contract (or what the clients rely on) in one observable way. */
export interface ProviderBreak<Api extends string = string> extends ProviderChange {
  /** What the provider with this break does differently. */
  readonly breaks: string;
  readonly kind: BreakKind;
  /**
   * The rules it breaks: the break counts as caught only when a test of one of
   * these rules fails; red tests of other rules alone are "caught by the wrong rule".
   */
  readonly rules: readonly RuleIdOf<Api>[];
}

/** A provider that does something the contract leaves open: the live suites and the pacts must stay green (observations are fine). */
export interface ProviderDeviation extends ProviderChange {
  /** What the provider does differently, and where the contract leaves it open. */
  readonly allows: string;
}

export async function startBreakingProxy(upstream: string, change: ProviderChange, ctx: ProxyContext = {}, port = 0): Promise<{ url: string; server: Server }> {
  const target = new URL(upstream);
  const memory: ProxyMemory = new Map();
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (c: Buffer) => chunks.push(c));
    incoming.on('end', () => {
      let req: ProxiedRequest = { method: incoming.method ?? 'GET', path: incoming.url ?? '/', headers: { ...incoming.headers }, body: Buffer.concat(chunks) };
      req = change.onRequest?.(req, ctx, memory) ?? req;
      const headers = { ...req.headers };
      // The body is buffered: it goes on with its length. A request that came with neither a length nor chunks
      // (a bodyless PUT without Content-Length) goes on without either, as it came: Node would add Content-Length: 0.
      const framed = req.body.length > 0 || headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined;
      delete headers['transfer-encoding'];
      if (framed) headers['content-length'] = String(req.body.length);
      const upstreamReq = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.path, headers }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (c: Buffer) => parts.push(c));
        answer.on('end', () => {
          let res: ProxiedResponse = { status: answer.statusCode ?? 502, headers: { ...answer.headers }, body: Buffer.concat(parts).toString('utf8') };
          res = change.onResponse?.(res, req, memory) ?? res;
          sendChanged(outgoing, req.method, res);
        });
      });
      if (!framed) {
        upstreamReq.removeHeader('content-length');
        upstreamReq.removeHeader('transfer-encoding');
      }
      upstreamReq.on('error', (error) => outgoing.writeHead(502).end(String(error)));
      upstreamReq.end(req.body.length > 0 ? req.body : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Writes the changed answer, framed for what it now is: its body may have changed length, or a header may be gone. */
function sendChanged(outgoing: ServerResponse, method: string, res: ProxiedResponse): void {
  // A change removes a header by setting it undefined.
  const out = Object.fromEntries(Object.entries(res.headers).filter(([, v]) => v !== undefined && v !== ''));
  delete out['transfer-encoding'];
  // HEAD keeps the length of the GET; 204 and 304 have no body, nor a length.
  const bodiless = method === 'HEAD' || res.status === 204 || res.status === 304;
  if (res.status === 204 || res.status === 304) delete out['content-length'];
  else if (!bodiless) out['content-length'] = String(Buffer.byteLength(res.body));
  outgoing.writeHead(res.status, out as Record<string, string | string[]>);
  outgoing.end(bodiless ? undefined : res.body);
}
