/**
 * Drift: a fresh recording compared with the stored one, both normalised by
 * the API's rules (contracts/<api>/normalisation.json), so what changes on
 * every run is no difference and what is left is drift. Each difference is a
 * finding: a contract break (the fresh answer breaks its route's JSON Schema,
 * a contract header was lost, a status moved to another class) or an
 * observation (everything else). `checkRecordings` is the schema check of
 * every stored recording on its own.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { liveStoreBaseUrl } from '../config/harnessConfig.ts';
import type { Exchange } from '../http/Exchange.ts';
import { MEDIA_CONTRACT } from '../rules/mediaContract.ts';
import { STORE_CONTRACT } from '../rules/storeContract.ts';
import { mediaResponseSchema } from '../schemas/mediaResponseSchema.ts';
import { schemaBreachOf, type RouteSchemas } from '../schemas/schemaBreaches.ts';
import { storeResponseSchema } from '../schemas/storeResponseSchema.ts';
import { listCassettes, readCassette, RECORDING_APIS, requestLine, type Cassette, type Interaction, type RecordingApi } from './cassette.ts';
import { loadRules, normaliseCassette, type NormalisationRules } from './normalise.ts';
import { readRecordedTarget } from './recordedTarget.ts';

export const DRIFT_FORMAT = 'harness-drift/1';

export type FindingKind = 'contract-break' | 'observation';

export type DriftChange =
  | 'cassette-added'
  | 'cassette-missing'
  | 'route-added'
  | 'route-removed'
  | 'status'
  | 'header-added'
  | 'header-removed'
  | 'header-changed'
  | 'field-added'
  | 'field-removed'
  | 'field-type'
  | 'field-value'
  | 'fields-omitted'
  | 'schema';

export interface DriftFinding {
  kind: FindingKind;
  change: DriftChange;
  /** `METHOD /path` of the interaction, normalised (ids as <id:n>); absent for a whole cassette. */
  route?: string;
  /** Position of the interaction (1-based) in the fresh cassette, or in the stored one when the route was removed. */
  interaction?: number;
  /** The header name or the JSON path of the field. */
  subject?: string;
  /** The stored and fresh values, as (shortened) JSON text. */
  stored?: string;
  fresh?: string;
  /** What changed, in one line. */
  message: string;
  /** Why it is a contract break: the schema message or the rule broken. */
  rule?: string;
  /** A hint for the reader, e.g. that a removed field came back under another name. */
  note?: string;
}

export interface CassetteDrift {
  suite: string;
  test: string;
  /** The cassette's path under the recordings root, without .raw.json / .json. */
  file: string;
  presence: 'both' | 'stored-only' | 'fresh-only';
  findings: DriftFinding[];
}

export interface ApiDrift {
  api: RecordingApi;
  storedCassettes: number;
  freshCassettes: number;
  /** Cassettes recorded on both sides. */
  compared: number;
  contractBreaks: number;
  observations: number;
  /** Only the cassettes with findings. */
  cassettes: CassetteDrift[];
}

/** A stored recorded answer that breaks its route's schema: a finding about the service as it was recorded. */
export interface RecordingBreach {
  api: RecordingApi;
  suite: string;
  test: string;
  file: string;
  interaction: number;
  route: string;
  status: number;
  schema?: string;
  /** As schemaBreaches words it: request line, status, schema, then one line per issue. */
  message: string;
}

export interface DriftReport {
  format: typeof DRIFT_FORMAT;
  generatedAt: string;
  storedRoot: string;
  freshRoot: string;
  /** A filtered fresh recording: cassettes it does not have were not compared. */
  freshOnly: boolean;
  contractBreaks: number;
  observations: number;
  apis: ApiDrift[];
  /** Stored recordings that break the contract (checkRecordings of the stored root). */
  storedBreaches: RecordingBreach[];
}

export interface DriftOptions {
  /** Rules per API; default contracts/<api>/normalisation.json. */
  rules?: Partial<Record<RecordingApi, NormalisationRules>>;
  /** Body field differences listed per interaction; the rest are counted (default 20). */
  maxFieldDifferences?: number;
  /** Compare only the cassettes the fresh recording has (a record run filtered to some tests). */
  freshOnly?: boolean;
  now?: Date;
}

