/**
 * `npm run pact:verify`: Pact's Verifier, by hand, against the target: the twins by default (a
 * `npm run twins` already running is reused, otherwise they are started), HARNESS_TARGET=replay for the
 * recordings, HARNESS_TARGET=live for the live services, each with the harness's guards.
 *
 *   npm run pact:verify [-- store|media]           the harness's own pacts (contracts/pacts), as committed
 *   npm run pact:verify -- --pact <file|dir> …     any consumer's pact files
 *   npm run pact:verify -- --broker [selectors]    the pacts a Pact Broker has for the two providers, then
 *                                                  publishes the results (provider version = harness commit + target,
 *                                                  on live + the night: contracts/broker/providerIdentity.ts)
 *   npm run pact:verify -- --list-sandboxes        the sandbox ids of this configuration, for the nightly's matrix;
 *                                                  each job verifies one (--sandbox <id> --no-publish) and its merge
 *                                                  publishes them all once (npm run pact:publish-results)
 *
 * One verdict per interaction (contracts/verification/runPactPlan.ts): the exit code and the report say which
 * interaction broke, and why.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { runTool } from './lib/runTool.ts';
import { silenceDependencyDeprecations } from '../src/config/quietDependencies.ts';
import { shareCompileCache, useCompileCache } from '../src/config/compileCache.ts';
import { dependencyVersion, harnessModule } from '../src/config/harnessRoot.ts';
import { announceTarget } from './lib/announceTarget.ts';
import { ConfigError } from '../src/config/ConfigError.ts';
import { commandWords, inReadersWords } from '../contracts/verification/commandWords.ts';
import {
  apiOfProvider,
  outsidePact,
  pactFilesIn,
  outputLogPath,
  PactSourceError,
  planPath,
  withUniqueTitles,
  writePlan,
  readPlan,
  type OutsidePact,
} from '../contracts/verification/outsidePacts.ts';
import { sandboxIds, sandboxOf, type PactApi } from '../contracts/verification/sandboxes.ts';
import { laneCount, startLaneProcess } from '../contracts/verification/laneProcess.ts';
import { loadTeamStates, TeamStatesError } from '../contracts/verification/teamStates.ts';
import { DEFAULT_SELECTORS, parseSelectors, SELECTOR_USAGE, SelectorError, type ConsumerVersionSelector } from '../contracts/broker/selectors.ts';
import { BrokerClient, BrokerError } from '../contracts/broker/BrokerClient.ts';
import { outcomesDir, readOutcomes } from '../contracts/broker/verificationResults.ts';
import { MESSAGE_NOT_VERIFIED } from '../contracts/verification/pactProvider.ts';
import { ensureTwins, TwinsUnavailableError, type PlanTwins, type TwinsMessage } from '../contracts/verification/twinsForPlan.ts';
import { providerIdentity as identityOf, ProviderIdentityError, type ProviderIdentity } from '../contracts/broker/providerIdentity.ts';
import { publishOnce } from '../contracts/broker/publishOnce.ts';
import { readLeftRun, settleResultsToPublish, writeResultsToPublish, type PactToPublish } from '../contracts/broker/resultsToPublish.ts';
import { MEDIA_PACT, STORE_PACT } from '../contracts/pactNames.ts';
import { brokerAuth, brokerUrl, buildUrl, consumerBranch, PactBrokerConfigError, systemGit, type Git } from './pactBroker.ts';
import { callerDir, pactVerifyConsole, processEnv, recordingsDir, runName } from '../src/config/env.ts';
import { harnessConfig, type HarnessConfig } from '../src/config/harnessConfig.ts';
import { writeRecordedTarget } from '../src/recording/recordedTarget.ts';
import { leakScan } from '../src/recording/leakScan.ts';
import { environmentSecrets } from '../src/recording/session.ts';

// Filters, without the extension: the checkout runs the TypeScript, an installed harness the compiled JavaScript.
const SPECS = { store: 'contracts/store/verify.pact.spec', media: 'contracts/media/verify.pact.spec' } as const;
const OUTSIDE_SPEC = 'contracts/verification/outsidePacts.verify.spec';
export const USAGE_EXIT_CODE = 2;
/** The verification itself stopped before its last verdict (a lane's process died): nothing of the run stands. */
const VERIFICATION_STOPPED = 3;

// How the caller typed the command: the packaged one (scripts/cli.ts sets its console) or the checkout's npm script.
// Read when a line is printed: scripts/cli.ts sets the console after this module may have loaded.
const words = () => commandWords();
const prefix = () => words().prefix;

