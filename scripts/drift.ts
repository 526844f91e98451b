/**
 * `npm run drift`: records afresh (npm run record into a temporary directory,
 * against the same live STORE_* and KITSU_* environment), compares that with
 * the stored recordings (RECORDINGS_DIR, default recordings/) under the
 * normalisation rules, and writes the drift report: reports/drift/drift.md and
 * drift.json, attached to the Allure report. Exit 1 when anything breaks the
 * contract, 0 when there are only observations (or nothing).
 *
 *   npm run drift                      record afresh, then compare
 *   npm run drift -- --fresh <dir>     compare an existing fresh recording
 *   npm run drift -- <playwright args> record only some tests (compares only those)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { compareRecordings, recordingsProblem } from '../src/recording/drift.ts';
import { driftSummary, writeDriftReport } from '../src/recording/driftReport.ts';
import { processEnv, recordingsDir } from '../src/config/env.ts';

function parseArgs(argv: readonly string[]): { fresh?: string; rest: string[] } | string {
  const rest: string[] = [];
  let fresh: string | undefined;
  for (let n = 0; n < argv.length; n++) {
    const arg = argv[n]!;
    if (arg === '--fresh' || arg.startsWith('--fresh=')) {
      const value = arg === '--fresh' ? argv[++n] : arg.slice('--fresh='.length);
      if (!value) return '--fresh needs a directory: npm run drift -- --fresh <dir of a recording>';
      fresh = value;
    } else rest.push(arg);
  }
  if (fresh !== undefined && rest.length > 0)
    return `--fresh compares a recording already made; ${rest.join(' ')} would only filter a new one. Drop one or the other.`;
  return { ...(fresh !== undefined ? { fresh } : {}), rest };
}

/** npm run record into dir, with the user's environment (their live endpoints and tokens). */
function recordInto(dir: string, args: readonly string[]): Promise<number> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['scripts/record.ts', ...args], { stdio: 'inherit', env: { ...processEnv(), RECORDINGS_DIR: dir } });
    child.on('error', () => done(1));
    child.on('exit', (code) => done(code ?? 1));
  });
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (typeof args === 'string') {
    console.error(`drift: ${args}`);
    return 2;
  }
  const stored = recordingsDir();
  const storedProblem = recordingsProblem(stored, 'stored');
  if (storedProblem) {
    console.error(
      `drift: ${storedProblem}. Drift compares a fresh recording with stored ones: record them first with npm run record, or set RECORDINGS_DIR to the directory that holds them.`,
    );
    return 2;
  }

  const fresh = await freshRecording(args, stored);
  if (typeof fresh === 'number') return fresh;

  let report;
  try {
    report = compareRecordings(stored, fresh, { freshOnly: args.rest.length > 0 });
  } catch (error) {
    // A cassette or a rules file that cannot be read: its message names the file and the fix.
    console.error(`drift: ${(error as Error).message}`);
    return 2;
  }
  const files = writeDriftReport(report);
  console.log(`drift: ${driftSummary(report)}`);
  console.log(`drift: report in ${files.markdown} and ${files.json}; attached to the Allure report (${files.allureResult}; npm run report)`);
  if (args.fresh === undefined) console.log(`drift: the fresh recording stays in ${fresh}/; compare it again with npm run drift -- --fresh ${fresh}`);
  return report.contractBreaks > 0 ? 1 : 0;
}

/** The fresh recording to compare: --fresh's directory, or one recorded now; exit 2 (printed) when it is the stored one or empty. */
async function freshRecording(args: { fresh?: string; rest: string[] }, stored: string): Promise<string | number> {
  let fresh = args.fresh;
  if (fresh === undefined) {
    fresh = mkdtempSync(join(tmpdir(), 'drift-'));
    console.log(`drift: recording afresh into ${fresh}/ (stored recordings: ${stored}/)`);
    const code = await recordInto(fresh, args.rest);
    // Tests that fail against the service still leave their cassettes: the comparison says what changed.
    if (code !== 0) console.warn(`drift: npm run record exited with ${code}; comparing what it recorded.`);
  }
  if (resolve(fresh) === resolve(stored)) {
    console.error(`drift: the fresh and the stored recordings are the same directory (${stored}); pass --fresh another directory.`);
    return 2;
  }
  const freshProblem = recordingsProblem(fresh, 'fresh');
  if (freshProblem) {
    console.error(
      `drift: ${freshProblem}. ${args.fresh === undefined ? 'The record run wrote nothing: see its output above (live environment: STORE_* and KITSU_*).' : 'Pass --fresh the RECORDINGS_DIR of a record run.'}`,
    );
    return 2;
  }
  return fresh;
}

process.exit(await main());
