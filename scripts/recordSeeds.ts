/**
 * `npm run record:seed`: the recordings the repository ships. Starts the twins
 * as a separate process (what `npm run twins` starts, on its ports), signs in
 * on the media twin as a real user would, and runs `npm run record` against
 * them as if they were the live services. Run it after changing a
 * live-capable test, and commit recordings/ with the change.
 */
import { spawn } from 'node:child_process';
import { DEFAULT_KITSU_TWIN_PORT, DEFAULT_STORE_TWIN_PORT } from '../src/config/harnessConfig.ts';
import { RECORDING_PLAN, signInOnMediaTwin, startTwinProcess, twinAsLiveEnv } from './lib/twinProcess.ts';
import { processEnv, recordingsDir } from '../src/config/env.ts';

export const SEED_USER_AGENT = 'api-contract-harness seed recording (https://example.invalid/api-contract-harness)';

const storePort = DEFAULT_STORE_TWIN_PORT;
const mediaPort = DEFAULT_KITSU_TWIN_PORT;
const twin = await startTwinProcess(storePort, mediaPort, 'inherit', RECORDING_PLAN).catch((error: unknown) => {
  console.error(`record:seed: ${(error as Error).message}. Stop whatever holds ports ${storePort}/${mediaPort} (an npm run twins?) and run again.`);
  process.exit(2);
});
let code: number;
try {
  const mediaToken = await signInOnMediaTwin(mediaPort);
  code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ['scripts/record.ts', ...process.argv.slice(2)], {
      stdio: 'inherit',
      env: {
        ...processEnv(),
        RECORDINGS_DIR: recordingsDir(),
        ...twinAsLiveEnv({
          storeUrl: `http://127.0.0.1:${storePort}`,
          mediaUrl: `http://127.0.0.1:${mediaPort}/api/edge`,
          mediaToken,
          userAgent: SEED_USER_AGENT,
        }),
      },
    });
    child.on('exit', (c) => resolve(c ?? 1));
  });
} finally {
  twin.kill();
}
process.exit(code);
