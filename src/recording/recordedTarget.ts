/**
 * Writes what a recording was made against, minus its secrets: recordings/target.json.
 * A replay configures its clients from it (readRecordedTarget in src/config/harnessConfig.ts):
 * base URLs, store id, User-Agent, whether writes and a media token were there,
 * with the tokens' stand-ins in place of the tokens, so replayed requests are the
 * ones recorded.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { recordedTargetPath, type MediaConfig, type RecordedTarget, type StoreConfig } from '../config/harnessConfig.ts';
import { standIn } from './redactRecording.ts';

/** Writes the target of a record run, each token replaced by its stand-in; an API the run left out is written as off. */
export function writeRecordedTarget(root: string, store: StoreConfig, media: MediaConfig): void {
  if (store.mode === 'twin' || media.mode === 'twin') throw new Error('writeRecordedTarget: a recording is made against live targets, not the twins');
  mkdirSync(root, { recursive: true });
  const target: RecordedTarget = {
    // The app's secret and the second store (its token) are for checks a recording does not hold (@not-recorded): never written.
    store:
      store.mode === 'live'
        ? { ...store, token: standIn(store.token), install: store.install && { authUrl: store.install.authUrl }, secondStore: undefined }
        : store,
    media: media.mode === 'live' ? { ...media, token: media.token === undefined ? undefined : standIn(media.token) } : media,
  };
  writeFileSync(recordedTargetPath(root), `${JSON.stringify(target, null, 2)}\n`);
}
