/** The cassettes of a recordings root, per API, normalised alike on both sides of a comparison. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { listCassettes, readCassette, RECORDING_APIS, type Cassette, type RecordingApi } from '../cassette.ts';
import { normaliseCassette, type NormalisationRules } from '../normalise.ts';

export interface Loaded {
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

export function apiOf(relativePath: string): RecordingApi | undefined {
  const first = relativePath.split('/')[0];
  return RECORDING_APIS.find((a) => a === first);
}

/**
 * Every cassette of an API under root, normalised afresh from its raw file
 * with the current rules (so both sides are normalised alike); a cassette
 * with only its normalised file is taken as it is.
 */
export function loadApi(root: string, api: RecordingApi, rules: NormalisationRules): Map<string, Loaded> {
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
