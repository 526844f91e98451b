/**
 * What a recording was made against, minus its secrets: recordings/target.json.
 * A record run writes it; a replay configures its clients from it (base URLs,
 * store id, User-Agent, whether writes and a media token were there), with the
 * tokens' stand-ins in place of the tokens, so replayed requests are the ones
 * recorded.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LiveMediaConfig, LiveStoreConfig } from '../config/harnessConfig.ts';
import { standIn } from './redactRecording.ts';

export interface RecordedTarget {
  readonly store: LiveStoreConfig;
  readonly media: LiveMediaConfig;
}

export function recordedTargetPath(root: string): string {
  return join(root, 'target.json');
}

/** Writes the target of a record run, each token replaced by its stand-in. */
export function writeRecordedTarget(root: string, store: LiveStoreConfig, media: LiveMediaConfig): void {
  mkdirSync(root, { recursive: true });
  const target: RecordedTarget = {
    store: { ...store, token: standIn(store.token) },
    media: { ...media, token: media.token === undefined ? undefined : standIn(media.token) },
  };
  writeFileSync(recordedTargetPath(root), `${JSON.stringify(target, null, 2)}\n`);
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
    if (target.store?.mode !== 'live' || target.media?.mode !== 'live') throw new Error('store and media must each be a live configuration');
    return target;
  } catch (error) {
    problems.push(`${path} is not a recorded target (${(error as Error).message}). Record again: npm run record.`);
    return undefined;
  }
}
