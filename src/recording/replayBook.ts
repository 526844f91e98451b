/**
 * What a replay serves: the interactions of one or more cassettes, matched to
 * incoming requests by method, path and query, body and the API's significant
 * request headers (contracts/<api>/normalisation.json `requestHeaders`), with
 * credentials compared as their stand-ins. The same request recorded twice
 * (a burst into the rate limit) is answered in recorded order. A request
 * nothing matches is a ReplayMiss that names the closest recorded request and
 * how it differs. Used in-process through nock (nockReplay.ts) and over HTTP
 * (replayServer.ts).
 */
import { isDeepStrictEqual } from 'node:util';
import { requestLine, type Interaction } from './cassette.ts';
import { normaliseRequest, type NormalisationRules } from './normalise.ts';
import { redactInteraction, type RecordingRedaction } from './redactRecording.ts';

export type RecordedRequest = Pick<Interaction, 'method' | 'path' | 'reqheaders' | 'body'>;

export class ReplayMiss extends Error {
  readonly closest: Interaction | undefined;
  constructor(message: string, closest: Interaction | undefined) {
    super(message);
    this.name = 'ReplayMiss';
    this.closest = closest;
  }
}

/** Incoming requests carry stand-ins already; redaction still turns other credentials into theirs. */
const NO_SECRETS: RecordingRedaction = { secrets: [], patterns: [] };

/** Headers a served recording must not carry: the body is re-serialised, so framing is the server's to say. */
const HOP_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'content-encoding']);

/**
 * A recorded answer as it goes back on the wire, in-process (nock) or over HTTP
 * (the replay server, which passes `rewrite` to point the recorded origin at itself).
 */
export function servedAnswer(interaction: Interaction, rewrite?: (text: string) => string): { status: number; headers: Record<string, string>; body: string } {
  const text = rewrite ?? ((t: string) => t);
  const headers = Object.fromEntries(Object.entries(interaction.rawHeaders).flatMap(([name, value]) => (HOP_HEADERS.has(name) ? [] : [[name, text(value)]])));
  const { response } = interaction;
  const body =
    response === undefined ? '' : typeof response === 'string' ? text(response) : JSON.stringify(rewrite ? rewriteJson(response, rewrite) : response);
  return { status: interaction.status, headers, body };
}

function rewriteJson(value: unknown, rewrite: (text: string) => string): unknown {
  if (typeof value === 'string') return rewrite(value);
  if (Array.isArray(value)) return value.map((v) => rewriteJson(v, rewrite));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteJson(v, rewrite)]));
  return value;
}

