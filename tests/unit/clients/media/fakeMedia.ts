/**
 * A scripted Media API on a local port for the client's unit tests: every
 * request is recorded as it arrived, and a handler decides the answer.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MEDIA_CONTRACT } from '../../../../src/rules/mediaContract.ts';

export const TOKEN = 'media-tok-9f8e7d6c5b4a';

export interface RecordedRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Sent as application/vnd.api+json unless headers say otherwise. */
  json?: unknown;
  /** Sent as is. */
  text?: string;
  /** Drop the connection instead of answering. */
  destroy?: boolean;
}

export interface FakeMedia {
  readonly origin: string;
  /** {origin}/api/edge */
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startFakeMedia(handler: (request: RecordedRequest) => Reply | Promise<Reply>): Promise<FakeMedia> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const recorded: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: lowerCase(req), body: await bodyOf(req) };
    requests.push(recorded);
    const reply = await handler(recorded);
    if (reply.destroy) {
      req.socket.destroy();
      return;
    }
    const body = reply.text ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
    res.writeHead(reply.status ?? 200, { 'content-type': MEDIA_CONTRACT.mediaType, ...reply.headers });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    baseUrl: `${origin}${MEDIA_CONTRACT.edgePrefix}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: connections are refused. */
export async function refusedOrigin(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** A JSON:API resource object as the real service writes it (links.self, relationships with links). */
export function resource(
  type: string,
  id: string,
  attributes: Record<string, unknown> = {},
  relationships: Record<string, unknown> = {},
  baseUrl = 'https://media.example/api/edge',
): Record<string, unknown> {
  return { id, type, links: { self: `${baseUrl}/${type}/${id}` }, attributes, relationships };
}

/** An error document with one JSON:API error object. */
export function errorDocument(error: Record<string, unknown>): { errors: Record<string, unknown>[] } {
  return { errors: [error] };
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function lowerCase(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
