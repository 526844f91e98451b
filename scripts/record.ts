/**
 * `npm run record`: runs the live-capable store and media suites, and the
 * verification of the committed pacts, against the live endpoints (STORE_* and
 * KITSU_* as for HARNESS_TARGET=live) and writes one cassette per test under
 * recordings/<api>/<suite>/ (a pact interaction's under
 * recordings/<api>/contracts/; RECORDINGS_DIR to write elsewhere), redacted at
 * record time and normalised beside. Then every
 * file written is scanned for the secrets of the environment: one found fails
 * the run and names the file, not the secret.
 *
 * Extra arguments go to Playwright (a file filter records only those tests and
 * keeps the other cassettes).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { announceTarget } from './lib/announceTarget.ts';
import { runTool } from './lib/runTool.ts';
import { writeRecordedTarget } from '../src/recording/recordedTarget.ts';
import { environmentSecrets } from '../src/recording/session.ts';
import { leakScan } from '../src/recording/leakScan.ts';
import { recordingsDir, runName, setProcessVariable } from '../src/config/env.ts';

setProcessVariable('HARNESS_TARGET', 'record');
const config = announceTarget('npm run record: recording the store and media suites and the pact verifications');
if (!config) process.exit(2);
if (config.store.mode !== 'live' || config.media.mode !== 'live') throw new Error('record runs against live configurations only');

const root = recordingsDir();
const filtered = process.argv.length > 2;
if (!filtered) {
  // A full recording replaces the last one: a test that is gone leaves no cassette behind.
  for (const api of ['store', 'media']) rmSync(join(root, api), { recursive: true, force: true });
}
writeRecordedTarget(root, config.store, config.media);
console.log(`recording into ${root}/ (${filtered ? 'only the tests named; other cassettes stay' : 'replacing the previous recordings'})`);

// Of contracts-verify only the two pact verifications (the self-tests are a project of their own), and --no-deps: the
// pacts are committed, so the projects that rewrite and check them (contracts-consumer, -publish) need
// not run, and media, the other dependency, is selected anyway. Extra arguments replace the file filter.
// One worker: without the dependencies that order them, a pact verification could meet the store suites at the bucket.
// And the outside consumers' pacts npm test verifies (the examples' and the held-out ones): recordings/<api>/outside/.
const PACT_VERIFICATIONS = ['contracts/store/verify.pact.spec.ts', 'contracts/media/verify.pact.spec.ts', 'contracts/verification/outsidePacts.verify.spec.ts'];
const selection = filtered ? process.argv.slice(2) : ['suites/store/', 'suites/media/', ...PACT_VERIFICATIONS];

const started = Date.now();
const code = await runTool(
  'playwright',
  ['test', '--project=store', '--project=media', '--project=contracts-verify', '--project=contracts-outside', '--no-deps', '--workers=1', ...selection],
  {
    HARNESS_TARGET: 'record',
    HARNESS_RUN_NAME: runName() ?? 'record',
  },
);
const seconds = ((Date.now() - started) / 1000).toFixed(1);

const leaks = leakScan([root, 'reports'], environmentSecrets());
if (leaks.length > 0) {
  console.error(
    `record: a secret from the environment is written in ${leaks.join(', ')}. Delete those files; add the pattern to contracts/<api>/normalisation.json "redact" or RECORD_REDACT_PATTERNS, and record again.`,
  );
  process.exit(1);
}
console.log(`record: ${seconds} s; no secret from the environment in ${root}/ or reports/`);
process.exit(code);