/** The body as a recorder stores it: parsed JSON when it is JSON. */
export function parseBody(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export class ReplayBook {
  readonly #entries: { interaction: Interaction; key: RecordedRequest; used: boolean; source: string }[];
  readonly #rules: NormalisationRules;
  /** Whether a request matched every time may be answered again once its recordings are used up (the replay server). */
  readonly #cycle: boolean;
  /** Why there is nothing to answer with (no cassette), for the message of every miss. */
  readonly #missing: string | undefined;

  constructor(
    rules: NormalisationRules,
    cassettes: readonly { source: string; interactions: readonly Interaction[] }[],
    options: { cycle?: boolean; missing?: string | undefined } = {},
  ) {
    this.#rules = rules;
    this.#cycle = options.cycle ?? false;
    this.#missing = options.missing;
    this.#entries = cassettes.flatMap(({ source, interactions }) =>
      interactions.map((interaction) => ({ interaction, key: normaliseRequest(redactInteraction(interaction, NO_SECRETS), rules), used: false, source })),
    );
  }

  /** The recorded answer to `request`; throws ReplayMiss when none was recorded. */
  answer(request: RecordedRequest): { interaction: Interaction; source: string } {
    const key = normaliseRequest(redactInteraction({ scope: '', status: 0, rawHeaders: {}, ...request }, NO_SECRETS), this.#rules);
    const matches = this.#entries.filter((e) => sameRequest(e.key, key));
    const next = matches.find((e) => !e.used) ?? (this.#cycle ? matches[0] : undefined);
    if (next) {
      if (this.#cycle && matches.every((e) => e.used)) matches.forEach((e) => (e.used = false));
      next.used = true;
      return { interaction: next.interaction, source: next.source };
    }
    throw this.#miss(key, matches.length);
  }

  /** Recorded interactions nothing asked for: the suite sent fewer requests than when it was recorded. */
  unused(): Interaction[] {
    return this.#entries.filter((e) => !e.used).map((e) => e.interaction);
  }

  get size(): number {
    return this.#entries.length;
  }

  #miss(key: RecordedRequest, usedUp: number): ReplayMiss {
    const what = requestLine(key);
    if (this.#missing) return new ReplayMiss(`${this.#missing} (it sent ${what})`, undefined);
    if (usedUp > 0) {
      return new ReplayMiss(
        `replay: ${what} was recorded ${usedUp} time(s) and every recording of it is used up; the test now sends it more often than when it was recorded. Record again: npm run record.`,
        this.#entries.find((e) => sameRequest(e.key, key))?.interaction,
      );
    }
    const ranked = this.#entries.map((e) => ({ e, diff: differences(e.key, key) })).sort((a, b) => weight(a.diff) - weight(b.diff));
    const best = ranked[0];
    if (!best) return new ReplayMiss(`replay: no recording of ${what}: the cassette is empty. Record it: npm run record.`, undefined);
    return new ReplayMiss(
      `replay: no recording of ${what}. The closest recorded request is ${requestLine(best.e.key)} (in ${best.e.source}), which differs in ${best.diff.join('; ')}. ` +
        'If the test changed, record again (npm run record); if not, the request is not deterministic.',
      best.e.interaction,
    );
  }
}

const WEIGHTS: Record<string, number> = { method: 8, path: 4, query: 2, body: 2, header: 1 };

/** A different route counts for more than a different header. */
function weight(diff: readonly string[]): number {
  return diff.reduce((sum, d) => sum + (WEIGHTS[d.split(' ')[0]!] ?? 1), 0);
}

function sameRequest(a: RecordedRequest, b: RecordedRequest): boolean {
  return a.method === b.method && a.path === b.path && isDeepStrictEqual(a.body, b.body) && isDeepStrictEqual(a.reqheaders, b.reqheaders);
}

/** How `actual` differs from `recorded`, most telling first. */
export function differences(recorded: RecordedRequest, actual: RecordedRequest): string[] {
  const out: string[] = [];
  if (recorded.method !== actual.method) out.push(`method (recorded ${recorded.method})`);
  const [rPath, rQuery = ''] = recorded.path.split('?');
  const [aPath, aQuery = ''] = actual.path.split('?');
  if (rPath !== aPath) out.push(`path (recorded ${rPath}, sent ${aPath})`);
  if (rQuery !== aQuery) out.push(`query (recorded "${rQuery}", sent "${aQuery}")`);
  const names = new Set([...Object.keys(recorded.reqheaders), ...Object.keys(actual.reqheaders)]);
  for (const name of [...names].sort()) {
    const r = recorded.reqheaders[name];
    const a = actual.reqheaders[name];
    if (r === a) continue;
    if (r === undefined) out.push(`header ${name} (sent, not recorded)`);
    else if (a === undefined) out.push(`header ${name} (recorded, not sent)`);
    else out.push(`header ${name} (recorded "${r}", sent "${a}")`);
  }
  if (!isDeepStrictEqual(recorded.body, actual.body)) {
    out.push(`body (recorded ${JSON.stringify(recorded.body)?.slice(0, 120) ?? 'none'}, sent ${JSON.stringify(actual.body)?.slice(0, 120) ?? 'none'})`);
  }
  return out;
}