export class DriftError extends Error {}

const DEFAULT_MAX_FIELDS = 20;
const VALUE_PREVIEW = 200;

/** A member removed and a sibling added with the same value: most likely a rename, worth saying on both. */
function renamedFields(diffs: readonly FieldDiff[]): Map<FieldDiff, string> {
  const notes = new Map<FieldDiff, string>();
  const parent = (d: FieldDiff) => JSON.stringify(d.segments.slice(0, -1));
  for (const removed of diffs.filter((d) => d.op === 'field-removed' && typeof d.segments.at(-1) === 'string')) {
    const added = diffs.find(
      (d) =>
        d.op === 'field-added' &&
        !notes.has(d) &&
        typeof d.segments.at(-1) === 'string' &&
        parent(d) === parent(removed) &&
        isDeepStrictEqual(d.fresh, removed.stored),
    );
    if (!added) continue;
    notes.set(removed, `renamed to ${jsonPath(added.segments)}? (same value)`);
    notes.set(added, `renamed from ${jsonPath(removed.segments)}? (same value)`);
  }
  return notes;
}

// ---- loading ----------------------------------------------------------------

interface Loaded {
  key: string;
  /** Absent when only the normalised file is there: then no schema check is possible. */
  raw?: Cassette;
  normalised: Cassette;
}

/** Whether `root` holds recordings at all; the problem, with its fix, when not. */
export function recordingsProblem(root: string, role: 'stored' | 'fresh'): string | undefined {
  if (!existsSync(root)) return `the ${role} recordings directory ${root} does not exist`;
  if (listCassettes(root, 'raw').length === 0 && listCassettes(root, 'normalised').length === 0) {
    return `there are no ${role} recordings in ${root} (no cassette under ${join(root, 'store')} or ${join(root, 'media')})`;
  }
  return undefined;
}

function apiOf(relativePath: string): RecordingApi | undefined {
  const first = relativePath.split('/')[0];
  return RECORDING_APIS.find((a) => a === first);
}

/**
 * Every cassette of an API under root, normalised afresh from its raw file
 * with the current rules (so both sides are normalised alike); a cassette
 * with only its normalised file is taken as it is.
 */
function loadApi(root: string, api: RecordingApi, rules: NormalisationRules): Map<string, Loaded> {
  const out = new Map<string, Loaded>();
  for (const rel of listCassettes(root, 'raw')) {
    if (apiOf(rel) !== api) continue;
    const key = rel.slice(0, -'.raw.json'.length);
    const raw = readCassette(join(root, rel));
    out.set(key, { key, raw, normalised: normaliseCassette(raw, rules) });
  }
  for (const rel of listCassettes(root, 'normalised')) {
    const key = rel.slice(0, -'.json'.length);
    if (apiOf(rel) !== api || out.has(key)) continue;
    out.set(key, { key, normalised: readCassette(join(root, rel)) });
  }
  return out;
}

// ---- schemas ----------------------------------------------------------------

/** Where the API's paths start in a recording under root, and the schema of each route. */
export function recordedRouteSchemas(root: string, api: RecordingApi): RouteSchemas {
  if (api === 'media') return { basePath: MEDIA_CONTRACT.edgePrefix, schemaFor: mediaResponseSchema };
  const target = existsSync(join(root, 'target.json')) ? readRecordedTarget(root, []) : undefined;
  // Without target.json, any store id: /v1/<digits>.
  const basePath = target?.store.mode === 'live' ? new URL(liveStoreBaseUrl(target.store, STORE_CONTRACT.version)).pathname : /\/v1\/\d+/;
  return { basePath, schemaFor: storeResponseSchema };
}

/** A recorded interaction as the clients' Exchange record, the shape schemaBreaches checks. */
export function interactionExchange(i: Interaction): Pick<Exchange, 'request' | 'response'> {
  const body = i.response === undefined ? '' : typeof i.response === 'string' ? i.response : JSON.stringify(i.response);
  return {
    request: { method: i.method, url: `${i.scope}${i.path}`, headers: i.reqheaders },
    response: { status: i.status, headers: i.rawHeaders, body },
  };
}

