/**
 * Pact's Verifier as the harness runs it: its core (@pact-foundation/pact-core, native code) on a one-interaction
 * pact file, sending the interaction's state calls and its request to one loopback server that lives as long as the
 * process. Each verification has a path of its own there (`/to/<n>`, `/state/<n>`), so interactions verified side by
 * side never meet. A request passes the verification's filter (credentials, the live budget: verifyInteraction.ts),
 * then goes to the provider with undici on the verification's dispatcher: on a live run that one carries the run's
 * outage watch (src/http/interceptors/outage.ts), so a provider that stops answering is waited for within the retry
 * budget, then declared unreachable, and the Verifier's request is answered 503 here at once. What the forwarding
 * itself could not do is answered 502; both are marked as the harness's (RELAY_HEADER), not the provider's.
 *
 * Not pact-js's Verifier: it starts an express proxy (with http-proxy, body parsers and a logger) for every
 * verification, with no error handler (a refused connection throws in the worker, and the Verifier waits 30 s), and a
 * live run would need a relay of its own behind it for the outage watch: two servers started and two extra hops for
 * each interaction (docs/speed.md, `npm run bench -- nightly-teams`).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from '../../src/http/nodeHttp.ts';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The core's verify itself: pact-core's verifyPacts wraps it in checks of options that are constant here, and makes a
// new logger for every call (about a millisecond of CPU each, a few per cent of a live verification).
import { verify } from '@pact-foundation/pact-core/dist/verifier/nativeVerifier.js';
import type { Dispatcher } from 'undici';
import { droppedHeaders, forwardRequest } from '../../src/http/forwardingServer.ts';
import { outageOf } from '../../src/http/providerOutage.ts';
import { nodeReadsOpenSslRoots, setProcessVariable, setProcessVariablesFor } from '../../src/config/env.ts';

/** Marks an answer the harness made itself (not the provider's): `provider unreachable` or `relay failed`. */
export const RELAY_HEADER = 'x-harness-relay';

/** A provider request as the filter sees it: its URL is the pact's path and query, as the pact writes them. */
export type FrontRequest = IncomingMessage & { method: string; url: string };

/** One verification's way through the front. */
export interface FrontSession {
  /** The provider's origin and any path before the pact's paths. */
  readonly base: string;
  /** What the requests are sent on (live: with the run's outage watch). */
  readonly dispatcher: Dispatcher;
  /**
   * What a state's set-up call answers: the values the pact's provider-state expressions read. Undefined when the
   * interaction has no such expression: then the core makes no state calls (its states are arranged already).
   */
  readonly values: Readonly<Record<string, string | number | boolean>> | undefined;
  /** Before each provider request: may change its URL and headers, or answer it itself instead of calling `next`. */
  readonly filter: (req: FrontRequest, res: ServerResponse, next: () => void) => void;
}

const sessions = new Map<string, FrontSession>();
let lastSession = 0;
let front: Promise<string> | undefined;
// The request headers a forward drops; Pact's Verifier sends no others the provider must not see.
const DROPPED = droppedHeaders();

let pactFiles: string | undefined;
let coreStarted = false;

/**
 * Pact's core builds an HTTPS-capable client for every verification and reads every root certificate the system has
 * into it: about 8 ms of CPU an interaction, half of what the core costs. It only ever speaks plain HTTP, to this front
 * on loopback, so while it verifies it is given one root (ISRG Root X1, public) through the variables it reads them
 * from; they are put back as they were once no verification is under way, so nothing else this process starts sees
 * them. Left alone where Node's own TLS reads the same variables (nodeReadsOpenSslRoots): the provider's TLS is
 * undici's, on Node's roots, and must not lose them.
 */
