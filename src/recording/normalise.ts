/**
 * Normalisation of recordings by one declarative rules file per API
 * (contracts/<api>/normalisation.json): what changes on every run (dates, rate
 * headers, timestamps, generated ids and names) is replaced by a placeholder,
 * so that two recordings of the same behaviour are equal, and what is left to
 * differ is drift. The same rules are the tolerance of `npm run drift` and
 * the request matching of a replay.
 */
import { readFileSync } from 'node:fs';
import type { Cassette, Interaction, RecordingApi } from './cassette.ts';

export interface NormalisationRules {
  readonly api: RecordingApi;
  /** Why each rule is there, for a reader of the file. */
  readonly description?: string;
  readonly headers: {
    /** Transport noise, dropped from the normalised recording (date, connection, ...). */
    readonly ignore: readonly string[];
    /** Headers whose presence matters but whose value changes on every run: value → placeholder. */
    readonly volatile: Readonly<Record<string, string>>;
  };
  /** Request headers a replay compares (presence and value, credentials as stand-ins). */
  readonly requestHeaders: readonly string[];
  /** JSON members (at any depth) whose value changes on every run: member name → placeholder. */
  readonly fields: Readonly<Record<string, string>>;
  /** JSON members holding ids a provider hands out: renumbered <id:1>, <id:2>, ... in order of first appearance, in paths and links too. */
  readonly ids: readonly string[];
  /** Patterns replaced in every string (paths, header values, bodies). */
  readonly text: readonly { readonly pattern: string; readonly as: string }[];
  /** Response headers the contract requires where they appeared: losing one is a contract break in the drift report. */
  readonly contractHeaders: readonly string[];
  /** Patterns of further secrets, redacted at record time (src/recording/redactRecording.ts). */
  readonly redact: readonly string[];
}

export class RulesError extends Error {}

/** The rules file of an API; a malformed file fails with its path and the member that is wrong. */
export function loadRules(api: RecordingApi, path = `contracts/${api}/normalisation.json`): NormalisationRules {
  let parsed: Partial<NormalisationRules>;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<NormalisationRules>;
  } catch (error) {
    throw new RulesError(`${path}: ${(error as Error).message}`);
  }
  const lists = ['requestHeaders', 'ids', 'text', 'contractHeaders', 'redact'] as const;
  const problems = [
    parsed.api === api ? '' : `api is ${JSON.stringify(parsed.api)}, expected "${api}"`,
    Array.isArray(parsed.headers?.ignore) && typeof parsed.headers?.volatile === 'object' ? '' : 'headers needs ignore (a list) and volatile (an object)',
    typeof parsed.fields === 'object' && parsed.fields !== null ? '' : 'fields must be an object of member name → placeholder',
    ...lists.map((k) => (Array.isArray(parsed[k]) ? '' : `${k} must be a list`)),
    ...(parsed.text ?? []).map((t) => {
      try {
        new RegExp(t.pattern);
        return '';
      } catch (error) {
        return `text pattern ${JSON.stringify(t.pattern)} is not a regular expression (${(error as Error).message})`;
      }
    }),
  ].filter(Boolean);
  if (problems.length > 0) throw new RulesError(`${path}: ${problems.join('; ')}`);
  return parsed as NormalisationRules;
}

/** The placeholder of the recorded origin in normalised text: recordings from a twin and from the real service compare. */
export const ORIGIN = '<origin>';

class Normaliser {
  readonly #rules: NormalisationRules;
  readonly #ids = new Map<string, string>();
  readonly #origins: string[];
  readonly #text: { re: RegExp; as: string }[];

  constructor(rules: NormalisationRules, origins: readonly string[]) {
    this.#rules = rules;
    this.#origins = [...new Set(origins)].sort((a, b) => b.length - a.length);
    this.#text = rules.text.map((t) => ({ re: new RegExp(t.pattern, 'g'), as: t.as }));
  }