interface SchemaIssueLine {
  /** JSON Pointer of the issue; undefined when the breach names none (a body that is not JSON). */
  pointer?: string;
  message: string;
}

interface InteractionBreach {
  text: string;
  schema?: string;
  issues: SchemaIssueLine[];
}

/** The breach of one interaction, with its issues as schemaBreachOf gives them. */
function interactionBreach(i: Interaction, routes: RouteSchemas): InteractionBreach | undefined {
  const breach = schemaBreachOf(interactionExchange(i), routes);
  if (!breach) return undefined;
  // A body that is not JSON has no issue to point at: the breach's own words are its one issue.
  const issues = breach.issues.length > 0 ? breach.issues.map((issue) => ({ pointer: issue.path, message: issue.message })) : [{ message: breach.text }];
  return { text: breach.text, ...(breach.schema ? { schema: breach.schema } : {}), issues };
}

/** Every recorded answer under root that breaks its route's schema: the "checked on load" rule. */
export function checkRecordings(root: string): RecordingBreach[] {
  const breaches: RecordingBreach[] = [];
  const routesOf = Object.fromEntries(RECORDING_APIS.map((api) => [api, recordedRouteSchemas(root, api)])) as Record<RecordingApi, RouteSchemas>;
  for (const rel of listCassettes(root, 'raw')) {
    const api = apiOf(rel);
    if (!api) continue;
    const cassette = readCassette(join(root, rel));
    const routes = routesOf[api];
    cassette.interactions.forEach((i, n) => {
      const breach = interactionBreach(i, routes);
      if (!breach) return;
      breaches.push({
        api,
        suite: cassette.suite,
        test: cassette.test,
        file: rel.slice(0, -'.raw.json'.length),
        interaction: n + 1,
        route: requestLine(i),
        status: i.status,
        ...(breach.schema ? { schema: breach.schema } : {}),
        message: breach.text,
      });
    });
  }
  return breaches;
}

// ---- comparing ----------------------------------------------------------------

