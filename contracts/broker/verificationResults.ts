/**
 * What a verification run found, per pact, as a broker takes it. Each test of
 * the outside verification writes its interaction's outcome to this run's
 * folder when it ends (outsidePacts.verify.spec.ts), whatever reporters the run
 * has, so the result published is exactly what the report and the exit code say.
 * An interaction that was skipped was not verified: its pact does not pass.
 */
import { stripVTControlCharacters } from 'node:util';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { reportPath, runName } from '../../src/config/env.ts';
import type { VerificationResult } from './BrokerClient.ts';

export interface InteractionOutcome {
  /** The pact's title in the report (`consumer → provider`, with the version a broker gave). */
  readonly pact: string;
  readonly description: string;
  readonly status: 'passed' | 'failed' | 'skipped';
  /** Why it failed or was skipped (the test's error, Pact's mismatch first). */
  readonly reason?: string;
}

/** This run's outcomes folder. */
export function outcomesDir(run = runName() ?? 'default'): string {
  return resolve(reportPath('pact-verify', run, 'outcomes'));
}

/** Records one interaction's outcome (one file per test: workers never share a file). */
export function writeOutcome(outcome: InteractionOutcome, run?: string): void {
  const dir = outcomesDir(run);
  mkdirSync(dir, { recursive: true });
  const name = createHash('sha256').update(`${outcome.pact}\n${outcome.description}`).digest('hex').slice(0, 16);
  writeFileSync(join(dir, `${name}.json`), JSON.stringify({ ...outcome, ...(outcome.reason ? { reason: stripVTControlCharacters(outcome.reason) } : {}) }));
}

/** The outcome of each interaction of the pact titled `pact`, as this run's tests wrote them. */
export function interactionOutcomes(pact: string, run?: string): InteractionOutcome[] {
  return outcomesByPact(outcomesDir(run)).get(pact) ?? [];
}

/** Every outcome in `dir` (a run's outcomes folder, wherever it was copied), in no order: the one reader of its files. */
export function readOutcomes(dir: string): InteractionOutcome[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as InteractionOutcome);
}

/**
 * Every outcome in `dir`, by the title of its pact, each pact's in the order of their descriptions: the folder read
 * once, where a read per pact read it whole for each (a nightly's hundred pacts, a hundred times its thousand files).
 */
export function outcomesByPact(dir: string): Map<string, InteractionOutcome[]> {
  const byPact = Map.groupBy(readOutcomes(dir), (outcome) => outcome.pact);
  for (const of of byPact.values()) of.sort((a, b) => a.description.localeCompare(b.description));
  return byPact;
}

/**
 * The body of a verification result (pb:publish-verification-results) for one pact. The broker takes `success`
 * as the pact's verdict (what can-i-deploy reads) and files each test result under the interaction whose `_id` is
 * its interactionId (else whose description it names), so every interaction is listed: a skipped one as not
 * verified (success false, its reason as the mismatch), never as a success, and never left out (the broker warns of
 * interactions without results only under a successful verification, which this pact then would not be).
 */
export function verificationResult(
  outcomes: readonly InteractionOutcome[],
  providerVersion: string,
  verifier: { version: string; buildUrl?: string },
  interactionIds: ReadonlyMap<string, string> = new Map(),
): VerificationResult {
  return {
    success: outcomes.length > 0 && outcomes.every((o) => o.status === 'passed'),
    providerApplicationVersion: providerVersion,
    ...(verifier.buildUrl ? { buildUrl: verifier.buildUrl } : {}),
    testResults: outcomes.map((o) => ({
      ...(interactionIds.has(o.description) ? { interactionId: interactionIds.get(o.description)! } : {}),
      interactionDescription: o.description,
      success: o.status === 'passed',
      ...(o.status === 'passed' ? {} : { mismatches: [mismatchOf(o)] }),
    })),
    verifiedBy: { implementation: 'api-contract-harness (Pact core verifier)', version: verifier.version },
  };
}

/** Why an interaction did not pass, as a mismatch the broker shows: a skip says it was not verified, and why. */
function mismatchOf(outcome: InteractionOutcome): { attribute: string; description: string } {
  if (outcome.status === 'skipped') return { attribute: 'not verified', description: `skipped, not verified: ${outcome.reason ?? 'no reason given'}` };
  return { attribute: 'verification', description: outcome.reason ?? outcome.status };
}
