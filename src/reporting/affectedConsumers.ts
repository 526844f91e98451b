/**
 * Who a break affects: for each failed rule (or contract break drift found), the
 * consumers whose pacts depend on what broke, and which of their interactions.
 * An interaction is named when it is on a route the break concerns and either
 * uses the same header, member, parameter or status (read off its request, its
 * expected headers and body, and its matchers), or its verification failed
 * tonight with a reason that names one of them. A consumer that uses none of it
 * is not named. Pure: pacts and verdicts in, a list per break out; the console
 * (VerifyReporter), the Allure report and the nightly's run summary render it.
 */
import { firstLine } from '../verify/verifySummary.ts';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The pacts whose consumers a failed rule may affect: the harness's own, the examples', and the held-out
 * consumers' (contracts/pactNames.ts PACT_DIR and OUTSIDE_PACT_SOURCES; a unit test keeps them the same).
 */
export const PACT_SOURCES = ['contracts/pacts', 'examples/pacts', 'tests/fixtures/pacts'] as const;

export type ConcernApi = 'store' | 'media';

/**
 * What a rule (or a drift finding) is about, in the terms a pact shows. Routes are paths under the API's base
 * (`/v1/{store_id}` or `/api/edge`): `/products`, `/categories/{id}`, `**` for every route. An interaction on such
 * a route is affected when it uses any of the rest; a concern that lists none of the rest is about the route itself.
 */
export interface Concern {
  readonly routes: readonly string[];
  readonly methods?: readonly string[];
  /** Request or response headers, matched case-insensitively; `*` is a wildcard. */
  readonly headers?: readonly string[];
  /** An interaction that sends none of these headers (anonymous reads, a missing User-Agent). */
  readonly withoutHeaders?: readonly string[];
  /** Body members, as dotted paths (`meta.count`, `*_at`), or a pattern a member name matches. */
  readonly members?: readonly (string | RegExp)[];
  /** Query parameters (`per_page`, `fields[*]`). */
  readonly params?: readonly string[];
  /** An interaction that sends none of these parameters (the default page size). */
  readonly withoutParams?: readonly string[];
  readonly statuses?: readonly number[];
  /** Any interaction that expects a JSON body. */
  readonly body?: boolean;
}

/** Something that broke: a contract or reliance rule that failed, or a contract break drift found. */
export interface Break {
  /** The rule id, or what drift names (`drift: GET /products X-Total-Count`). */
  readonly id: string;
  readonly api: ConcernApi;
  readonly kind: 'contract' | 'reliance' | 'drift';
  /** What it concerns; none when that is not known (then only its failing routes, if any, are used). */
  readonly concern?: Concern;
  /** `GET /v1/1/products?page=2`: the requests its failing tests were about, when known. */
  readonly failingRequests?: readonly string[];
  /** The first line of what failed. */
  readonly summary?: string;
}

/** One interaction of a pact, as far as what it uses goes. */
export interface InteractionUse {
  readonly description: string;
  readonly method: string;
  /** The path under the API's base: `/products`, `/anime/1`. */
  readonly route: string;
  readonly params: readonly string[];
  readonly headers: readonly string[];
  /** Dotted member paths of its request and response bodies and their matchers, without array indices. */
  readonly members: readonly string[];
  readonly status: number;
  readonly body: boolean;
}

export interface ConsumerPact {
  readonly consumer: string;
  readonly provider: string;
  readonly api: ConcernApi;
  readonly file: string;
  readonly interactions: readonly InteractionUse[];
}

/** How an interaction came out tonight (a verification run's test, or an outcome a broker run wrote). */
export interface InteractionVerdict {
  readonly consumer: string;
  readonly description: string;
  readonly status: 'passed' | 'failed' | 'skipped';
  readonly reason?: string;
}

export interface AffectedInteraction {
  readonly description: string;
  /** What of the break it uses: `header X-Total-Count`, `member meta.count`, `parameter per_page`, `the route GET /products`. */
  readonly uses: readonly string[];
  /** Tonight's verdict, when it was verified tonight. */
  readonly tonight?: InteractionVerdict['status'];
  readonly reason?: string;
}