function preview(value: unknown): string {
  const text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value));
  return text.length > VALUE_PREVIEW ? `${text.slice(0, VALUE_PREVIEW - 1)}…` : text;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function jsonPath(segments: readonly (string | number)[]): string {
  return `$${segments.map((s) => (typeof s === 'number' ? `[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`)).join('')}`;
}

function pointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

interface FieldDiff {
  op: 'field-added' | 'field-removed' | 'field-type' | 'field-value';
  segments: (string | number)[];
  stored?: unknown;
  fresh?: unknown;
}

/** Differences between two JSON values: members and array elements (by position) added, removed, of another type, of another value. */
function diffJson(stored: unknown, fresh: unknown, segments: (string | number)[], out: FieldDiff[]): void {
  if (stored === undefined && fresh === undefined) return;
  if (stored === undefined) return void out.push({ op: 'field-added', segments, fresh });
  if (fresh === undefined) return void out.push({ op: 'field-removed', segments, stored });
  const [ts, tf] = [typeOf(stored), typeOf(fresh)];
  if (ts !== tf) return void out.push({ op: 'field-type', segments, stored, fresh });
  if (Array.isArray(stored) && Array.isArray(fresh)) {
    for (let n = 0; n < Math.max(stored.length, fresh.length); n++) diffJson(stored[n], fresh[n], [...segments, n], out);
    return;
  }
  if (ts === 'object') {
    const s = stored as Record<string, unknown>;
    const f = fresh as Record<string, unknown>;
    for (const k of new Set([...Object.keys(s), ...Object.keys(f)])) {
      diffJson(Object.hasOwn(s, k) ? s[k] : undefined, Object.hasOwn(f, k) ? f[k] : undefined, [...segments, k], out);
    }
    return;
  }
  if (stored !== fresh) out.push({ op: 'field-value', segments, stored, fresh });
}

function fieldMessage(d: FieldDiff, path: string): string {
  switch (d.op) {
    case 'field-added':
      return `field ${path} added (${preview(d.fresh)})`;
    case 'field-removed':
      return `field ${path} removed (was ${preview(d.stored)})`;
    case 'field-type':
      return `field ${path} changed type: ${typeOf(d.stored)} → ${typeOf(d.fresh)} (${preview(d.stored)} → ${preview(d.fresh)})`;
    default:
      return `field ${path} changed value: ${preview(d.stored)} → ${preview(d.fresh)}`;
  }
}

/** Pairs two sequences in order by key (longest common subsequence); unpaired ones are added or removed. */
function pairInOrder(stored: readonly string[], fresh: readonly string[]): { pairs: [number, number][]; removed: number[]; added: number[] } {
  const rows = stored.length;
  const cols = fresh.length;
  const lcs: number[][] = Array.from({ length: rows + 1 }, () => new Array<number>(cols + 1).fill(0));
  for (let i = rows - 1; i >= 0; i--) {
    for (let j = cols - 1; j >= 0; j--) {
      lcs[i]![j] = stored[i] === fresh[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const pairs: [number, number][] = [];
  const removed: number[] = [];
  const added: number[] = [];
  let [i, j] = [0, 0];
  while (i < rows && j < cols) {
    if (stored[i] === fresh[j]) pairs.push([i++, j++]);
    else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) removed.push(i++);
    else added.push(j++);
  }
  while (i < rows) removed.push(i++);
  while (j < cols) added.push(j++);
  return { pairs, removed, added };
}

function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

interface Side {
  normalised: Interaction;
  /** The raw fresh interaction, for the schema check. */
  raw?: Interaction;
}

/** Schema findings of a fresh interaction that no field difference accounts for. */
function schemaFindings(breach: InteractionBreach | undefined, issues: readonly SchemaIssueLine[], route: string, interaction: number): DriftFinding[] {
  if (!breach) return [];
  return issues.map((issue) => ({
    kind: 'contract-break',
    change: 'schema',
    route,
    interaction,
    ...(issue.pointer !== undefined ? { subject: issue.pointer === '' ? '(root)' : issue.pointer } : {}),
    message: `the fresh answer breaks ${breach.schema ?? 'its schema'}${issue.pointer !== undefined ? ` at ${issue.pointer || '(root)'}` : ''}`,
    rule: `${breach.schema ? `${breach.schema}: ` : ''}${issue.pointer !== undefined ? `${issue.pointer || '(root)'}: ` : ''}${issue.message}`,
  }));
}

function compareInteraction(stored: Side, fresh: Side, position: number, rules: NormalisationRules, routes: RouteSchemas, maxFields: number): DriftFinding[] {
  const route = requestLine(fresh.normalised);
  const findings: DriftFinding[] = [];
  const s = stored.normalised;
  const f = fresh.normalised;
  const base = { route, interaction: position };

  if (s.status !== f.status) {
    const moved = statusClass(s.status) !== statusClass(f.status);
    findings.push({
      kind: moved ? 'contract-break' : 'observation',
      change: 'status',
      ...base,
      stored: String(s.status),
      fresh: String(f.status),
      message: `status ${s.status} → ${f.status}`,
      ...(moved ? { rule: `the status moved from ${statusClass(s.status)} to ${statusClass(f.status)}` } : {}),
    });
  }

  for (const name of [...new Set([...Object.keys(s.rawHeaders), ...Object.keys(f.rawHeaders)])].sort()) {
    const [sv, fv] = [s.rawHeaders[name], f.rawHeaders[name]];
    if (sv === fv) continue;
    if (sv === undefined) {
      findings.push({ kind: 'observation', change: 'header-added', ...base, subject: name, fresh: fv, message: `header ${name} added (${fv})` });
    } else if (fv === undefined) {
      const contract = rules.contractHeaders.includes(name);
      findings.push({
        kind: contract ? 'contract-break' : 'observation',
        change: 'header-removed',
        ...base,
        subject: name,
        stored: sv,
        message: `header ${name} removed (was ${sv})`,
        ...(contract
          ? { rule: `${name} is a contract header (contractHeaders of contracts/${rules.api}/normalisation.json): it must stay where it appeared` }
          : {}),
      });
    } else {
      findings.push({ kind: 'observation', change: 'header-changed', ...base, subject: name, stored: sv, fresh: fv, message: `header ${name}: ${sv} → ${fv}` });
    }
  }

  const breach = fresh.raw ? interactionBreach(fresh.raw, routes) : undefined;
  const unexplained = [...(breach?.issues ?? [])];
  // Another status means another kind of body: the status finding says it, a field-by-field list would only be noise.
  if (s.status === f.status) {
    const diffs: FieldDiff[] = [];
    diffJson(s.response, f.response, [], diffs);
    const renames = renamedFields(diffs);
    const classified = diffs.map((d) => {
      const at = pointer(d.segments);
      // A schema issue at the field or inside it is what makes this difference a contract break.
      const issues = unexplained.filter((i) => i.pointer !== undefined && (i.pointer === at || i.pointer.startsWith(`${at}/`)));
      for (const i of issues) unexplained.splice(unexplained.indexOf(i), 1);
      const path = jsonPath(d.segments);
      const finding: DriftFinding = {
        kind: issues.length > 0 ? 'contract-break' : 'observation',
        change: d.op,
        ...base,
        subject: path,
        ...(d.op === 'field-added' ? {} : { stored: preview(d.stored) }),
        ...(d.op === 'field-removed' ? {} : { fresh: preview(d.fresh) }),
        message: fieldMessage(d, path),
        ...(issues.length > 0 ? { rule: issues.map((i) => `${breach?.schema ?? 'schema'}: ${i.pointer || '(root)'}: ${i.message}`).join('\n') } : {}),
        ...(renames.has(d) ? { note: renames.get(d) } : {}),
      };
      return finding;
    });
    // An issue about an enclosing member (`/data` is no list of resources) is the same break as the one found inside it: said once.
    for (const issue of [...unexplained]) {
      if (issue.pointer === undefined) continue;
      const inside = classified.find((c, n) => c.kind === 'contract-break' && pointer(diffs[n]!.segments).startsWith(`${issue.pointer}/`));
      if (!inside) continue;
      inside.rule = `${inside.rule}\n${breach?.schema ?? 'schema'}: ${issue.pointer || '(root)'}: ${issue.message}`;
      unexplained.splice(unexplained.indexOf(issue), 1);
    }
    // Contract breaks first, so the cap never hides one.
    const ordered = [...classified.filter((c) => c.kind === 'contract-break'), ...classified.filter((c) => c.kind === 'observation')];
    findings.push(...ordered.slice(0, maxFields));
    if (ordered.length > maxFields) {
      findings.push({ kind: 'observation', change: 'fields-omitted', ...base, message: `${ordered.length - maxFields} more body differences not listed` });
    }
  }
  findings.push(...schemaFindings(breach, unexplained, route, position));
  return findings;
}

function compareCassettes(stored: Loaded, fresh: Loaded, rules: NormalisationRules, routes: RouteSchemas, maxFields: number): DriftFinding[] {
  const si = stored.normalised.interactions;
  const fi = fresh.normalised.interactions;
  const { pairs, removed, added } = pairInOrder(si.map(requestLine), fi.map(requestLine));
  const findings: DriftFinding[] = [];
  const events: { at: number; findings: DriftFinding[] }[] = [];
  for (const n of removed) {
    // Placed after the fresh interaction paired with the stored one before it, so the report reads in order.
    const before = pairs.filter(([a]) => a < n).at(-1);
    events.push({
      at: (before ? before[1] : -1) + 0.5,
      findings: [
        {
          kind: 'observation',
          change: 'route-removed',
          route: requestLine(si[n]!),
          interaction: n + 1,
          message: `no longer requested (stored interaction ${n + 1})`,
        },
      ],
    });
  }
  for (const [a, b] of pairs) {
    events.push({
      at: b,
      findings: compareInteraction({ normalised: si[a]! }, { normalised: fi[b]!, raw: fresh.raw?.interactions[b] }, b + 1, rules, routes, maxFields),
    });
  }
  for (const n of added) {
    const raw = fresh.raw?.interactions[n];
    const route = requestLine(fi[n]!);
    const breach = raw ? interactionBreach(raw, routes) : undefined;
    events.push({
      at: n,
      findings: [
        { kind: 'observation', change: 'route-added', route, interaction: n + 1, message: `newly requested, answered ${fi[n]!.status}` },
        ...schemaFindings(breach, breach?.issues ?? [], route, n + 1),
      ],
    });
  }
  // In the order of the fresh recording.
  for (const e of events.sort((x, y) => x.at - y.at)) findings.push(...e.findings);
  return findings;
}

/** Schema findings of a cassette only the fresh side has: its answers are held to the contract all the same. */
function freshOnlyFindings(fresh: Loaded, routes: RouteSchemas): DriftFinding[] {
  const findings: DriftFinding[] = [{ kind: 'observation', change: 'cassette-added', message: 'recorded afresh only: a new test, or one not recorded before' }];
  fresh.raw?.interactions.forEach((raw, n) => {
    const breach = interactionBreach(raw, routes);
    findings.push(...schemaFindings(breach, breach?.issues ?? [], requestLine(fresh.normalised.interactions[n]!), n + 1));
  });
  return findings;
}

/**
 * Compares the recordings under freshRoot with those under storedRoot, API by
 * API and cassette by cassette (a cassette is one test's traffic).
 */
export function compareRecordings(storedRoot: string, freshRoot: string, options: DriftOptions = {}): DriftReport {
  for (const [root, role] of [
    [storedRoot, 'stored'],
    [freshRoot, 'fresh'],
  ] as const) {
    const problem = recordingsProblem(root, role);
    if (problem) throw new DriftError(problem);
  }
  const maxFields = Math.max(0, options.maxFieldDifferences ?? DEFAULT_MAX_FIELDS);
  const freshOnly = options.freshOnly ?? false;
  const apis: ApiDrift[] = [];
  for (const api of RECORDING_APIS) {
    const rules = options.rules?.[api] ?? loadRules(api);
    const stored = loadApi(storedRoot, api, rules);
    const fresh = loadApi(freshRoot, api, rules);
    const routes = recordedRouteSchemas(freshRoot, api);
    const cassettes: CassetteDrift[] = [];
    let compared = 0;
    for (const key of [...new Set([...stored.keys(), ...fresh.keys()])].sort()) {
      const s = stored.get(key);
      const f = fresh.get(key);
      const meta = (f ?? s)!.normalised;
      let presence: CassetteDrift['presence'];
      let findings: DriftFinding[];
      if (s && f) {
        compared++;
        presence = 'both';
        findings = compareCassettes(s, f, rules, routes, maxFields);
      } else if (f) {
        presence = 'fresh-only';
        findings = freshOnlyFindings(f, routes);
      } else {
        if (freshOnly) continue;
        presence = 'stored-only';
        findings = [{ kind: 'observation', change: 'cassette-missing', message: 'not recorded afresh: the test is gone, was skipped, or did not run' }];
      }
      if (findings.length > 0) cassettes.push({ suite: meta.suite, test: meta.test, file: key, presence, findings });
    }
    const all = cassettes.flatMap((c) => c.findings);
    apis.push({
      api,
      storedCassettes: stored.size,
      freshCassettes: fresh.size,
      compared,
      contractBreaks: all.filter((x) => x.kind === 'contract-break').length,
      observations: all.filter((x) => x.kind === 'observation').length,
      cassettes,
    });
  }
  return {
    format: DRIFT_FORMAT,
    generatedAt: (options.now ?? new Date()).toISOString(),
    storedRoot,
    freshRoot,
    freshOnly,
    contractBreaks: apis.reduce((n, a) => n + a.contractBreaks, 0),
    observations: apis.reduce((n, a) => n + a.observations, 0),
    apis,
    storedBreaches: checkRecordings(storedRoot),
  };
}