const ONE_ROOT = `-----BEGIN CERTIFICATE-----
MIIFazCCA1OgAwIBAgIRAIIQz7DSQONZRGPgu2OCiwAwDQYJKoZIhvcNAQELBQAw
TzELMAkGA1UEBhMCVVMxKTAnBgNVBAoTIEludGVybmV0IFNlY3VyaXR5IFJlc2Vh
cmNoIEdyb3VwMRUwEwYDVQQDEwxJU1JHIFJvb3QgWDEwHhcNMTUwNjA0MTEwNDM4
WhcNMzUwNjA0MTEwNDM4WjBPMQswCQYDVQQGEwJVUzEpMCcGA1UEChMgSW50ZXJu
ZXQgU2VjdXJpdHkgUmVzZWFyY2ggR3JvdXAxFTATBgNVBAMTDElTUkcgUm9vdCBY
MTCCAiIwDQYJKoZIhvcNAQEBBQADggIPADCCAgoCggIBAK3oJHP0FDfzm54rVygc
h77ct984kIxuPOZXoHj3dcKi/vVqbvYATyjb3miGbESTtrFj/RQSa78f0uoxmyF+
0TM8ukj13Xnfs7j/EvEhmkvBioZxaUpmZmyPfjxwv60pIgbz5MDmgK7iS4+3mX6U
A5/TR5d8mUgjU+g4rk8Kb4Mu0UlXjIB0ttov0DiNewNwIRt18jA8+o+u3dpjq+sW
T8KOEUt+zwvo/7V3LvSye0rgTBIlDHCNAymg4VMk7BPZ7hm/ELNKjD+Jo2FR3qyH
B5T0Y3HsLuJvW5iB4YlcNHlsdu87kGJ55tukmi8mxdAQ4Q7e2RCOFvu396j3x+UC
B5iPNgiV5+I3lg02dZ77DnKxHZu8A/lJBdiB3QW0KtZB6awBdpUKD9jf1b0SHzUv
KBds0pjBqAlkd25HN7rOrFleaJ1/ctaJxQZBKT5ZPt0m9STJEadao0xAH0ahmbWn
OlFuhjuefXKnEgV4We0+UXgVCwOPjdAvBbI+e0ocS3MFEvzG6uBQE3xDk3SzynTn
jh8BCNAw1FtxNrQHusEwMFxIt4I7mKZ9YIqioymCzLq9gwQbooMDQaHWBfEbwrbw
qHyGO0aoSCqI3Haadr8faqU9GY/rOPNk3sgrDQoo//fb4hVC1CLQJ13hef4Y53CI
rU7m2Ys6xt0nUW7/vGT1M0NPAgMBAAGjQjBAMA4GA1UdDwEB/wQEAwIBBjAPBgNV
HRMBAf8EBTADAQH/MB0GA1UdDgQWBBR5tFnme7bl5AFzgAiIyBpY9umbbjANBgkq
hkiG9w0BAQsFAAOCAgEAVR9YqbyyqFDQDLHYGmkgJykIrGF1XIpu+ILlaS/V9lZL
ubhzEFnTIZd+50xx+7LSYK05qAvqFyFWhfFQDlnrzuBZ6brJFe+GnY+EgPbk6ZGQ
3BebYhtF8GaV0nxvwuo77x/Py9auJ/GpsMiu/X1+mvoiBOv/2X/qkSsisRcOj/KK
NFtY2PwByVS5uCbMiogziUwthDyC3+6WVwW6LLv3xLfHTjuCvjHIInNzktHCgKQ5
ORAzI4JMPJ+GslWYHb4phowim57iaztXOoJwTdwJx4nLCgdNbOhdjsnvzqvHu7Ur
TkXWStAmzOVyyghqpZXjFaH3pO3JLF+l+/+sKAIuvtd7u+Nxe5AW0wdeRlN8NwdC
jNPElpzVmbUq4JUagEiuTDkHzsxHpFKVK7q4+63SM1N95R1NbdWhscdCb+ZAJzVc
oyi3B43njTOQ5yOf+1CceWxG1bQVs5ZufpsMljq4Ui0/1lvh+wjChP4kqKOJ2qxq
4RgqsahDYVvTH9w7jXbyLeiNdd8XM2w9U/t7y0Ff/9yi0GE44Za4rF2LN9d11TPA
mRGunUHBcnWEvgJBQl9nJEiU0Zsnvgc/ubhPgXRR4Xq37Z0j4r7g1SgEEzwxA57d
emyPxgcYxn/eR44/KJ4EBs+lVDR3veyJm+kXQ99b21/+jh5Xos1AnX5iItreGCc=
-----END CERTIFICATE-----
`;
let inFlight = 0;
let putBack: (() => void) | undefined;