export interface AffectedConsumer {
  readonly consumer: string;
  readonly provider: string;
  readonly file: string;
  readonly interactions: readonly AffectedInteraction[];
}

export interface Affected {
  readonly break: Break;
  readonly consumers: readonly AffectedConsumer[];
}

/** `store-product-sync (latest from branch main) → store-commerce-api` → `store-product-sync`: a pact's title in a report. */
export function consumerOfPactTitle(title: string): string {
  return (title.split(' → ')[0] ?? title).replace(/\s*\(.*\)\s*$/, '').trim();
}

/** Every route of an API. */
export const EVERY_ROUTE = '**';

/** Provider names → API, as the outside verification reads them (contracts/verification/outsidePacts.ts apiOfProvider). */
export function apiOfProviderName(provider: string): ConcernApi | undefined {
  const name = provider.toLowerCase();
  const store = /store|commerce|tiendanube|nuvemshop/.test(name);
  const media = /media|kitsu|anime|manga/.test(name);
  return store === media ? undefined : store ? 'store' : 'media';
}

/** The path under the API's base: `/v1/100001/products` → `/products`, `/api/edge/anime/1` → `/anime/1`; others as they are. */
export function routeOf(api: ConcernApi, path: string): string {
  const bare = path.split('?')[0]!;
  const under = api === 'store' ? bare.replace(/^\/v1\/[^/]+(?=\/|$)/, '') : bare.replace(/^\/api\/edge(?=\/|$)/, '');
  return under === '' ? '/' : under;
}

function glob(pattern: string, flags = ''): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
  return new RegExp(`^${escaped}$`, flags);
}

/** Whether `route` fits `pattern`: `{name}` is one segment, `**` the rest, `*` part of a segment. */
export function routeMatches(pattern: string, route: string): boolean {
  if (pattern === EVERY_ROUTE) return true;
  const source = pattern
    .split('/')
    .map((segment) =>
      segment === EVERY_ROUTE ? '.*' : /^\{[^}]+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'),
    )
    .join('/');
  return new RegExp(`^${source}$`).test(route);
}

/** `$.data[*].attributes.canonicalTitle` → `data.attributes.canonicalTitle`; `$['x-y'].z` → `x-y.z`; the root → ''. */
export function memberPath(jsonPath: string): string {
  return jsonPath
    .replace(/^\$\.?/, '')
    .replace(/\[['"]([^'"]+)['"]\]/g, '.$1')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/^\.|\.$/g, '')
    .replace(/\.{2,}/g, '.');
}

/** Every member path of a JSON value (each object key, with the keys above it; array indices dropped). */
function membersOf(value: unknown, prefix = '', into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) membersOf(item, prefix, into);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const path = prefix ? `${prefix}.${key}` : key;
      into.add(path);
      membersOf(child, path, into);
    }
  }
  return into;
}

/** Whether the member path `path` (dotted) touches `concern`: a stretch of its segments is where the concern's begin. */
export function memberMatches(concern: string | RegExp, path: string): boolean {
  const segments = path.split('.').filter(Boolean);
  if (concern instanceof RegExp) return segments.some((segment) => concern.test(segment));
  const wanted = concern.split('.').map((segment) => glob(segment, 'i'));
  for (let start = 0; start < segments.length; start++) {
    const overlap = Math.min(segments.length - start, wanted.length);
    let fits = true;
    for (let k = 0; k < overlap && fits; k++) fits = wanted[k]!.test(segments[start + k]!);
    if (fits) return true;
  }
  return false;
}

type Json = Record<string, unknown>;

function keysOf(value: unknown): string[] {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
}

/** A V4 body (`{content, contentType, encoded}`), or a V2/V3 body as it is. */
function bodyContent(body: unknown): unknown {
  if (body !== null && typeof body === 'object' && !Array.isArray(body) && 'content' in body) {
    const { content, encoded } = body as { content?: unknown; encoded?: unknown };
    if (typeof content === 'string' && encoded === false) return content;
    if (typeof content === 'string') {
      try {
        return JSON.parse(content) as unknown;
      } catch {
        return undefined;
      }
    }
    return content;
  }
  return body;
}

