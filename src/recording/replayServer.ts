/**
 * The recordings of one API served over HTTP, for clients outside the test
 * process: Pact's Verifier, the `kitsu` npm client, a user's own app. Each
 * request is answered from a ReplayBook (replayBook.ts) with the recorded
 * status, headers and body; absolute URLs of the recorded origin (Link,
 * Location, JSON:API `links`) point at this server instead, so a client that
 * follows them stays here.
 *
 * What answers: by default every raw cassette of the API under the root, in
 * cycle mode (a request recorded several times is answered in recorded order,
 * then again from the start); a `book` shared with an in-process replay
 * (session.ts) instead; and a request carrying `x-harness-cassette: <path
 * under root>` only from that cassette. A request nothing answers is a 501
 * (`x-harness-replay: miss`) naming the closest recorded request: never a 404,
 * which would be a statement about the service.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from '../http/nodeHttp.ts';
import type { AddressInfo } from 'node:net';
import { isAbsolute, join, normalize, sep } from 'node:path';
import { existsSync } from 'node:fs';
import { listCassettes, readCassette, type Interaction, type RecordingApi } from './cassette.ts';
import { recordingsDir } from '../config/env.ts';
import { parseBody, ReplayBook, ReplayMiss, servedAnswer } from './replayBook.ts';
import { rulesOf } from './session.ts';

export const CASSETTE_HEADER = 'x-harness-cassette';
export const REPLAY_HEADER = 'x-harness-replay';

/** Matching needs the whole body; anything bigger than this is no recorded API request. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface ReplayServerOptions {
  /** Where the recordings are: RECORDINGS_DIR or recordings/. */
  readonly root?: string;
  readonly api: RecordingApi;
  /** 0 (the default) takes any free port. */
  readonly port?: number;
  /** Answer from this book (an in-process replay's) instead of every cassette of the API. */
  readonly book?: ReplayBook;
  /** Where misses are logged; stderr by default. */
  readonly log?: (line: string) => void;
}

export interface ReplayServer {
  /** http://127.0.0.1:<port>, no trailing slash. */
  readonly url: string;
  /** The message of every miss so far, oldest first: a client's failure may be a gap in the recording, not a finding. */
  misses(): readonly string[];
  close(): Promise<void>;
}

export class ReplayServerError extends Error {}

/** Every raw cassette of `api` under `root`, as paths relative to `root`. */
export function cassettesOf(root: string, api: RecordingApi): string[] {
  return listCassettes(root, 'raw').filter((path) => path.startsWith(`${api}/`));
}

/**
 * Serves the recorded answers of `api` over HTTP. Kept whole: `answer` shares the book chooser, the misses and
 * the origin (known only once listening) with the server it is handed to; its steps are named functions.
 */
export async function startReplayServer(options: ReplayServerOptions): Promise<ReplayServer> {
  const root = options.root ?? recordingsDir();
  const { api } = options;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const bookFor = bookChooser(root, api, options.book ?? allCassettes(root, api));
  const misses: string[] = [];

  let origin = '';
  const server = createServer((req, res) => {
    void answer(req, res).catch((error: unknown) => {
      // Whatever went wrong, the client gets an answer that cannot pass for the service's.
      const message = error instanceof Error ? error.message : String(error);
      log(`replay-server (${api}): error: ${message}`);
      refuse(res, 'error', { replay: 'error', message });
    });
  });

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { method, path, reqheaders, body } = await requestOf(req);
    let found: { interaction: Interaction; source: string };
    try {
      found = bookFor(req.headers[CASSETTE_HEADER]).answer({ method, path, reqheaders, body: parseBody(body) });
    } catch (error) {
      if (!(error instanceof ReplayServerError || error instanceof ReplayMiss)) throw error;
      if (error instanceof ReplayMiss) misses.push(error.message);
      log(`replay-server (${api}): ${error instanceof ReplayMiss ? 'miss: ' : ''}${error.message}`);
      refuse(res, ...refusalOf(error));
      return;
    }
    const { status, headers, body: served } = servedAnswer(found.interaction, originRewrite(found.interaction.scope, origin));
    // Headers set, not written: end() then frames the body with its own Content-Length.
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.statusCode = status;
    res.end(served);
  }

  origin = await listen(server, options.port ?? 0);
  return {
    url: origin,
    misses: () => [...misses],
    close: () => closeNow(server),
  };
}

