/**
 * `npm run pact:publish-results -- --from <dir> …`: publishes what broker runs left without publishing
 * (`npm run pact:verify -- --broker --no-publish`, one per sandbox in the nightly's matrix), as one night: each
 * pact's result once, then the provider version recorded as deployed once, after the last result
 * (contracts/broker/publishOnce.ts). The nightly's merge job runs it over every job's artifact.
 */
import { processEnv } from '../src/config/env.ts';
import { publishOnce } from '../contracts/broker/publishOnce.ts';
import { findLeftRuns, ResultsToPublishError } from '../contracts/broker/resultsToPublish.ts';
import { PactBrokerConfigError } from './pactBroker.ts';
import { brokerClient, USAGE_EXIT_CODE } from './pactVerify.ts';

const PREFIX = 'pact:publish-results';

/** A usage problem (exit 2): the message names the fix. */
class PublishUsageError extends Error {
  override name = 'PublishUsageError';
}

export const USAGE = `Usage: npm run ${PREFIX} -- --from <dir> [--from <dir> …] [--sandboxes <ids>]

  --from <dir>       a folder holding what npm run pact:verify -- --broker --no-publish left (pact-verify/<run>/,
                     at any depth: a job's artifact, or a folder of them); each pact's result is published once
  --sandboxes <ids>  the sandboxes the folders must cover, as --list-sandboxes prints them (["harness","sandbox-1"])
                     or comma-separated; when one has no folder, the others' results are published and the
                     deployment is not recorded

The broker is PACT_BROKER_BASE_URL (PACT_BROKER_TOKEN, or PACT_BROKER_USERNAME/_PASSWORD): the one the runs fetched from.
Exit: 0 every result published, and the deployment recorded; 1 the broker refused something, or a sandbox's folder
is missing (no deployment); 2 usage: no folder or nothing left in it, folders of different provider versions, a pact
in two folders, the broker not set.`;

export interface PublishArgs {
  readonly from: readonly string[];
  readonly sandboxes?: readonly string[];
}

/** Reads the command line; throws PublishUsageError naming the fix. */
export function parsePublishArgs(argv: readonly string[]): PublishArgs {
  const from: string[] = [];
  let sandboxes: string[] | undefined;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = argv[i + 1];
    if (flag !== '--from' && flag !== '--sandboxes') throw new PublishUsageError(`unknown argument ${JSON.stringify(flag)}.\n\n${USAGE}`);
    if (value === undefined || value.startsWith('--')) throw new PublishUsageError(`${flag} needs a value.\n\n${USAGE}`);
    i += 1;
    if (flag === '--from') from.push(value);
    else sandboxes = sandboxList(value);
  }
  if (from.length === 0) throw new PublishUsageError(`give the folders to publish from: --from <dir> (the verification jobs' artifacts).\n\n${USAGE}`);
  return { from, ...(sandboxes ? { sandboxes } : {}) };
}

/** `["a","b"]` as --list-sandboxes prints it, or `a,b`. */
function sandboxList(value: string): string[] {
  if (!value.trim().startsWith('['))
    return value
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean);
  let ids: unknown;
  try {
    ids = JSON.parse(value);
  } catch {
    ids = undefined;
  }
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string'))
    throw new PublishUsageError(`--sandboxes ${value}: not a JSON array of ids. Give what --list-sandboxes printed, or the ids comma-separated.`);
  return ids as string[];
}

export async function publishResultsCommand(argv: readonly string[], env: NodeJS.ProcessEnv = processEnv()): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  try {
    const args = parsePublishArgs(argv);
    if (!env['PACT_BROKER_BASE_URL']?.trim())
      throw new PublishUsageError(
        'PACT_BROKER_BASE_URL is not set. Set it to the broker the runs fetched the pacts from (and PACT_BROKER_TOKEN, or PACT_BROKER_USERNAME/_PASSWORD).',
      );
    const { client } = brokerClient(env);
    const runs = findLeftRuns(args.from);
    if (runs.length === 0)
      throw new PublishUsageError(
        `no results to publish under ${args.from.join(', ')}: each run leaves pact-verify/<run>/to-publish.json (npm run pact:verify -- --broker --no-publish). Give the folders the verification jobs uploaded.`,
      );
    return await publishOnce(client, runs, {
      log: { out: console.log, err: console.error, prefix: PREFIX },
      ...(args.sandboxes ? { sandboxes: args.sandboxes } : {}),
    });
  } catch (error) {
    if (!(error instanceof PublishUsageError || error instanceof PactBrokerConfigError || error instanceof ResultsToPublishError)) throw error;
    console.error(`${PREFIX}: ${error.message}`);
    return USAGE_EXIT_CODE;
  }
}

if (import.meta.main) process.exit(await publishResultsCommand(process.argv.slice(2)));