/** The query parameter names of a V4/V3 query object or a V2 query string. */
function queryNames(query: unknown): string[] {
  if (typeof query === 'string') return [...new URLSearchParams(query).keys()];
  return keysOf(query);
}

/** What one interaction uses: its route, parameters, headers (sent, expected, matched), body members and status. */
export function interactionUse(api: ConcernApi, interaction: Json): InteractionUse {
  const request = (interaction['request'] ?? {}) as Json;
  const response = (interaction['response'] ?? {}) as Json;
  const path = String(request['path'] ?? '/');
  const [bare, inline] = path.split('?') as [string, string | undefined];
  const requestRules = (request['matchingRules'] ?? {}) as Json;
  const responseRules = (response['matchingRules'] ?? {}) as Json;
  const headers = new Set<string>();
  for (const name of [...keysOf(request['headers']), ...keysOf(response['headers']), ...keysOf(requestRules['header']), ...keysOf(responseRules['header'])]) {
    headers.add(name.toLowerCase());
  }
  const members = new Set<string>();
  for (const body of [bodyContent(request['body']), bodyContent(response['body'])]) membersOf(body, '', members);
  for (const rules of [requestRules, responseRules]) {
    for (const key of keysOf(rules['body'])) if (memberPath(key)) members.add(memberPath(key));
    // V2: flat keys, `$.body.name` and `$.headers.X-Total-Count`.
    for (const key of keysOf(rules)) {
      if (key.startsWith('$.body')) members.add(memberPath(key.replace(/^\$\.body/, '$')));
      if (key.startsWith('$.headers.')) headers.add(key.slice('$.headers.'.length).toLowerCase());
    }
  }
  members.delete('');
  const responseBody = bodyContent(response['body']);
  return {
    description: String(interaction['description'] ?? ''),
    method: String(request['method'] ?? 'GET').toUpperCase(),
    route: routeOf(api, bare),
    params: [...new Set([...queryNames(request['query']), ...(inline ? queryNames(inline) : [])])],
    headers: [...headers],
    members: [...members],
    status: Number(response['status'] ?? 200),
    body: responseBody !== undefined && responseBody !== null && typeof responseBody === 'object',
  };
}