/** The command's usage, in the reader's words. */
export function usage(): string {
  const COMMAND = words().verify;
  return `Usage:${
    pactVerifyConsole()
      ? ''
      : `
  ${COMMAND} [store|media]                   the harness's own pacts (contracts/pacts)`
  }
  ${COMMAND} --pact <file|dir> [--pact <file|dir> …] [--provider store|media] [--states <file>]
  ${COMMAND} --broker [selectors] [--provider-name <name> …] [--no-publish] [--sandbox <id>] [--states <file>]
  ${COMMAND} --list-sandboxes [--beside-suites | --after-suites]

  --pact <file|dir>     a pact file, or every *.json in a directory; any consumer's, of any version Pact's
                        verifier reads (V1.x to V4: HTTP interactions, and the store's webhook deliveries as
                        message interactions, verified on the twins)
  --provider store|media  which API the pacts are for, when their provider name does not say
  --states <file>       a team's own provider states (${words().statesDoc})
  --broker              fetch the pacts to verify from PACT_BROKER_BASE_URL (PACT_BROKER_TOKEN or
                        PACT_BROKER_USERNAME/_PASSWORD), then publish the results to it
  --provider-name <n>   the provider whose pacts the broker is asked for (default: store-commerce-api
                        and media-tracking-api)
  --no-publish          verify the broker's pacts without publishing results${
    pactVerifyConsole()
      ? ''
      : `; what publishing needs is left in the
                        run's folder (npm run pact:publish-results -- --from <dir> publishes it)`
  }
  --sandbox <id>        of --pact's or --broker's pacts, verify only those of one sandbox (a team's app on the
                        live store, the harness's, the media API): one job of a CI matrix
  --list-sandboxes      print this configuration's sandbox ids as a JSON array, for a CI matrix (nothing secret);
                        --after-suites: those that write where the suites count records (the harness's store and
                        media account, a team app on STORE_ID), so wait for them; --beside-suites: the others
  --provider-branch <b> the branch of the provider version published (default: PACT_BRANCH, else git's)
  --provider-environment <env>  once every result is published, record the provider version as deployed
                        there (default: production for HARNESS_TARGET=live, none for the twins and replay);
                        the broker must know <env>. On live the version is <commit>+live.<YYYY-MM-DD>
  -- <playwright args>  after a lone --, the verification runs under Playwright with these (e.g. --grep "first page")

${SELECTOR_USAGE}

The target is HARNESS_TARGET: twins (default), replay, or live (with its guards and budget).${
    pactVerifyConsole()
      ? `
With npx api-contract-harness: --target twin|replay|live|record in place of HARNESS_TARGET, and --out <dir> for the
reports (default ./reports/api-contract-harness); paths are read from the folder you run it in.`
      : ''
  }
Exit: 0 every interaction verified; 1 an interaction failed, or could not be verified on this target (the reason is printed); 2 usage or configuration error; 3 the verification stopped before its last verdict (run it again).`;
}

/** announceTarget, with a configuration error told in the reader's words (a team's replay names its own record command). */
function announce(what: string): HarnessConfig | undefined {
  try {
    harnessConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(inReadersWords(error.message));
    return undefined;
  }
  return announceTarget(what);
}

export interface VerifyArgs {
  readonly mode: 'own' | 'pact' | 'broker' | 'list-sandboxes';
  /** After a lone `--`: passed to Playwright as they are (e.g. --grep, --reporter). */
  readonly playwright: readonly string[];
  readonly apis: readonly PactApi[];
  readonly pacts: readonly string[];
  readonly provider?: PactApi;
  readonly statesFile?: string;
  readonly selectors: readonly ConsumerVersionSelector[];
  readonly providerNames: readonly string[];
  readonly publish: boolean;
  readonly providerBranch?: string;
  readonly providerEnvironment?: string;
  /** --sandbox: only the pacts verified against this sandbox (apiTargets.ts sandboxOf). */
  readonly sandbox?: string;
  /** --list-sandboxes --beside-suites / --after-suites. */
  readonly when?: 'beside-suites' | 'after-suites';
}

/** The flags as given, before their combination is checked. */
interface Flags {
  readonly apis: PactApi[];
  readonly pacts: string[];
  readonly providerNames: string[];
  /** What no flag took: consumer version selectors, or mistakes. */
  readonly rest: string[];
  provider?: PactApi;
  statesFile?: string;
  broker: boolean;
  publish: boolean;
  providerBranch?: string;
  providerEnvironment?: string;
  sandbox?: string;
  listSandboxes: boolean;
  /** With --list-sandboxes: only those a night may verify beside its suites, or only those that wait for them. */
  when?: 'beside-suites' | 'after-suites';
}

/** Reads the command line; throws PactSourceError naming the fix (exit 2). */
export function parseVerifyArgs(all: readonly string[]): VerifyArgs {
  const split = all.indexOf('--');
  const args = split === -1 ? all : all.slice(0, split);
  const playwright = split === -1 ? [] : all.slice(split + 1);
  const flags = readFlags(args);
  let selectors: ReturnType<typeof parseSelectors>;
  try {
    selectors = parseSelectors(flags.rest);
  } catch (error) {
    if (error instanceof SelectorError) throw new PactSourceError(`${error.message}\n\n${SELECTOR_USAGE}`);
    throw error;
  }
  const { apis, pacts, providerNames, provider, statesFile, broker, publish, providerBranch, providerEnvironment, sandbox } = flags;
  const mode = flags.listSandboxes ? 'list-sandboxes' : broker ? 'broker' : pacts.length > 0 ? 'pact' : 'own';
  checkCombination(mode, flags, selectors);
  return {
    mode,
    playwright,
    apis,
    pacts,
    selectors: broker && selectors.selectors.length === 0 ? [...DEFAULT_SELECTORS] : selectors.selectors,
    providerNames,
    publish: broker && publish,
    ...(providerBranch ? { providerBranch } : {}),
    ...(providerEnvironment ? { providerEnvironment } : {}),
    ...(provider ? { provider } : {}),
    ...(statesFile ? { statesFile } : {}),
    ...(sandbox ? { sandbox } : {}),
    ...(flags.when ? { when: flags.when } : {}),
  };
}

function readFlags(args: readonly string[]): Flags {
  const flags: Flags = { apis: [], pacts: [], providerNames: [], rest: [], broker: false, publish: true, listSandboxes: false };
  const value = (flag: string, i: number): string => {
    const next = args[i + 1];
    if (next === undefined || next.startsWith('--')) throw new PactSourceError(`${flag} needs a value.\n\n${usage()}`);
    return next;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === 'store' || arg === 'media') flags.apis.push(arg);
    else if (arg === '--pact') flags.pacts.push(value(arg, i++));
    else if (arg === '--states') flags.statesFile = value(arg, i++);
    else if (arg === '--provider-name') flags.providerNames.push(value(arg, i++));
    else if (arg === '--provider-branch') flags.providerBranch = value(arg, i++);
    else if (arg === '--provider-environment') flags.providerEnvironment = value(arg, i++);
    else if (arg === '--sandbox') flags.sandbox = value(arg, i++);
    else if (arg === '--list-sandboxes') flags.listSandboxes = true;
    else if (arg === '--beside-suites' || arg === '--after-suites') flags.when = arg === '--beside-suites' ? 'beside-suites' : 'after-suites';
    else if (arg === '--provider') {
      const api = value(arg, i++);
      if (api !== 'store' && api !== 'media') throw new PactSourceError(`--provider is store or media, not "${api}".`);
      flags.provider = api;
    } else if (arg === '--broker') flags.broker = true;
    else if (arg === '--no-publish') flags.publish = false;
    else flags.rest.push(arg);
  }
  return flags;
}

/** Flags that belong to another mode, or to none: each refused with what it goes with. */
function checkCombination(mode: VerifyArgs['mode'], flags: Flags, selectors: ReturnType<typeof parseSelectors>): void {
  const { apis, pacts, providerNames, provider, statesFile, broker, publish, providerBranch, providerEnvironment } = flags;
  if (mode === 'list-sandboxes' && (flags.sandbox || broker || pacts.length > 0 || apis.length > 0 || flags.rest.length > 0 || provider || statesFile))
    throw new PactSourceError(
      `--list-sandboxes takes no other argument: it prints the sandbox ids of this configuration (HARNESS_TARGET, STORE_TEAM_SANDBOXES); then verify one with ${words().verify} --broker --sandbox <id>.`,
    );
  if (mode === 'list-sandboxes') return;
  if (flags.when) throw new PactSourceError(`--${flags.when} goes with --list-sandboxes.\n\n${usage()}`);
  if (broker && pacts.length > 0) throw new PactSourceError('Give --pact or --broker, not both: one run verifies files, or what the broker has.');
  if (mode !== 'broker' && (selectors.leftOver.length > 0 || selectors.selectors.length > 0)) {
    const unknown = selectors.leftOver.length > 0 ? selectors.leftOver : ['a consumer version selector'];
    throw new PactSourceError(
      `${unknown.map((a) => JSON.stringify(a)).join(', ')}: ${selectors.leftOver.length > 0 ? 'unknown argument' : 'only with --broker'}.\n\n${usage()}`,
    );
  }
  if (selectors.leftOver.length > 0)
    throw new PactSourceError(`Unknown argument ${selectors.leftOver.map((a) => JSON.stringify(a)).join(', ')}.\n\n${usage()}`);
  if (pactVerifyConsole() && apis.length > 0)
    throw new PactSourceError(`"${apis.join(' ')}": say which API your pacts are for with --provider store|media.\n\n${usage()}`);
  if (mode !== 'own' && apis.length > 0)
    throw new PactSourceError(`"${apis.join(' ')}" picks the harness's own pacts; with --pact or --broker use --provider store|media.`);
  // The packaged command verifies a team's pacts: there are no pacts of the harness's own in a team's project.
  if (pactVerifyConsole() && mode === 'own')
    throw new PactSourceError(`give the pacts to verify: --pact <file|dir> (what your consumer tests wrote), or --broker.\n\n${usage()}`);
  if (mode === 'own' && (provider || statesFile || providerNames.length > 0))
    throw new PactSourceError(`--provider, --states and --provider-name go with --pact or --broker.\n\n${usage()}`);
  if (mode === 'own' && flags.sandbox)
    throw new PactSourceError(`--sandbox goes with --pact or --broker: it picks, of their pacts, those of one sandbox.\n\n${usage()}`);
  if (mode !== 'broker' && (providerBranch || providerEnvironment || !publish || providerNames.length > 0))
    throw new PactSourceError(`--provider-name, --provider-branch, --provider-environment and --no-publish go with --broker.\n\n${usage()}`);
}

async function verifyOwn(apis: readonly PactApi[], playwright: readonly string[]): Promise<number> {
  const chosen = apis.length > 0 ? apis : (Object.keys(SPECS) as PactApi[]);
  const config = announce(`${prefix()}: the ${chosen.join(' and ')} pacts in contracts/pacts/, with Pact's Verifier,`);
  if (!config) return USAGE_EXIT_CODE;
  return runTool('playwright', ['test', '--project=contracts-verify', '--no-deps', ...chosen.map((api) => SPECS[api]), ...playwright], {
    HARNESS_RUN_NAME: runName() ?? `pact-verify-${config.target}`,
  });
}

/**
 * Runs the outside verification of `pacts` in Playwright: the plan goes in a file of this run's name. On
 * HARNESS_TARGET=record the recording gets its target (as npm run record writes it), and what was written
 * is scanned for the environment's secrets afterwards. `underWay` is called once the verification is under way: what
 * the caller does meanwhile.
 */
export async function verifyOutside(
  pacts: readonly OutsidePact[],
  args: VerifyArgs,
  run: string,
  started?: StartedVerification,
  underWay?: () => void,
): Promise<number> {
  writePlan({ pacts, ...(args.statesFile ? { statesFile: args.statesFile } : {}) }, run);
  rmSync(outcomesDir(run), { recursive: true, force: true });
  const config = harnessConfig();
  if (config.target === 'record') writeRecordedTarget(recordingsDir(), config.store, config.media);
  const ran = await verifyPlan(pacts, args, run, started, underWay);
  const code = ran || unverifiedInteractions(run);
  if (config.target !== 'record') return code;
  const leaks = leakScan([recordingsDir(), 'reports'], environmentSecrets());
  if (leaks.length === 0) return code;
  console.error(
    `${prefix()}: a secret from the environment is written in ${leaks.join(', ')}: delete those files, add the pattern to contracts/<api>/normalisation.json "redact", and record again.`,
  );
  return 1;
}

/**
 * The plan verified by one light process (contracts/verification/verifyPlanProcess.ts: no test runner) while the
 * states file loads and the twins start here, side by side on two cores; under Playwright's runner when Playwright's own arguments follow a
 * lone `--` (a --grep, a reporter of its own). That process's stdout, Pact's own report, goes to the output log;
 * the lines a team reads come on its fd 3 and are printed here.
 */
async function verifyPlan(
  pacts: readonly OutsidePact[],
  args: VerifyArgs,
  run: string,
  started: StartedVerification | undefined,
  underWay: () => void = () => {},
): Promise<number> {
  if (args.playwright.length > 0) {
    if (!(await statesLoad(args))) return USAGE_EXIT_CODE;
    const ran = runTool('playwright', ['test', '--project=contracts-outside', '--no-deps', OUTSIDE_SPEC, ...args.playwright], { HARNESS_RUN_NAME: run });
    underWay();
    return ran;
  }
  const verification = started ?? startVerification(run, lanesFor(pacts));
  if ('lanes' in verification) {
    if (args.mode !== 'broker' && !(await statesLoad(args))) return stopVerification(verification).then(() => USAGE_EXIT_CODE);
    return reportLanes(run, verification, underWay);
  }
  const { child, exited, output } = verification;
  // While it loads: the states file (a broker run loaded it before fetching), then the twins.
  const twins = args.mode === 'broker' || (await statesLoad(args)) ? await startTwinsFor(pacts) : undefined;
  // Without them (said why above) the verification is stopped at once, mid-load: nothing was verified.
  if (!twins) child.kill();
  else if (child.connected) {
    child.send({ twins: 'ready' } satisfies TwinsMessage);
    underWay();
  }
  const code = await exited;
  await twins?.close();
  await new Promise((resolve) => output.end(resolve));
  return twins ? code : USAGE_EXIT_CODE;
}

/**
 * The verification of a run, started before it is told its plan: one process (verifyPlanProcess.ts), which waits for
 * the word that its plan is written and its twins answer; or, for live sandboxes side by side, their lanes
 * (laneProcess.ts), whose verdicts this process hears and writes (reportLanes).
 */
type StartedVerification =
  | {
      readonly child: ChildProcess;
      /** Its exit code (1 when it could not start). */
      readonly exited: Promise<number>;
      /** The output log its stdout (Pact's own report) is written to. */
      readonly output: WriteStream;
    }
  | {
      readonly lanes: readonly ChildProcess[];
      readonly output: WriteStream;
      /** What gives the lanes their sandboxes and writes what they find: loaded while the lanes load and the pacts come. */
      readonly writer: Promise<typeof import('../contracts/verification/verifyInLanes.ts')>;
    };

/**
 * Starts the verification of `run`: `lanes` lane processes, or (0) the verification process. Either way Pact's own
 * report, printed by its core to their stdout, goes to the run's output log, without colour codes: a log is read in
 * an editor, not a terminal.
 */
function startVerification(run: string, lanes: number): StartedVerification {
  const log = outputLogPath(run);
  mkdirSync(dirname(log), { recursive: true });
  const output = createWriteStream(log);
  const toLog = (chunk: Buffer) => output.write(stripVTControlCharacters(chunk.toString('utf8')));
  // pact-js's proxy (a message pact's verification) calls util._extend on every request (DEP0060): not the team's to see.
  silenceDependencyDeprecations();
  shareCompileCache();
  const env = { ...processEnv(), PACT_DO_NOT_TRACK: 'true', HARNESS_RUN_NAME: run };
  if (lanes > 0) {
    const started = Array.from({ length: lanes }, () => startLaneProcess(env));
    for (const lane of started) lane.stdout!.on('data', toLog);
    const writer = import('../contracts/verification/verifyInLanes.ts');
    // Awaited by reportLanes; a run stopped before it (no pacts) has nothing to hear of it.
    writer.catch(() => {});
    return { lanes: started, output, writer };
  }
  const child = spawn(process.execPath, [harnessModule('contracts/verification/verifyPlanProcess'), run], {
    stdio: ['ignore', 'pipe', 'inherit', 'pipe', 'ipc'],
    env,
  });
  child.stdout!.on('data', toLog);
  (child.stdio[3] as Readable).pipe(process.stdout, { end: false });
  const exited = new Promise<number>((resolve) => {
    child.on('error', (error) => {
      console.error(`${prefix()}: the verification could not start: ${error.message}`);
      resolve(1);
    });
    child.on('close', (exit) => resolve(exit ?? 1));
  });
  return { child, exited, output };
}

/**
 * Live sandboxes side by side: the lanes verify, and this process writes what they find (verifyInLanes.ts), as the
 * verification process does for one sandbox. Exit as that process's: 3 when the verification itself stopped.
 */
async function reportLanes(run: string, started: Extract<StartedVerification, { lanes: unknown }>, underWay: () => void): Promise<number> {
  try {
    const { verifyInLanes } = await started.writer;
    return await verifyInLanes(readPlan(run), run, { started: started.lanes, print: (line) => console.log(line), given: underWay });
  } catch (error) {
    console.log(
      `${prefix()}: the verification stopped: ${error instanceof Error ? error.message : String(error)}. Run it again; nothing of this run is left for publishing.`,
    );
    return VERIFICATION_STOPPED;
  } finally {
    await new Promise((resolve) => started.output.end(resolve));
  }
}

/** Stops a verification started for pacts that did not come (it had read no plan). */
async function stopVerification(started: StartedVerification | undefined): Promise<void> {
  if (!started) return;
  if ('lanes' in started) for (const lane of started.lanes) lane.kill();
  else {
    started.child.kill();
    await started.exited;
  }
  await new Promise((resolve) => started.output.end(resolve));
}

/** The lanes the verification of `pacts` starts at once: one per core for live sandboxes side by side (0: none). */
function lanesFor(pacts: readonly OutsidePact[]): number {
  if (harnessConfig().target !== 'live') return 0;
  return orNone(laneCount(new Set(pacts.map((pact) => sandboxOf(pact.api, pact.consumer).label)).size));
}

/** Before a broker says which pacts: the lanes the sandboxes of the APIs asked for would have (0 for one sandbox). */
function lanesAhead(args: VerifyArgs): number {
  if (harnessConfig().target !== 'live' || args.sandbox !== undefined) return 0;
  const apis = new Set(providerNamesOf(args).map((provider) => args.provider ?? apiOfProvider(provider)));
  return orNone(laneCount(sandboxIds().filter((id) => apis.has(id === 'media' ? 'media' : 'store')).length));
}

/** One lane is the verification process itself. */
const orNone = (lanes: number) => (lanes > 1 ? lanes : 0);

/** The twins the pacts need (contracts/verification/twinsForPlan.ts); undefined, once it is said why, when they cannot be had. */
async function startTwinsFor(pacts: readonly OutsidePact[]): Promise<PlanTwins | undefined> {
  try {
    return await ensureTwins(pacts.map((pact) => pact.api));
  } catch (error) {
    if (!(error instanceof TwinsUnavailableError)) throw error;
    console.error(`${prefix()}: ${error.message}`);
    return undefined;
  }
}

/**
 * 1 when an interaction was not verified (a state the target cannot arrange, a write without the API's write flag,
 * an API the run leaves out, a message on live or a recording): the run verified less than the pacts ask, so it
 * does not pass, though no interaction failed. Says which, once per reason.
 */
export function unverifiedInteractions(run: string, print: (line: string) => void = console.error): number {
  const skipped = readOutcomes(outcomesDir(run))
    .filter((outcome) => outcome.status === 'skipped')
    .sort((a, b) => a.description.localeCompare(b.description));
  if (skipped.length === 0) return 0;
  const byReason = Map.groupBy(skipped, (outcome) =>
    (outcome.reason ?? 'skipped').replace(new RegExp(`^${MESSAGE_NOT_VERIFIED}: `), 'a message interaction: '),
  );
  for (const [reason, outcomes] of byReason)
    print(`${prefix()}: ${outcomes.length} interaction(s) not verified (${outcomes.map((o) => `"${o.description}"`).join(', ')}): ${reason}`);
  print(`${prefix()}: the run does not pass without them (not verified: ${skipped.length} of the pacts' interactions).`);
  return 1;
}

export { nightOf, providerVersion, targetLabel, type ProviderIdentity } from '../contracts/broker/providerIdentity.ts';

/** The provider version, branch, tag and environment of this run (contracts/broker/providerIdentity.ts: on live, one version per night). */
export function providerIdentity(args: VerifyArgs, env: NodeJS.ProcessEnv, git: Git, target: HarnessConfig['target'], now?: Date): ProviderIdentity {
  return identityOf(args, () => consumerBranch(env, git), git, target, now);
}

/**
 * --broker: fetch the pacts the selectors choose for each provider, verify them (one test per interaction),
 * leave what publishing needs in the run's folder (contracts/broker/resultsToPublish.ts), and publish one result
 * per pact, with the provider version's branch, tag and deployment. With --sandbox, only that sandbox's pacts; with
 * --no-publish, the folder is left for npm run pact:publish-results (the nightly's merge job).
 */
export async function verifyFromBroker(args: VerifyArgs, env: NodeJS.ProcessEnv, git: Git = systemGit()): Promise<number> {
  const connected = connectToBroker(args, env, git);
  if (typeof connected === 'number') return connected;
  const { client, identity, config } = connected;
  const run = runName() ?? `pact-verify-broker-${config.target}${args.sandbox ? `-${args.sandbox}` : ''}`;
  const dir = join(resolve(planPath(run), '..'), 'broker');
  mkdirSync(dir, { recursive: true });
  let fetched: FetchedPact[];
  let started: StartedVerification | undefined;
  try {
    // Before any request: a job given a sandbox this configuration does not have would verify nothing.
    checkSandbox(args.sandbox);
    // The verification process and its lanes load while the broker is asked; stopped if nothing comes to verify.
    // After git has named the provider version: its processes would wait for the cores behind the lanes' start.
    if (args.playwright.length === 0) started = startVerification(run, lanesAhead(args));
    fetched = await fetchPacts(client, args, identity, dir);
  } catch (error) {
    await stopVerification(started);
    if (!(error instanceof BrokerError || error instanceof PactSourceError)) throw error;
    console.error(`${prefix()}: ${error.message}`);
    return error instanceof PactSourceError ? USAGE_EXIT_CODE : 1;
  }
  // Titled among every pact the broker selected: a sandbox's job names each pact as a run of all of them does.
  const titled = withUniqueTitles(fetched.map((f) => f.pact));
  const chosen = fetched.map((f, n) => ({ ...f, pact: titled[n]! })).filter(({ pact }) => inSandbox(pact, args.sandbox));
  const build = buildUrl(env);
  const leave = (options?: { unsettled: true }) =>
    writeResultsToPublish(
      run,
      {
        ...(args.sandbox ? { sandbox: args.sandbox } : {}),
        identity,
        verifier: { version: dependencyVersion('@pact-foundation/pact-core'), ...(build ? { buildUrl: build } : {}) },
        pacts: chosen.map(({ pact, document }): PactToPublish => ({ url: pact.broker!.pactUrl, title: pact.title, provider: pact.provider, document })),
      },
      options,
    );
  if (chosen.length === 0) {
    await stopVerification(started);
    // The folder still says what was verified (nothing), so the merge knows this sandbox's job ran.
    writePlan({ pacts: [] }, run);
    rmSync(outcomesDir(run), { recursive: true, force: true });
    leave();
    console.log(
      fetched.length === 0
        ? `${prefix()}: nothing to verify: the broker selected no pact. Check the selectors and that the consumers published to these provider names.`
        : `${prefix()}: nothing to verify in the sandbox ${args.sandbox}: none of the ${fetched.length} pact(s) the broker selected is verified against it.`,
    );
    return 0;
  }
  // What publishing needs is written once the verification is under way (a hundred teams' pacts take a tenth of a
  // second), and named as left once it has its last verdict.
  let unsettled: string | undefined;
  const code = await verifyOutside(
    chosen.map((c) => c.pact),
    args,
    run,
    started,
    () => (unsettled = leave({ unsettled: true })),
  );
  // A verification that stopped before its last verdict leaves nothing to publish: the merge then finds this sandbox
  // missing and leaves the night undeployed, rather than publish a part of it as the whole.
  if (code !== 0 && code !== 1) {
    if (unsettled) rmSync(unsettled, { force: true });
    return code;
  }
  const left = dirname(settleResultsToPublish(unsettled ?? leave({ unsettled: true })));
  if (!args.publish) {
    console.log(
      `${prefix()}: --no-publish: the results were not published.${pactVerifyConsole() ? '' : ` To publish them: npm run pact:publish-results -- --from ${relative(callerDir(), left)}`}`,
    );
    return code;
  }
  return (await publishOnce(client, [readLeftRun(left)])) || code;
}

/** --sandbox names one of this configuration's sandboxes; a PactSourceError naming them when not. */
function checkSandbox(sandbox: string | undefined): void {
  if (sandbox === undefined) return;
  const ids = sandboxIds();
  if (ids.includes(sandbox)) return;
  throw new PactSourceError(
    `--sandbox ${sandbox}: this configuration has no such sandbox; its sandboxes are ${ids.join(', ') || 'none (no API is configured)'}. ` +
      `Give one of those (${words().verify} --list-sandboxes prints them); a matrix job must see the same HARNESS_TARGET and STORE_TEAM_SANDBOXES as the job that listed them.`,
  );
}

/** Whether a pact is verified against `sandbox` (every pact when none is given). */
function inSandbox(pact: OutsidePact, sandbox: string | undefined): boolean {
  return sandbox === undefined || sandboxOf(pact.api, pact.consumer).id === sandbox;
}

/** --list-sandboxes: the ids as one JSON line on stdout, nothing else (a workflow's matrix reads it); 2 on a configuration error. */
function listSandboxes(when: VerifyArgs['when']): number {
  try {
    console.log(JSON.stringify(sandboxIds(undefined, when)));
    return 0;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(inReadersWords(error.message));
    return USAGE_EXIT_CODE;
  }
}

/** The broker's client, the provider version the results are published as, and the target; an exit code when the setup is wrong (printed). */
function connectToBroker(
  args: VerifyArgs,
  env: NodeJS.ProcessEnv,
  git: Git,
): { client: BrokerClient; identity: ProviderIdentity; config: HarnessConfig } | number {
  try {
    if (!env['PACT_BROKER_BASE_URL']?.trim())
      throw new PactBrokerConfigError(
        `${prefix()} --broker: PACT_BROKER_BASE_URL is not set. Set it to the broker (and PACT_BROKER_TOKEN, or PACT_BROKER_USERNAME/_PASSWORD), or verify files with --pact.`,
      );
    const { client, url } = brokerClient(env);
    const config = announce(`${prefix()}: the pacts ${url} has for ${providerNamesOf(args).join(' and ')}, with Pact's Verifier,`);
    if (!config) return USAGE_EXIT_CODE;
    return { client, identity: providerIdentity(args, env, git, config.target), config };
  } catch (error) {
    if (!(error instanceof PactBrokerConfigError || error instanceof ProviderIdentityError)) throw error;
    console.error(error.message);
    return USAGE_EXIT_CODE;
  }
}

/** The broker of PACT_BROKER_BASE_URL, with its credentials (scripts/pactBroker.ts reads them); throws PactBrokerConfigError naming the fix. */
export function brokerClient(env: NodeJS.ProcessEnv): { client: BrokerClient; url: string } {
  const url = brokerUrl('publish', env);
  const { vars } = brokerAuth(env);
  return {
    client: new BrokerClient(url, { token: vars['PACT_BROKER_TOKEN'], username: vars['PACT_BROKER_USERNAME'], password: vars['PACT_BROKER_PASSWORD'] }),
    url,
  };
}

/** How many pacts are fetched from a broker at once. */
const BROKER_FETCHES_AT_ONCE = 8;

/** `work` on each item, at most `atOnce` at a time; the answers in the items' order. */
async function inTurns<T, R>(items: readonly T[], atOnce: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const answers: R[] = new Array(items.length);
  let next = 0;
  const turn = async () => {
    while (next < items.length) {
      const n = next++;
      answers[n] = await work(items[n]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, turn));
  return answers;
}

type FetchedPact = { pact: OutsidePact; document: Awaited<ReturnType<BrokerClient['fetchPact']>> };

/** Every pact the broker selects for each provider name, written under `dir` without its broker links (kept for the result). */
async function fetchPacts(client: BrokerClient, args: VerifyArgs, identity: ProviderIdentity, dir: string): Promise<FetchedPact[]> {
  const fetched: FetchedPact[] = [];
  for (const provider of providerNamesOf(args)) {
    const api = args.provider ?? apiOfProvider(provider);
    if (!api) throw new PactSourceError(`--provider-name ${provider}: cannot tell which API that is. Add --provider store or --provider media.`);
    const listed = await client.pactsForVerification(provider, args.selectors, identity.branch);
    console.log(`${prefix()}: the broker has ${listed.length} pact(s) for ${provider} under ${JSON.stringify(args.selectors)}`);
    // A few at a time: a nightly's hundred pacts one after another kept every sandbox waiting a second.
    const documents = await inTurns(listed, BROKER_FETCHES_AT_ONCE, (entry) => client.fetchPact(entry.url));
    for (const [n, entry] of listed.entries()) {
      const document = documents[n]!;
      const path = join(dir, `${provider}-${n + 1}.json`);
      // The pact alone: its broker links stay here, for the result. On one line: the verification reads it, and a
      // nightly's hundred pacts indented cost the start of its lanes a tenth of a second.
      const { _links: _, ...pactOnly } = document;
      writeFileSync(path, JSON.stringify(pactOnly));
      const version = entry.description ? `(${entry.description})` : undefined;
      fetched.push({ pact: outsidePact(path, api, { pactUrl: entry.url }, version, pactOnly), document });
    }
  }
  return fetched;
}

function providerNamesOf(args: VerifyArgs): readonly string[] {
  return args.providerNames.length > 0 ? args.providerNames : [STORE_PACT.provider, MEDIA_PACT.provider];
}

/** The states file as an absolute path, once it is there. */
function statesPath(given: string): string {
  const path = resolve(given);
  if (!existsSync(path))
    throw new PactSourceError(`--states ${given}: no such file (looked for ${path}). Give your team's states file (${words().statesDoc}).`);
  return path;
}

/** Whether the states file (if any) loads and exports team states; when not, says why (the caller's to fix, exit 2). */
async function statesLoad(args: VerifyArgs): Promise<boolean> {
  if (!args.statesFile) return true;
  try {
    await loadTeamStates(args.statesFile);
    return true;
  } catch (error) {
    if (!(error instanceof TeamStatesError)) throw error;
    console.error(`${prefix()}: ${error.message}`);
    return false;
  }
}

/** The whole command: its arguments, its exit code (also `npx api-contract-harness pact-verify`, scripts/cli.ts). */
export async function pactVerifyCommand(argv: readonly string[]): Promise<number> {
  let args: VerifyArgs;
  try {
    if (argv.includes('--help') || argv.includes('-h')) {
      console.log(usage());
      return 0;
    }
    args = parseVerifyArgs(argv);
  } catch (error) {
    if (!(error instanceof PactSourceError)) throw error;
    console.error(`${prefix()}: ${error.message}`);
    return USAGE_EXIT_CODE;
  }
  if (args.mode === 'list-sandboxes') return listSandboxes(args.when);
  if (args.mode === 'own') return verifyOwn(args.apis, args.playwright);
  // A states file that is not there, or does not load, is the caller's to fix before any request. Before a broker
  // hears of a failure, it is loaded here; with --pact, while the verification process starts (verifyPlan).
  if (args.statesFile) {
    try {
      args = { ...args, statesFile: statesPath(args.statesFile) };
    } catch (error) {
      if (!(error instanceof PactSourceError)) throw error;
      console.error(`${prefix()}: ${error.message}`);
      return USAGE_EXIT_CODE;
    }
  }

  if (args.mode === 'broker') return (await statesLoad(args)) ? verifyFromBroker(args, processEnv()) : USAGE_EXIT_CODE;

  let pacts: OutsidePact[];
  try {
    // A file named twice (a file and its directory) is verified once.
    const files = [...new Set(args.pacts.flatMap((source) => pactFilesIn(source)))];
    pacts = files.map((file) => outsidePact(file, args.provider));
  } catch (error) {
    if (!(error instanceof PactSourceError)) throw error;
    console.error(`${prefix()}: ${error.message}`);
    return USAGE_EXIT_CODE;
  }
  const config = announce(
    `${prefix()}: ${pacts.map((p) => `${relative(callerDir(), p.path)} (${p.consumer} → ${p.provider}, the ${p.api} API)`).join(', ')}, with Pact's Verifier,`,
  );
  if (!config) return USAGE_EXIT_CODE;
  try {
    checkSandbox(args.sandbox);
  } catch (error) {
    if (!(error instanceof PactSourceError)) throw error;
    console.error(`${prefix()}: ${error.message}`);
    return USAGE_EXIT_CODE;
  }
  const chosen = withUniqueTitles(pacts).filter((pact) => inSandbox(pact, args.sandbox));
  if (chosen.length === 0) {
    console.log(`${prefix()}: nothing to verify in the sandbox ${args.sandbox}: none of the ${pacts.length} pact(s) given is verified against it.`);
    return 0;
  }
  return verifyOutside(chosen, args, runName() ?? `pact-verify-outside-${config.target}${args.sandbox ? `-${args.sandbox}` : ''}`);
}

if (import.meta.main) {
  // From a checkout: the verification process and its lanes start from V8's compile cache, as the gate's processes do
  // (npm run pact:verify has it on from the start: src/config/compileCacheHook.mjs).
  useCompileCache();
  process.exit(await pactVerifyCommand(process.argv.slice(2)));
}
