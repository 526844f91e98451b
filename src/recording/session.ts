/**
 * One cassette per test, recorded or replayed in-process.
 *
 * Record: every request the process sends (undici, node:http) is seen through
 * @mswjs/interceptors' socket-level HTTP interceptor, the one nock 15 itself
 * intercepts undici with (nock's own recorder watches only http.ClientRequest
 * and fetch, not undici's dispatcher). Each exchange becomes a nock definition,
 * is redacted at once and written with its normalised twin when the test ends.
 *
 * Replay: nock intercepts every request with no network allowed
 * (nock.disableNetConnect) and answers it from the test's cassette through a
 * ReplayBook; a request with no recording fails with the closest recorded one.
 */
import { randomBytes } from 'node:crypto';
import { isLoopbackHost } from '../config/harnessConfig.ts';
import { existsSync } from 'node:fs';
import { cassettePaths, readCassette, writeCassette, type Cassette, type Interaction, type RecordingApi } from './cassette.ts';
import { loadRules, normaliseCassette, type NormalisationRules } from './normalise.ts';
import { patternsFromEnv, redactInteraction, type RecordingRedaction } from './redactRecording.ts';
import { parseBody, ReplayBook, servedAnswer } from './replayBook.ts';
import { useUniqueSeed } from './uniqueSource.ts';
import { processEnv } from '../config/env.ts';

export interface CassetteId {
  readonly root: string;
  readonly api: RecordingApi;
  readonly suite: string;
  readonly test: string;
}

export interface CassetteSession {
  /** On replay, what answers: the in-process nock replay uses it, and a replay server may share it (replayServer.ts). */
  readonly book?: ReplayBook;
  /** Ends the session: writes the cassette (record) or reports what the test no longer asked for (replay). */
  close(): Promise<{ interactions: number; unused: Interaction[]; files: string[] }>;
}

const rulesCache = new Map<RecordingApi, NormalisationRules>();
export function rulesOf(api: RecordingApi): NormalisationRules {
  let rules = rulesCache.get(api);
  if (!rules) rulesCache.set(api, (rules = loadRules(api)));
  return rules;
}

// ---- record ---------------------------------------------------------------

interface Capture {
  readonly sink: { seq: number; interaction: Interaction }[];
  /** Origins whose traffic is not the service's (a recording proxy's own hop): never recorded. */
  readonly ignore: ReadonlySet<string>;
}

const captures: Capture[] = [];
const pending = new Set<Promise<void>>();
let seq = 0;
let interceptor: { dispose(): void } | undefined;

async function installCapture(): Promise<void> {
  if (interceptor) return;
  const { HttpRequestInterceptor } = await import('@mswjs/interceptors/http');
  const capture = new HttpRequestInterceptor();
  interceptor = capture;
  capture.apply();
  capture.on('response', ({ request, response }) => {
    const capture = captures.at(-1);
    if (!capture || capture.ignore.has(new URL(request.url).origin)) return;
    const n = seq++;
    const work = (async () => {
      const url = new URL(request.url);
      // A HEAD, 204 or 304 answer has no body, and reading one would wait forever.
      const bodyless = request.method === 'HEAD' || response.status === 204 || response.status === 304;
      const [reqText, resText] = await Promise.all([request.clone().text(), bodyless ? '' : response.clone().text()]);
      const interaction: Interaction = {
        scope: url.origin,
        method: request.method,
        path: url.pathname + url.search,
        reqheaders: Object.fromEntries(request.headers),
        status: response.status,
        rawHeaders: Object.fromEntries(response.headers),
      };
      const body = parseBody(reqText);
      const answer = parseBody(resText);
      if (body !== undefined) interaction.body = body;
      if (answer !== undefined) interaction.response = answer;
      capture.sink.push({ seq: n, interaction });
    })();
    pending.add(work);
    void work.finally(() => pending.delete(work));
  });
}

/** The secrets a recording must never hold: every credential the environment gives the harness. */
export function environmentSecrets(env: Readonly<Record<string, string | undefined>> = processEnv()): string[] {
  return ['STORE_ACCESS_TOKEN', 'STORE_SECOND_ACCESS_TOKEN', 'STORE_APP_SECRET', 'KITSU_ACCESS_TOKEN', 'KITSU_PASSWORD', 'STORE_CLIENT_SECRET']
    .map((name) => env[name]?.trim() ?? '')
    .filter((value) => value.length >= 4);
}

export function recordingRedaction(api: RecordingApi, extraSecrets: readonly string[] = []): RecordingRedaction {
  return {
    secrets: [...environmentSecrets(), ...extraSecrets],
    patterns: [...rulesOf(api).redact.map((p) => new RegExp(p, 'g')), ...patternsFromEnv()],
  };
}

