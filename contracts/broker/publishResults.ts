/**
 * Publishes what a `pact:verify --broker` run found, one verification result
 * per pact, in the order that keeps a team's can-i-deploy honest:
 *   1. the provider version gets its branch and tag (which creates it);
 *   2. each pact's result, per interaction (verificationResults.ts): a skipped
 *      interaction is published as not verified, never as a success;
 *   3. only once every result is in, the version is recorded as deployed to
 *      the environment. The broker then takes it as what runs there (the
 *      version deployed before, under the same application instance, is
 *      undeployed), so can-i-deploy answers from these results. A run that
 *      stops before that leaves the last complete night deployed.
 */
import { commandWords } from '../verification/commandWords.ts';
import { BrokerError, type BrokerClient } from './BrokerClient.ts';
import { verificationResult, type InteractionOutcome } from './verificationResults.ts';
import type { ProviderIdentity } from './providerIdentity.ts';

type BrokerPact = Awaited<ReturnType<BrokerClient['fetchPact']>>;

/** A pact as the run verified it: its title in the report, its provider, the broker's document, and its interactions' outcomes. */
export interface PublishedPact {
  readonly pact: { readonly title: string; readonly provider: string };
  readonly document: BrokerPact;
  readonly outcomes: readonly InteractionOutcome[];
}

/** Where the lines go, and the command they are said in (pact:verify, or the merge's pact:publish-results). */
export interface PublishLog {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  readonly prefix?: string;
}

/** The broker's id of each interaction (`_id`, which it adds to the pacts it serves), by description. */
export function interactionIds(document: BrokerPact): Map<string, string> {
  const interactions = Array.isArray(document['interactions']) ? (document['interactions'] as { _id?: unknown; description?: unknown }[]) : [];
  return new Map(
    interactions.flatMap((i) => (typeof i._id === 'string' && typeof i.description === 'string' ? [[i.description, i._id] as [string, string]] : [])),
  );
}

/** Publishes every pact's result, then records the deployment; answers 0, or 1 when the broker refused something (printed). */
export async function publishResults(
  client: BrokerClient,
  fetched: readonly PublishedPact[],
  identity: ProviderIdentity,
  verifier: { readonly version: string; readonly buildUrl?: string },
  log: PublishLog = { out: console.log, err: console.error },
): Promise<number> {
  const prefix = log.prefix ?? commandWords().prefix;
  const providers = [...new Set(fetched.map((f) => f.pact.provider))];
  try {
    for (const provider of providers) await client.describeVersion(provider, identity.version, identity.branch, identity.tags);
    for (const { pact, document, outcomes } of fetched) {
      const result = verificationResult(outcomes, identity.version, verifier, interactionIds(document));
      await client.publishResult(document, result);
      if (outcomes.length === 0) log.err(`${prefix}: no outcome of ${pact.title} was written: the run stopped early; its result is published as failed.`);
      const passed = outcomes.filter((o) => o.status === 'passed').length;
      const skipped = outcomes.filter((o) => o.status === 'skipped').length;
      log.out(
        `${prefix}: published ${result.success ? 'success' : 'FAILURE'} for ${pact.title} (${passed}/${outcomes.length} interactions verified${skipped > 0 ? `, ${skipped} skipped: not verified` : ''}) as ${pact.provider} ${identity.version} on branch ${identity.branch}`,
      );
    }
    if (identity.environment) {
      for (const provider of providers) {
        await client.recordDeployment(provider, identity.version, identity.environment, identity.target);
        log.out(
          `${prefix}: recorded ${provider} ${identity.version} as deployed to ${identity.environment} (instance ${identity.target}): can-i-deploy --to-environment ${identity.environment} answers from these results`,
        );
      }
    }
  } catch (error) {
    if (!(error instanceof BrokerError)) throw error;
    log.err(
      `${prefix}: publishing the results failed: ${error.message}${identity.environment ? ` The version was not recorded as deployed to ${identity.environment}: can-i-deploy still answers from the last complete run.` : ''}`,
    );
    return 1;
  }
  return 0;
}
