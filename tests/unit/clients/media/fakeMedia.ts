/**
 * A scripted Media API on a local port for the client's unit tests
 * (tests/unit/support/scriptedServer.ts), and JSON:API documents to answer with.
 */
import type { IncomingMessage } from 'node:http';
import { MEDIA_CONTRACT } from '../../../../src/rules/mediaContract.ts';
import { startScriptedServer, type RecordedRequest, type Reply, type ScriptedServer } from '../../support/scriptedServer.ts';

export { refusedOrigin, type RecordedRequest, type Reply } from '../../support/scriptedServer.ts';

export const TOKEN = 'media-tok-9f8e7d6c5b4a';

export interface FakeMedia extends ScriptedServer {
  /** {origin}/api/edge */
  readonly baseUrl: string;
}

export async function startFakeMedia(handler: (request: RecordedRequest) => Reply | Promise<Reply>): Promise<FakeMedia> {
  const server = await startScriptedServer(handler, { contentType: MEDIA_CONTRACT.mediaType, headersOf: lowerCase });
  return { origin: server.origin, baseUrl: `${server.origin}${MEDIA_CONTRACT.edgePrefix}`, requests: server.requests, close: server.close };
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

// Node's parsed headers: repeated ones joined with ", ".
function lowerCase(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