function coreBegins(folder: string): void {
  if (inFlight++ > 0 || nodeReadsOpenSslRoots()) return;
  const roots = join(folder, 'roots');
  const file = join(roots, 'isrg-root-x1.pem');
  if (!existsSync(file)) {
    mkdirSync(roots, { recursive: true });
    writeFileSync(file, ONE_ROOT);
  }
  putBack = setProcessVariablesFor({ SSL_CERT_FILE: file, SSL_CERT_DIR: roots });
}

function coreEnds(): void {
  if (--inFlight > 0) return;
  putBack?.();
  putBack = undefined;
}

/**
 * Verifies a pact of one interaction (its text) against `session`'s provider with Pact's core; answers the core's
 * JSON report, and rejects with it as the error's message when the interaction does not hold (as pact-js does). The
 * core reads pacts from files: the text is written to this process's own folder, and removed once verified.
 */
export async function verifyThroughFront(provider: string, pact: string, session: FrontSession): Promise<string> {
  const url = await frontUrl();
  const id = String(++lastSession);
  if (!pactFiles) {
    pactFiles = mkdtempSync(join(tmpdir(), 'harness-pacts-'));
    // No usage data from the core (the harness's commands and runs set it already; a team's own script may not).
    setProcessVariable('PACT_DO_NOT_TRACK', 'true');
  }
  const pactFile = join(pactFiles, `${id}.json`);
  writeFileSync(pactFile, pact);
  sessions.set(id, session);
  coreBegins(pactFiles);
  // The first call starts the core's logging, at errors only (Pact prints its own report; the harness tells the rest).
  const logLevel = coreStarted ? {} : ({ logLevel: 'error' } as const);
  coreStarted = true;
  try {
    return await verify({
      provider,
      pactUrls: [pactFile],
      providerBaseUrl: `${url}/to/${id}`,
      ...(session.values ? { providerStatesSetupUrl: `${url}/state/${id}` } : {}),
      timeout: 30_000,
      ...logLevel,
    });
  } finally {
    coreEnds();
    sessions.delete(id);
    rmSync(pactFile, { force: true });
  }
}

/** The front's URL, started on first use; it never keeps the process alive. */
function frontUrl(): Promise<string> {
  front ??= new Promise<string>((resolve, reject) => {
    const server: Server = createServer(answer);
    server.on('clientError', (_error, socket) => socket.destroy());
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.unref();
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    });
  });
  return front;
}

const ROUTE = /^\/(to|state)\/(\d+)(\/.*)?$/s;

function answer(req: IncomingMessage, res: ServerResponse): void {
  const [, kind, id, rest] = ROUTE.exec(req.url ?? '') ?? [];
  const session = id === undefined ? undefined : sessions.get(id);
  if (!session) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', [RELAY_HEADER]: 'no such verification' });
    res.end(`no verification is under way at ${req.url}`);
    return;
  }
  if (kind === 'state') return void stateCall(req, res, session);
  req.url = rest ?? '/';
  session.filter(req as FrontRequest, res, () =>
    forwardRequest({ base: session.base, dispatcher: session.dispatcher, dropped: DROPPED, onError: relayFailure }, req, res),
  );
}

/** A state call (`{state, params, action}`): the set-up answers the verification's values, the tear-down nothing. */
async function stateCall(req: IncomingMessage, res: ServerResponse, session: FrontSession): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let action: unknown;
  try {
    action = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { action?: unknown }).action;
  } catch {
    action = undefined;
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(action === 'setup' ? (session.values ?? {}) : {}));
}

/** The provider could not be reached: 503 when the outage watch declared it unreachable, 502 otherwise. */
function relayFailure(error: unknown, res: ServerResponse): void {
  const outage = outageOf(error);
  const message = error instanceof Error ? error.message : String(error);
  res.writeHead(outage ? 503 : 502, { 'content-type': 'text/plain; charset=utf-8', [RELAY_HEADER]: outage ? 'provider unreachable' : 'relay failed' });
  res.end(message);
}
