/**
 * What publishing a broker run's results needs, left in the run's folder beside its outcomes: the pacts as the
 * broker served them (their publish links, their interactions' `_id`s), the provider identity and the verifier.
 * A run that publishes reads it back at once; the nightly's matrix jobs (`pact:verify --broker --no-publish
 * --sandbox <id>`) leave it in their artifacts, and the merge job publishes every job's folder once
 * (publishOnce.ts, `npm run pact:publish-results`). It holds no credential: the broker's links and the pacts only.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { reportPath } from '../../src/config/env.ts';
import type { BrokerClient } from './BrokerClient.ts';
import type { ProviderIdentity } from './providerIdentity.ts';
import { outcomesByPact, type InteractionOutcome } from './verificationResults.ts';

export const RESULTS_TO_PUBLISH = 'to-publish.json';

export interface PactToPublish {
  /** Where the broker served it: one pact, one result, whichever folder holds it. */
  readonly url: string;
  /** Its title in the run's report: its outcomes are filed under it. */
  readonly title: string;
  readonly provider: string;
  readonly document: Awaited<ReturnType<BrokerClient['fetchPact']>>;
}

export interface ResultsToPublish {
  /** The sandbox the run verified (--sandbox); none when it verified every pact the broker selected. */
  readonly sandbox?: string;
  readonly identity: ProviderIdentity;
  readonly verifier: { readonly version: string; readonly buildUrl?: string };
  readonly pacts: readonly PactToPublish[];
}

/** A run's folder, wherever it was copied (a downloaded artifact), and what it left. */
export interface LeftRun {
  readonly dir: string;
  readonly left: ResultsToPublish;
}

/** A folder that holds no results to publish, or a file that is not what a run leaves: the message names the fix (exit 2). */
export class ResultsToPublishError extends Error {
  override name = 'ResultsToPublishError';
}

/** What a run writes while it verifies, named as left (RESULTS_TO_PUBLISH) only once its last verdict is in. */
const UNSETTLED = '.unsettled';

/**
 * Writes what `run` leaves for publishing; its path. On one line: it is read by the merge, not by people, and it
 * holds every pact the run verified (a hundred teams' are megabytes, which indenting doubles and slows).
 * `unsettled`: written while the run verifies, under a name the merge does not read (settleResultsToPublish names it
 * once the run has its last verdict); what an earlier run left in the folder is removed, so a run that stops leaves
 * nothing to publish.
 */
export function writeResultsToPublish(run: string, left: ResultsToPublish, options: { unsettled?: boolean } = {}): string {
  const path = resolve(reportPath('pact-verify', run, RESULTS_TO_PUBLISH));
  mkdirSync(dirname(path), { recursive: true });
  if (!options.unsettled) {
    writeFileSync(path, JSON.stringify(left));
    return path;
  }
  rmSync(path, { force: true });
  writeFileSync(path + UNSETTLED, JSON.stringify(left));
  return path + UNSETTLED;
}

/** Names what writeResultsToPublish wrote unsettled as what the run leaves; the path it has then. */
export function settleResultsToPublish(unsettled: string): string {
  const path = unsettled.slice(0, -UNSETTLED.length);
  renameSync(unsettled, path);
  return path;
}

/** The run whose folder is `dir`. */
export function readLeftRun(dir: string): LeftRun {
  const path = join(dir, RESULTS_TO_PUBLISH);
  let left: ResultsToPublish;
  try {
    left = JSON.parse(readFileSync(path, 'utf8')) as ResultsToPublish;
  } catch (error) {
    throw new ResultsToPublishError(
      `${path} cannot be read (${error instanceof Error ? error.message : String(error)}): give the folders pact:verify --broker left, as they were uploaded.`,
    );
  }
  if (typeof left.identity?.version !== 'string' || !Array.isArray(left.pacts))
    throw new ResultsToPublishError(`${path} is not what pact:verify --broker leaves (no provider version or pacts): give the folders it left, unchanged.`);
  return { dir, left };
}

/** Every run left under `roots`, at any depth (an artifact holds pact-verify/<run>/), in a stable order. */
export function findLeftRuns(roots: readonly string[]): LeftRun[] {
  const dirs = roots.flatMap((root) => {
    if (!existsSync(root)) throw new ResultsToPublishError(`--from ${root}: no such folder. Give the folders the verification jobs uploaded.`);
    const found = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((path) => basename(path) === RESULTS_TO_PUBLISH);
    return found.map((path) => resolve(root, dirname(path)));
  });
  return [...new Set(dirs)].sort().map(readLeftRun);
}

/** The outcomes the run wrote, by the title of their pact. */
export function outcomesOf(run: LeftRun): Map<string, InteractionOutcome[]> {
  return outcomesByPact(join(run.dir, 'outcomes'));
}
