/**
 * A cassette: every exchange one test had with one API, in order. Each
 * interaction is a nock definition (scope, method, path, status, ...), so
 * `nock.define(cassette.interactions)` loads a cassette outside the harness
 * too. Two files per test sit side by side under
 * recordings/<api>/<suite>/<test>: `.raw.json` as recorded (secrets already
 * redacted) and `.json` normalised by the API's rules (recordings/<api>/normalise.json),
 * which is what drift and review compare.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

export const CASSETTE_FORMAT = 'harness-cassette/1';
export const RECORDING_APIS = ['store', 'media'] as const;
export type RecordingApi = (typeof RECORDING_APIS)[number];

/** One request and its answer, as a nock definition. */
export interface Interaction {
  /** Origin, e.g. https://api.tiendanube.com */
  scope: string;
  method: string;
  /** Path and query string, as sent. */
  path: string;
  /** Request headers, lower-case names, credentials replaced by stand-ins. */
  reqheaders: Record<string, string>;
  /** Request body: parsed JSON when it was JSON, else the text; absent when empty. */
  body?: unknown;
  status: number;
  /** Response headers, lower-case names. */
  rawHeaders: Record<string, string>;
  /** Response body: parsed JSON when it was JSON, else the text; absent when empty. */
  response?: unknown;
  /**
   * Normalised cassettes only: the same exchange came more than once in a row. How many times
   * depends on timing (a burst against a bucket that leaks on a real clock), so it is not kept.
   */
  repeated?: true;
}

export interface CassetteMeta {
  format: typeof CASSETTE_FORMAT;
  api: RecordingApi;
  /** The spec file the test is in, without .spec.ts (or `_worker` for a worker's setup). */
  suite: string;
  /** The test's title path inside its file. */
  test: string;
  /** `loopback` when recorded from a local stand-in (a twin), `remote` from the real service. */
  source: 'loopback' | 'remote';
  /** Seed of the test's unique names, so a replay sends what was recorded (src/recording/uniqueSource.ts). */
  uniqueSeed: string;
}

export interface Cassette extends CassetteMeta {
  interactions: Interaction[];
}

/** File-name form of a title: lower case, words joined by dashes, at most 100 characters. */
export function slug(title: string): string {
  const s = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (s.length <= 100) return s || 'untitled';
  // Long titles keep their start and a hash of the whole, so two never share a file.
  return `${s.slice(0, 90).replace(/-+$/, '')}-${createHash('sha256').update(title).digest('hex').slice(0, 8)}`;
}

/** The pair of files of one test: `raw` as recorded (redacted), `normalised` by the API's rules. */
export function cassettePaths(root: string, api: RecordingApi, suite: string, test: string): { raw: string; normalised: string } {
  const base = join(root, api, suite, slug(test));
  return { raw: `${base}.raw.json`, normalised: `${base}.json` };
}

export class CassetteError extends Error {}

/**
 * Writes a cassette: normalised ones pretty-printed for review; raw ones (`compact`) one
 * interaction per line, which keeps diffs per exchange at about half the size.
 */
export function writeCassette(path: string, cassette: Cassette, compact = path.endsWith('.raw.json')): void {
  mkdirSync(dirname(path), { recursive: true });
  if (!compact) {
    writeFileSync(path, `${JSON.stringify(cassette, null, 2)}\n`);
    return;
  }
  const { interactions, ...meta } = cassette;
  const head = JSON.stringify(meta, null, 2).slice(0, -2);
  const lines = interactions.map((i) => `    ${JSON.stringify(i)}`).join(',\n');
  writeFileSync(path, `${head},\n  "interactions": [${lines ? `\n${lines}\n  ` : ''}]\n}\n`);
}

/** Reads and checks a cassette file; a broken one names the file and what is wrong. */
export function readCassette(path: string): Cassette {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CassetteError(`${path} is not a readable cassette: ${(error as Error).message}. Record it again with npm run record.`);
  }
  const problems = cassetteProblems(parsed);
  if (problems.length > 0) throw new CassetteError(`${path} is not a valid cassette: ${problems.join('; ')}. Record it again with npm run record.`);
  return parsed as Cassette;
}

function cassetteProblems(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return ['it is not a JSON object'];
  const c = value as Partial<Cassette>;
  const problems: string[] = [];
  if (c.format !== CASSETTE_FORMAT) problems.push(`format is ${JSON.stringify(c.format)}, expected "${CASSETTE_FORMAT}"`);
  if (!RECORDING_APIS.includes(c.api as RecordingApi)) problems.push(`api is ${JSON.stringify(c.api)}, expected one of ${RECORDING_APIS.join(', ')}`);
  if (!Array.isArray(c.interactions)) return [...problems, 'interactions is not a list'];
  c.interactions.forEach((i, n) => {
    if (typeof i?.scope !== 'string' || typeof i.method !== 'string' || typeof i.path !== 'string' || typeof i.status !== 'number') {
      problems.push(`interaction ${n + 1} lacks scope, method, path or status`);
    }
  });
  return problems;
}

/** Every cassette file under `root` (raw or normalised), as paths relative to `root`. */
export function listCassettes(root: string, kind: 'raw' | 'normalised'): string[] {
  if (!existsSync(root)) return [];
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.raw.json') === (kind === 'raw') && entry.name.endsWith('.json') && dirname(path) !== root) {
        if (kind === 'normalised' && dirname(relative(root, path)).split('/').length < 2) continue;
        found.push(relative(root, path));
      }
    }
  };
  walk(root);
  return found.sort();
}

/** The request line of an interaction, as messages show it. */
export function requestLine(i: Pick<Interaction, 'method' | 'path'>): string {
  return `${i.method} ${i.path}`;
}
