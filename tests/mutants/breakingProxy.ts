/**
 * A provider that breaks the Store contract in one observable way: an HTTP
 * proxy in front of a faithful twin that rewrites requests or answers as one
 * mutation says. Used by scripts/mutants.ts to show the live-target suites go
 * red for every such break.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
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

/** What a mutation may need from the run it is part of (each proxy has its own). */
export interface ProxyContext {
  /** A token of the upstream twin's user who allows adult content. */
  signedInToken?: string;
}

export interface Mutation {
  /** What the broken provider does differently, and the rule it breaks. */
  readonly breaks: string;
  onRequest?(req: ProxiedRequest, ctx: ProxyContext): ProxiedRequest;
  onResponse?(res: ProxiedResponse, req: ProxiedRequest): ProxiedResponse;
}

export async function startBreakingProxy(upstream: string, mutation: Mutation, ctx: ProxyContext = {}, port = 0): Promise<{ url: string; server: Server }> {
  const target = new URL(upstream);
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (c: Buffer) => chunks.push(c));
    incoming.on('end', () => {
      let req: ProxiedRequest = { method: incoming.method ?? 'GET', path: incoming.url ?? '/', headers: { ...incoming.headers }, body: Buffer.concat(chunks) };
      req = mutation.onRequest?.(req, ctx) ?? req;
      const headers = { ...req.headers };
      if (req.body.length > 0 || headers['content-length'] !== undefined) headers['content-length'] = String(req.body.length);
      const upstreamReq = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.path, headers }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (c: Buffer) => parts.push(c));
        answer.on('end', () => {
          let res: ProxiedResponse = { status: answer.statusCode ?? 502, headers: { ...answer.headers }, body: Buffer.concat(parts).toString('utf8') };
          res = mutation.onResponse?.(res, req) ?? res;
          // A mutation removes a header by setting it undefined.
          const out = Object.fromEntries(Object.entries(res.headers).filter(([, v]) => v !== undefined && v !== ''));
          delete out['transfer-encoding'];
          if (req.method !== 'HEAD') out['content-length'] = String(Buffer.byteLength(res.body));
          outgoing.writeHead(res.status, out as Record<string, string | string[]>);
          outgoing.end(req.method === 'HEAD' ? undefined : res.body);
        });
      });
      upstreamReq.on('error', (error) => outgoing.writeHead(502).end(String(error)));
      upstreamReq.end(req.body.length > 0 ? req.body : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
