/**
 * Publishes what one or several broker runs left (resultsToPublish.ts) as one night: each pact's result once,
 * then the deployment once, after the last result (publishResults.ts). The nightly verifies the teams' pacts in
 * one job per sandbox; its merge job calls this over every job's folder. What would make the night's results
 * wrong is refused before anything is sent: folders verified as different provider versions, or a pact found in
 * two folders. A sandbox whose folder is missing (its job failed) leaves the night incomplete: the others'
 * results are published, the deployment is not recorded, so can-i-deploy answers from the last complete night.
 */
import { commandWords } from '../verification/commandWords.ts';
import type { BrokerClient } from './BrokerClient.ts';
import { publishResults, type PublishLog } from './publishResults.ts';
import { outcomesOf, type LeftRun } from './resultsToPublish.ts';

export interface PublishOnceOptions {
  /** The sandboxes the folders must cover (the matrix's ids); a run of every sandbox (no --sandbox) covers them all. */
  readonly sandboxes?: readonly string[];
  readonly log?: PublishLog;
}

/** 0 every result published (and the deployment recorded); 1 the broker refused one, or a sandbox is missing; 2 folders that do not make one night. */
export async function publishOnce(client: BrokerClient, runs: readonly LeftRun[], options: PublishOnceOptions = {}): Promise<number> {
  const log: PublishLog = options.log ?? { out: console.log, err: console.error };
  const prefix = log.prefix ?? commandWords().prefix;
  const refused = notOneNight(runs);
  if (refused) {
    log.err(`${prefix}: ${refused} Nothing was published.`);
    return 2;
  }
  const identity = runs[0]!.left.identity;
  const everySandbox = runs.some((run) => run.left.sandbox === undefined);
  const missing = everySandbox ? [] : (options.sandboxes ?? []).filter((id) => !runs.some((run) => run.left.sandbox === id));
  const pacts = runs.flatMap((run) => {
    const outcomes = outcomesOf(run);
    return run.left.pacts.map((pact) => ({
      pact: { title: pact.title, provider: pact.provider },
      document: pact.document,
      outcomes: outcomes.get(pact.title) ?? [],
    }));
  });
  if (pacts.length === 0) {
    log.out(`${prefix}: nothing to publish: the broker selected no pact${missing.length > 0 ? ' in the folders given' : ''}.`);
    return missing.length > 0 ? reportMissing(missing, identity.environment, identity.version, log.err, prefix) : 0;
  }
  const { environment: _, ...withoutDeployment } = identity;
  const code = await publishResults(client, pacts, missing.length > 0 ? withoutDeployment : identity, runs[0]!.left.verifier, { ...log, prefix });
  return missing.length > 0 ? reportMissing(missing, identity.environment, identity.version, log.err, prefix) : code;
}

/** Why these folders are not one night's results, or undefined when they are. */
function notOneNight(runs: readonly LeftRun[]): string | undefined {
  if (runs.length === 0) return 'no results to publish were given.';
  const versions = Map.groupBy(runs, (run) => JSON.stringify(run.left.identity));
  if (versions.size > 1) {
    const named = [...versions.values()].map((group) => `${group[0]!.left.identity.version} (${group.map((run) => run.dir).join(', ')})`);
    return `the folders were verified as different provider versions or environments: ${named.join('; ')}. Publish each run's folders on their own, or verify again in one run.`;
  }
  const byUrl = Map.groupBy(
    runs.flatMap((run) => run.left.pacts.map((pact) => ({ run, pact }))),
    ({ pact }) => pact.url,
  );
  const twice = [...byUrl.entries()].filter(([, found]) => found.length > 1);
  if (twice.length > 0) {
    const [url, found] = twice[0]!;
    return `the pact ${url} was verified in ${found.map(({ run }) => run.dir).join(' and ')}: a pact's result is published once, so give each job's folder once (each job verifies its own sandbox: --sandbox).`;
  }
  return undefined;
}

function reportMissing(missing: readonly string[], environment: string | undefined, version: string, err: (line: string) => void, prefix: string): 1 {
  err(
    `${prefix}: no results from the sandbox(es) ${missing.join(', ')}: their job left no folder (it failed or was cancelled), so tonight is incomplete.` +
      `${environment ? ` ${version} was not recorded as deployed to ${environment}: can-i-deploy still answers from the last complete night.` : ''}` +
      ' Re-run the failed jobs: the merge runs again and publishes every result, then the deployment.',
  );
  return 1;
}
