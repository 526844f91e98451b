/**
 * Where the recordings are (RECORDINGS_DIR) and what they were made against
 * (recordings/target.json): read here, with the rest of the configuration, so
 * that a replay is configured as the recording was. src/recording writes the
 * file; reading it needs nothing above src/config.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LiveMediaConfig, LiveStoreConfig, OffApiConfig } from './harnessConfig.ts';

/** What a record run was made against, tokens replaced by their stand-ins; an API the run left out is `off`. */
export interface RecordedTarget {
  readonly store: LiveStoreConfig | OffApiConfig;
  readonly media: LiveMediaConfig | OffApiConfig;
}

/** RECORDINGS_DIR, or `recordings` (the seed recordings the repository ships). */
export function recordingsDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env.RECORDINGS_DIR?.trim() || 'recordings';
}

export function recordedTargetPath(root: string): string {
  return join(root, 'target.json');
}

/** The target a replay runs as; a problem (no recordings yet) is pushed with its fix. */
export function readRecordedTarget(root: string, problems: string[]): RecordedTarget | undefined {
  const path = recordedTargetPath(root);
  if (!existsSync(path)) {
    problems.push(
      `HARNESS_TARGET=replay needs recordings, and ${path} is missing. Record first: npm run record (or set RECORDINGS_DIR to a directory of recordings).`,
    );
    return undefined;
  }
  try {
    const target = JSON.parse(readFileSync(path, 'utf8')) as RecordedTarget;
    const known = (mode: unknown) => mode === 'live' || mode === 'off';
    if (!known(target.store?.mode) || !known(target.media?.mode)) throw new Error('store and media must each be a live configuration, or off');
    if (target.store.mode === 'off' && target.media.mode === 'off') throw new Error('neither API was recorded');
    return target;
  } catch (error) {
    problems.push(`${path} is not a recorded target (${(error as Error).message}). Record again: npm run record.`);
    return undefined;
  }
}