  /** First pass: every id value, in order of appearance, so paths can use ids that appear later in bodies too. */
  collectIds(value: unknown): void {
    if (Array.isArray(value)) value.forEach((v) => this.collectIds(v));
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (this.#rules.ids.includes(k) && (typeof v === 'number' || typeof v === 'string') && String(v) !== '') this.#idOf(String(v));
        else this.collectIds(v);
      }
    }
  }

  #idOf(value: string): string {
    let id = this.#ids.get(value);
    if (!id) {
      id = `<id:${this.#ids.size + 1}>`;
      this.#ids.set(value, id);
    }
    return id;
  }

  text(value: string): string {
    let out = value;
    for (const origin of this.#origins) out = out.split(origin).join(ORIGIN);
    for (const { re, as } of this.#text) out = out.replace(re, as);
    // Path segments that are known ids: /products/123 → /products/<id:2>.
    return out.replace(/\/([^/?#&\s<>;,"]+)/g, (whole, segment: string) => (this.#ids.has(segment) ? `/${this.#ids.get(segment)}` : whole));
  }

  json(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.json(v));
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => {
          if (k in this.#rules.fields && v !== null) return [k, this.#rules.fields[k]];
          if (this.#rules.ids.includes(k) && (typeof v === 'number' || typeof v === 'string') && this.#ids.has(String(v))) return [k, this.#ids.get(String(v))];
          return [k, this.json(v)];
        }),
      );
    }
    return value;
  }

  responseHeaders(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const name of Object.keys(headers).sort()) {
      if (this.#rules.headers.ignore.includes(name)) continue;
      out[name] = this.#rules.headers.volatile[name] ?? this.text(headers[name]!);
    }
    return out;
  }

  requestHeaders(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const name of Object.keys(headers).sort()) if (this.#rules.requestHeaders.includes(name)) out[name] = this.text(headers[name]!);
    return out;
  }

  interaction(i: Interaction): Interaction {
    const out: Interaction = {
      scope: ORIGIN,
      method: i.method,
      path: this.text(i.path),
      reqheaders: this.requestHeaders(i.reqheaders),
      status: i.status,
      rawHeaders: this.responseHeaders(i.rawHeaders),
    };
    if (i.body !== undefined) out.body = this.json(i.body);
    if (i.response !== undefined) out.response = this.json(i.response);
    return out;
  }
}

/** The normalised form of a (redacted) cassette. Deterministic: the same raw cassette always gives the same file. */
export function normaliseCassette(raw: Cassette, rules: NormalisationRules): Cassette {
  const n = new Normaliser(
    rules,
    raw.interactions.map((i) => i.scope),
  );
  for (const i of raw.interactions) {
    n.collectIds(i.response);
    n.collectIds(i.body);
  }
  return { ...raw, uniqueSeed: '<seed>', interactions: collapseRuns(raw.interactions.map((i) => n.interaction(i))) };
}

/**
 * Consecutive identical exchanges become one, marked `repeated`: a burst of the same request
 * until a 429 serves as many 200s as the bucket leaked room for meanwhile, which a real clock
 * decides. The raw cassette keeps every exchange; a replay serves that.
 */
function collapseRuns(interactions: Interaction[]): Interaction[] {
  const out: Interaction[] = [];
  let last: string | undefined;
  for (const interaction of interactions) {
    const text = JSON.stringify(interaction);
    if (text === last) out[out.length - 1] = { ...out[out.length - 1]!, repeated: true };
    else out.push(interaction);
    last = text;
  }
  return out;
}

/** The normalised form of one request, for matching a replayed request to a recorded one. */
export function normaliseRequest(
  request: Pick<Interaction, 'method' | 'path' | 'reqheaders' | 'body'>,
  rules: NormalisationRules,
): Pick<Interaction, 'method' | 'path' | 'reqheaders' | 'body'> {
  const n = new Normaliser(rules, []);
  const reqheaders = n.requestHeaders(request.reqheaders);
  // A content type on a request without a body says nothing (some clients send one on every GET).
  if (request.body === undefined) delete reqheaders['content-type'];
  return {
    method: request.method,
    path: request.path,
    reqheaders,
    ...(request.body === undefined ? {} : { body: request.body }),
  };
}