/** A pact file as far as what its consumer uses goes; undefined when it is not a pact, or for neither API. */
export function consumerPact(file: string, text: string = readFileSync(file, 'utf8')): ConsumerPact | undefined {
  let pact: Json;
  try {
    pact = JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
  const provider = String((pact['provider'] as Json | undefined)?.['name'] ?? '');
  const consumer = String((pact['consumer'] as Json | undefined)?.['name'] ?? '');
  const api = apiOfProviderName(provider);
  const interactions = pact['interactions'];
  if (!api || !consumer || !Array.isArray(interactions)) return undefined;
  return { consumer, provider, api, file, interactions: interactions.map((i) => interactionUse(api, i as Json)) };
}

/** The pacts in these files and directories (each directory's *.json); what is missing or not a pact is left out. */
export function readConsumerPacts(sources: readonly string[]): ConsumerPact[] {
  const files = sources.flatMap((source) => {
    try {
      return statSync(source).isDirectory()
        ? readdirSync(source)
            .filter((name) => name.endsWith('.json'))
            .sort()
            .map((name) => join(source, name))
        : [source];
    } catch {
      return [];
    }
  });
  const pacts = [...new Set(files)].map((file) => consumerPact(file)).filter((pact): pact is ConsumerPact => pact !== undefined);
  // The same consumer's pact with the same provider from two places (a copy a broker served): named once.
  const seen = new Set<string>();
  return pacts.filter((pact) => {
    const key = `${pact.consumer}\n${pact.provider}\n${pact.interactions.map((i) => i.description).join('\n')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `GET /v1/1/products?page=2 → 200` (or without the status) → its method and route under the API's base. */
function requestRoute(api: ConcernApi, request: string): { method: string; route: string } | undefined {
  const match = /^([A-Z]+) (\S+)/.exec(request.trim());
  if (!match) return undefined;
  let path = match[2]!;
  try {
    if (/^https?:\/\//.test(path)) path = new URL(path).pathname;
  } catch {
    // Not a URL: the path as it is.
  }
  return { method: match[1]!, route: routeOf(api, path) };
}

/** Of the member paths that touch `concern`, the one that says most: the shortest that holds all of it, else the longest. */
function mostSpecific(concern: string | RegExp, paths: readonly string[]): string | undefined {
  const whole = typeof concern === 'string' ? paths.filter((path) => path.split('.').length >= concern.split('.').length && holds(concern, path)) : [];
  if (whole.length > 0) return [...whole].sort((a, b) => a.length - b.length)[0];
  return [...paths].sort((a, b) => b.length - a.length)[0];
}

/** Whether every segment of `concern` is in `path`, in a row. */
function holds(concern: string, path: string): boolean {
  const wanted = concern.split('.').map((segment) => glob(segment, 'i'));
  const segments = path.split('.');
  return segments.some((_, start) => start + wanted.length <= segments.length && wanted.every((w, k) => w.test(segments[start + k]!)));
}

/** What of `concern` the interaction uses, in words; empty when it uses none of it. */
function usesOf(concern: Concern, interaction: InteractionUse): string[] {
  const uses: string[] = [];
  for (const header of concern.headers ?? []) {
    const wanted = glob(header.toLowerCase());
    const found = interaction.headers.find((name) => wanted.test(name));
    if (found) uses.push(`header ${header.includes('*') ? found : header}`);
  }
  for (const header of concern.withoutHeaders ?? []) {
    if (!interaction.headers.includes(header.toLowerCase())) uses.push(`no ${header} header`);
  }
  for (const member of concern.members ?? []) {
    const found = mostSpecific(
      member,
      interaction.members.filter((path) => memberMatches(member, path)),
    );
    if (found) uses.push(`member ${found}`);
  }
  for (const param of concern.params ?? []) {
    const wanted = glob(param);
    const found = interaction.params.find((name) => wanted.test(name));
    if (found) uses.push(`parameter ${found}`);
  }
  for (const param of concern.withoutParams ?? []) if (!interaction.params.includes(param)) uses.push(`no ${param} parameter`);
  if (concern.statuses?.includes(interaction.status)) uses.push(`status ${interaction.status}`);
  if (concern.body && interaction.body) uses.push('a JSON body');
  return [...new Set(uses)];
}

function hasCriteria(concern: Concern): boolean {
  return (
    [concern.headers, concern.withoutHeaders, concern.members, concern.params, concern.withoutParams, concern.statuses].some(
      (list) => (list?.length ?? 0) > 0,
    ) || concern.body === true
  );
}

/** The words of a concern a failure reason may name: its headers, plain member names and parameters. */
function namedIn(concern: Concern): string[] {
  const members = (concern.members ?? []).filter((m): m is string => typeof m === 'string' && !m.includes('*'));
  return [...(concern.headers ?? []).filter((h) => !h.includes('*')), ...members, ...(concern.params ?? []).filter((p) => !p.includes('*'))];
}

/**
 * The concern a break is judged by: its own, and where it is about every route and nothing more (a route that
 * is not served), the routes of its failing requests, when known.
 */
function effectiveConcern(brk: Break): Concern | undefined {
  const failing = (brk.failingRequests ?? []).map((request) => requestRoute(brk.api, request)).filter((r) => r !== undefined);
  const concern = brk.concern;
  if (concern && (hasCriteria(concern) || !concern.routes.includes(EVERY_ROUTE) || failing.length === 0)) return concern;
  if (failing.length === 0) return undefined;
  // A numeric segment is an id: the route of any record, not of that one.
  const routes = failing.map((r) => r.route.replace(/\/\d+(?=\/|$)/g, '/{id}'));
  return { routes: [...new Set(routes)], methods: [...new Set(failing.map((r) => r.method))] };
}

function verdictKey(consumer: string, description: string): string {
  return `${consumer}\n${description}`;
}

/** Per break, the consumers and interactions that depend on what broke (see the file's comment). */
export function affectedConsumers(breaks: readonly Break[], pacts: readonly ConsumerPact[], verdicts: readonly InteractionVerdict[] = []): Affected[] {
  const tonight = new Map(verdicts.map((v) => [verdictKey(v.consumer, v.description), v]));
  return breaks.map((brk) => {
    const concern = effectiveConcern(brk);
    if (!concern) return { break: brk, consumers: [] };
    const consumers: AffectedConsumer[] = [];
    for (const pact of [...pacts].filter((p) => p.api === brk.api).sort((a, b) => a.consumer.localeCompare(b.consumer))) {
      const interactions: AffectedInteraction[] = [];
      for (const interaction of pact.interactions) {
        if (!concern.routes.some((pattern) => routeMatches(pattern, interaction.route))) continue;
        if (concern.methods && !concern.methods.includes(interaction.method)) continue;
        const verdict = tonight.get(verdictKey(pact.consumer, interaction.description));
        let uses = hasCriteria(concern) ? usesOf(concern, interaction) : [`the route ${interaction.method} ${interaction.route}`];
        if (uses.length === 0 && verdict?.status === 'failed' && verdict.reason) {
          const reason = verdict.reason.toLowerCase();
          uses = namedIn(concern)
            .filter((word) => reason.includes(word.toLowerCase()))
            .map((word) => `its failure names ${word}`);
        }
        if (uses.length === 0) continue;
        interactions.push({
          description: interaction.description,
          uses,
          ...(verdict ? { tonight: verdict.status, ...(verdict.reason ? { reason: verdict.reason } : {}) } : {}),
        });
      }
      if (interactions.length > 0) consumers.push({ consumer: pact.consumer, provider: pact.provider, file: pact.file, interactions });
    }
    return { break: brk, consumers };
  });
}

/** `failed tonight`, `passed tonight`, `skipped tonight (not verified)`, or `not verified tonight` (`when`: tonight, in this run). */
export function tonightWords(interaction: AffectedInteraction, when = 'tonight'): string {
  if (interaction.tonight === 'failed') return `failed ${when}`;
  if (interaction.tonight === 'passed') return `passed ${when}`;
  if (interaction.tonight === 'skipped') return `skipped ${when} (not verified)`;
  return `not verified ${when}`;
}

/** One line per break and consumer, for a terminal: `  store.pagination.total-count → store-integration: “…” (failed tonight; header X-Total-Count)`. */
export function affectedLines(affected: readonly Affected[], options: { width?: number; when?: string } = {}): string[] {
  const { width = 200, when = 'tonight' } = options;
  const cut = (line: string) => (line.length > width ? `${line.slice(0, width - 1)}…` : line);
  return affected.flatMap(({ break: brk, consumers }) => {
    if (consumers.length === 0) return [cut(`  ${brk.id}: no consumer's pact uses what it concerns`)];
    return consumers.map(({ consumer, interactions }) =>
      cut(`  ${brk.id} → ${consumer}: ${interactions.map((i) => `“${i.description}” (${tonightWords(i, when)}; ${i.uses.join(', ')})`).join('; ')}`),
    );
  });
}
function plain(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/([\\*_[\]<>|`])/g, '\\$1');
}

/** Markdown: a section per break, its consumers and their interactions (the Allure attachment and the run summary). */
export function affectedMarkdown(affected: readonly Affected[], heading = '## Who the breaks affect', when = 'tonight'): string {
  const lines = [heading, ''];
  const sub = '#'.repeat(Math.min(6, (/^#+/.exec(heading)?.[0].length ?? 2) + 1));
  if (affected.length === 0) lines.push('No contract or reliance rule failed, and drift found no contract break.', '');
  for (const { break: brk, consumers } of affected) {
    lines.push(`${sub} ${plain(brk.id)} (${brk.kind}, ${brk.api})`, '');
    if (brk.summary) lines.push(plain(brk.summary), '');
    if (consumers.length === 0) {
      lines.push("No consumer's pact uses what it concerns.", '');
      continue;
    }
    for (const { consumer, provider, file, interactions } of consumers) {
      lines.push(`- **${plain(consumer)}** (pact with ${plain(provider)}, \`${file}\`)`);
      for (const i of interactions) {
        const why = i.tonight === 'failed' && i.reason ? `: ${plain(firstLine(i.reason)).slice(0, 200)}` : '';
        lines.push(`  - “${plain(i.description)}”: ${tonightWords(i, when)}${why}; uses ${i.uses.map(plain).join(', ')}`);
      }
    }
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