/** Stops listening and drops open connections (a client's keep-alive must not hold the close). */
function closeNow(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** The 501 for a request no book answers: the named cassette is not there, or nothing recorded matches. */
function refusalOf(error: ReplayServerError | ReplayMiss): [kind: string, body: { replay: string; message: string }] {
  return error instanceof ReplayMiss
    ? ['miss', { replay: 'no recording', message: error.message }]
    : ['no-cassette', { replay: 'no cassette', message: error.message }];
}

/**
 * Which book answers a request: the one of the cassette its header names (read once, then kept),
 * or `book` when it names none. A name outside the API's recordings is refused.
 */
function bookChooser(root: string, api: RecordingApi, book: ReplayBook): (selected: string | string[] | undefined) => ReplayBook {
  const rules = rulesOf(api);
  const byCassette = new Map<string, ReplayBook>();
  const cassetteBook = (name: string): ReplayBook => {
    const relativePath = cassetteName(name, api);
    let found = byCassette.get(relativePath);
    if (!found) {
      const path = join(root, relativePath);
      if (!existsSync(path)) throw new ReplayServerError(`${CASSETTE_HEADER} names ${relativePath}, which is not a cassette under ${root}/`);
      found = new ReplayBook(rules, [{ source: relativePath, interactions: readCassette(path).interactions }], { cycle: true });
      byCassette.set(relativePath, found);
    }
    return found;
  };
  return (selected) => (typeof selected === 'string' && selected.trim() ? cassetteBook(selected.trim()) : book);
}

/** The request as the recorder stored it: path and query, headers as strings (the cassette header left out), raw body. */
async function requestOf(req: IncomingMessage): Promise<{ method: string; path: string; reqheaders: Record<string, string>; body: string }> {
  const body = await readBody(req);
  // The recorder stored the path as the WHATWG URL parser gives it; parse the same way.
  const url = new URL(req.url ?? '/', 'http://replay.invalid');
  const reqheaders = Object.fromEntries(
    Object.entries(req.headers)
      .filter(([name]) => name !== CASSETTE_HEADER)
      .map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]),
  );
  return { method: req.method ?? 'GET', path: url.pathname + url.search, reqheaders, body };
}

/** Listens on 127.0.0.1 and gives the origin the served URLs are rewritten to. */
async function listen(server: Server, port: number): Promise<string> {
  // A malformed request line never reaches the handler; answer it and keep serving.
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** One cycling book over every raw cassette of the API; no cassette at all is an error with the fix. */
function allCassettes(root: string, api: RecordingApi): ReplayBook {
  const paths = cassettesOf(root, api);
  if (paths.length === 0) {
    throw new ReplayServerError(
      `no ${api} recordings under ${join(root, api)}/: record them first (npm run record), or set RECORDINGS_DIR to a directory of recordings`,
    );
  }
  return new ReplayBook(
    rulesOf(api),
    paths.map((path) => ({ source: path, interactions: readCassette(join(root, path)).interactions })),
    { cycle: true },
  );
}

/** The header's cassette as a path under root: `<api>/...`, the raw file (a normalised or bare name is taken to mean it). */
function cassetteName(name: string, api: RecordingApi): string {
  const path = normalize(name).split(sep).join('/');
  if (isAbsolute(path) || path.startsWith('../') || !path.startsWith(`${api}/`)) {
    throw new ReplayServerError(`${CASSETTE_HEADER} is "${name}": give a cassette's path under the recordings directory, starting with ${api}/`);
  }
  if (path.endsWith('.raw.json')) return path;
  return path.endsWith('.json') ? `${path.slice(0, -'.json'.length)}.raw.json` : `${path}.raw.json`;
}

/** Replaces the recorded origin where it is a whole origin (not the start of a longer host or port). */
function originRewrite(recorded: string, served: string): (text: string) => string {
  if (!recorded) return (text) => text;
  const re = new RegExp(`${recorded.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w.:-])`, 'g');
  return (text) => text.replace(re, served);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) reject(new Error(`the request body is over ${MAX_BODY_BYTES} bytes; no recorded request is that large`));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** What the replay cannot answer: 501 with a JSON reason, marked so no client takes it for the service. */
function refuse(res: ServerResponse, kind: string, body: { replay: string; message: string }): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  res.writeHead(501, { 'content-type': 'application/json', [REPLAY_HEADER]: kind });
  res.end(JSON.stringify(body));
}