export interface RecordingOptions {
  /** The service recorded: a loopback host is labelled a local stand-in (`source: loopback`), anything else `remote`. */
  readonly origin: string;
  /** Origins not to record, e.g. a recording proxy that an in-process client reaches on its way to the service. */
  readonly ignoreOrigins?: readonly string[];
}

/** Starts recording the test's traffic; `close` redacts, normalises and writes both files. */
export async function startRecording(id: CassetteId, options: RecordingOptions): Promise<CassetteSession> {
  await installCapture();
  const source: Cassette['source'] = isLoopbackHost(new URL(options.origin).hostname) ? 'loopback' : 'remote';
  const uniqueSeed = randomBytes(4).toString('hex');
  useUniqueSeed(uniqueSeed);
  const capture: Capture = { sink: [], ignore: new Set((options.ignoreOrigins ?? []).map((o) => new URL(o).origin)) };
  captures.push(capture);
  return {
    close: async () => {
      await Promise.all(pending);
      captures.splice(captures.indexOf(capture), 1);
      useUniqueSeed(undefined);
      const redaction = recordingRedaction(id.api);
      const raw: Cassette = {
        format: 'harness-cassette/1',
        api: id.api,
        suite: id.suite,
        test: id.test,
        source,
        uniqueSeed,
        interactions: capture.sink.sort((a, b) => a.seq - b.seq).map((c) => redactInteraction(c.interaction, redaction)),
      };
      const paths = cassettePaths(id.root, id.api, id.suite, id.test);
      writeCassette(paths.raw, raw);
      writeCassette(paths.normalised, normaliseCassette(raw, rulesOf(id.api)));
      return { interactions: raw.interactions.length, unused: [], files: [paths.raw, paths.normalised] };
    },
  };
}

// ---- replay ---------------------------------------------------------------

const books: ReplayBook[] = [];
const replayOrigins = new Set<string>();
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

/** Intercepts `origin` through nock, answering from the innermost open replay; no request reaches the network. */
async function interceptOrigin(origin: string): Promise<void> {
  const { default: nock } = await import('nock');
  if (!nock.isActive()) nock.activate();
  nock.disableNetConnect();
  if (replayOrigins.has(origin)) return;
  replayOrigins.add(origin);
  for (const method of METHODS) {
    nock(origin)
      .persist()
      .intercept(() => true, method)
      // nock 15 hands a reply function the fetch Request.
      .reply((async (request: Request) => {
        const book = books.at(-1);
        const url = new URL(request.url);
        const path = url.pathname + url.search;
        if (!book) throw new Error(`replay: ${method} ${path} was sent outside a test's replay; nothing answers it.`);
        const { interaction } = book.answer({ method, path, reqheaders: Object.fromEntries(request.headers), body: parseBody(await request.text()) });
        const { status, body, headers } = servedAnswer(interaction);
        return [status, body, headers];
      }) as never);
  }
}

/** Replays the test's cassette; `close` says which recorded requests the test did not send. */
export async function startReplay(id: CassetteId): Promise<CassetteSession> {
  const paths = cassettePaths(id.root, id.api, id.suite, id.test);
  // A test recorded as skipped has no cassette; it may skip again, so only a request it sends fails.
  const cassette = existsSync(paths.raw) ? readCassette(paths.raw) : undefined;
  useUniqueSeed(cassette?.uniqueSeed ?? '00000000');
  const book = new ReplayBook(rulesOf(id.api), [{ source: paths.raw, interactions: cassette?.interactions ?? [] }], {
    missing: cassette
      ? undefined
      : `replay: no cassette for "${id.test}" (${paths.raw}): it was skipped or not there when the recordings were made. Record it with npm run record, or run this test on another target.`,
  });
  const cassetteInteractions = cassette?.interactions ?? [];
  for (const origin of new Set(cassetteInteractions.map((i) => i.scope))) await interceptOrigin(origin);
  books.push(book);
  return {
    book,
    close: async () => {
      books.splice(books.indexOf(book), 1);
      useUniqueSeed(undefined);
      return { interactions: book.size, unused: book.unused(), files: [paths.raw] };
    },
  };
}

/** Lockdown for the whole replay: origins the recordings name are intercepted, everything else is refused. */
export async function lockDownNetwork(origins: readonly string[]): Promise<void> {
  for (const origin of origins) await interceptOrigin(origin);
}

/** Undoes what recording and replay installed in this process (for tests that do both, then go on). */
export async function resetRecordingAndReplay(): Promise<void> {
  interceptor?.dispose();
  interceptor = undefined;
  // Importing nock switches its interception on; off again, so later tests of this process talk to real sockets.
  const { default: nock } = await import('nock');
  nock.cleanAll();
  nock.enableNetConnect();
  nock.restore();
  replayOrigins.clear();
}
