/**
 * `npm run pact:publish` and `npm run pact:can-i-deploy`: the deploy gate.
 *   publish       sends every pact in contracts/pacts to the Pact Broker as this commit's version;
 *   can-i-deploy  asks the broker whether both consumers at this version may go to PACT_ENVIRONMENT.
 *                 Its exit code is the answer (0 deploy, non-zero do not), so CI can block on it.
 * Runs Pact's own broker client (the Rust binary of @pact-foundation/pact-cli). Credentials reach it
 * only through its environment: never on its command line, never printed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONSUMERS, PACT_DIR } from '../contracts/pactNames.ts';
import { processEnv } from '../src/config/env.ts';

/** The repository root: git, the pact directory and the broker client all run from here, whatever the cwd. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DEFAULT_PACT_DIR = PACT_DIR;
export { CONSUMERS };
export const SUBCOMMANDS = ['publish', 'can-i-deploy'] as const;
export type Subcommand = (typeof SUBCOMMANDS)[number];

/** Exit code for a configuration problem (nothing was sent); 1 stays the broker client's "no". */
export const CONFIG_EXIT_CODE = 2;

/** A setting that is missing or wrong; the message says which and how to fix it. */
export class PactBrokerConfigError extends Error {
  override name = 'PactBrokerConfigError';
}

/** Runs git with these arguments: its trimmed stdout, or undefined when git is missing or fails. */
export type Git = (args: string[]) => string | undefined;

export function systemGit(cwd: string = ROOT): Git {
  return (args) => {
    const result = spawnSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return result.status === 0 ? result.stdout.trim() : undefined;
  };
}

export interface BrokerCommand {
  subcommand: Subcommand;
  /** Arguments of `pact-broker`: safe to print, they never hold a credential. */
  args: string[];
  /** The broker client's whole environment: the broker URL and credentials travel here. */
  env: NodeJS.ProcessEnv;
  brokerUrl: string;
  auth: 'bearer token' | 'basic auth' | 'no credentials';
  version: string;
  /** Directory of the pact files, relative to ROOT or absolute. */
  pactDir: string;
  /** Whom can-i-deploy asks about. */
  pacticipants: readonly string[];
}

export const USAGE = `Usage: node scripts/pactBroker.ts <publish|can-i-deploy>
  (npm run pact:publish, npm run pact:can-i-deploy)

  publish        publish every pact in ${DEFAULT_PACT_DIR} to the Pact Broker as this commit's version
  can-i-deploy   ask the broker whether ${CONSUMERS.join(' and ')} at this version may be deployed;
                 exit 0: deploy; 1: do not (or the broker could not answer); 2: configuration error
  can-i-deploy --pacticipant <name> --version <v> [--pacticipant … --version …] [--to-environment <env>]
                 the same question about a team's own consumer (its pacts verified by npm run pact:verify -- --broker)

Configured by environment variables:
  PACT_BROKER_BASE_URL       the broker, http(s)://… (required)
  PACT_BROKER_TOKEN          bearer token, or
  PACT_BROKER_USERNAME/_PASSWORD  basic auth (credentials go to the broker client's environment only)
  PACT_CONSUMER_VERSION      default: git rev-parse --short=12 HEAD, plus -dirty when the tree has changes
  PACT_BRANCH                default: the current git branch (publish)
  BUILD_URL                  link to the CI build (publish); on GitHub Actions taken from GITHUB_* variables
  PACT_ENVIRONMENT           target environment of can-i-deploy, default production
  PACT_RETRY_WHILE_UNKNOWN   can-i-deploy: times to re-ask while a verification is still missing
  PACT_RETRY_INTERVAL        can-i-deploy: seconds between those re-asks
  PACT_DIR                   pact directory (relative to the repository root), default ${DEFAULT_PACT_DIR}
  PACT_BROKER_CAN_I_DEPLOY_DRY_RUN=true  break glass: can-i-deploy reports but always exits 0`;

/** Shown when no broker is configured: the gate cannot answer, but the pacts are still checked locally. */
export function noBrokerMessage(subcommand: Subcommand): string {
  const what =
    subcommand === 'publish'
      ? `publishes the pacts in ${DEFAULT_PACT_DIR} (consumers ${CONSUMERS.join(', ')}) to a Pact Broker`
      : `asks a Pact Broker whether ${CONSUMERS.join(' and ')} at this version can be deployed`;
  return [
    `pact:${subcommand}: PACT_BROKER_BASE_URL is not set, so nothing was run.`,
    `This command ${what}; it needs a broker (a self-hosted Pact Broker or PactFlow).`,
    'Set:',
    '  PACT_BROKER_BASE_URL=https://your-broker.example.com',
    '  PACT_BROKER_TOKEN=…   (or PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD)',
    "Without a broker nothing is shared, but pacts are still verified locally: the harness's own by `npm test`, a team's by",
    '`npx api-contract-harness pact-verify --pact ./pacts` in its own repository (docs/team-ci.md).',
  ].join('\n');
}

/** `VAR` trimmed; empty counts as unset (CI systems often pass an unset secret as ""). */
function setting(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function fail(message: string): never {
  throw new PactBrokerConfigError(message);
}

/** The broker's base URL, validated; the value is echoed only once it is known to hold no credentials. */
export function brokerUrl(subcommand: Subcommand, env: NodeJS.ProcessEnv): string {
  const raw = setting(env, 'PACT_BROKER_BASE_URL');
  if (raw === undefined) fail(noBrokerMessage(subcommand));
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    fail("PACT_BROKER_BASE_URL is not a valid URL: set it to the broker's base URL, e.g. https://your-broker.example.com");
  }
  if (url.username || url.password) {
    fail(
      'PACT_BROKER_BASE_URL holds credentials (user:password@): take them out and set PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD (or PACT_BROKER_TOKEN) instead.',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    fail(`PACT_BROKER_BASE_URL must be an http or https URL, not ${url.protocol} (${raw}): set it to e.g. https://your-broker.example.com`);
  }
  return raw.replace(/\/+$/, '');
}

/** The credentials as the broker client reads them from its environment; at most one kind. */
export function brokerAuth(env: NodeJS.ProcessEnv): { auth: BrokerCommand['auth']; vars: Record<string, string> } {
  const token = setting(env, 'PACT_BROKER_TOKEN');
  const username = setting(env, 'PACT_BROKER_USERNAME');
  const password = setting(env, 'PACT_BROKER_PASSWORD');
  if (token && (username || password)) {
    fail(
      'Both PACT_BROKER_TOKEN and PACT_BROKER_USERNAME/PACT_BROKER_PASSWORD are set: set only one kind of credentials (a token for PactFlow, basic auth for a self-hosted broker).',
    );
  }
  if (token) return { auth: 'bearer token', vars: { PACT_BROKER_TOKEN: token } };
  if (username && password) return { auth: 'basic auth', vars: { PACT_BROKER_USERNAME: username, PACT_BROKER_PASSWORD: password } };
  if (username || password) {
    fail(`PACT_BROKER_${username ? 'PASSWORD' : 'USERNAME'} is missing: basic auth needs both PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD.`);
  }
  return { auth: 'no credentials', vars: {} };
}

/**
 * The consumer version: PACT_CONSUMER_VERSION, else the commit, with `-dirty` when the working tree
 * has changes, so pacts written from uncommitted code are never published as a commit they are not.
 */
export function consumerVersion(env: NodeJS.ProcessEnv, git: Git): string {
  const explicit = setting(env, 'PACT_CONSUMER_VERSION');
  if (explicit) return explicit;
  const head = git(['rev-parse', '--short=12', 'HEAD']);
  const status = head === undefined ? undefined : git(['status', '--porcelain']);
  if (head === undefined || status === undefined) {
    fail(
      'Cannot tell the consumer version: `git rev-parse HEAD` or `git status` failed (git is not installed, or this is not a git checkout with a commit). ' +
        'Fix: run from a git checkout, or set PACT_CONSUMER_VERSION to the version being deployed (e.g. the commit SHA).',
    );
  }
  return status === '' ? head : `${head}-dirty`;
}

/** The consumer version's branch: PACT_BRANCH, else the checked-out git branch. */
export function consumerBranch(env: NodeJS.ProcessEnv, git: Git): string {
  const explicit = setting(env, 'PACT_BRANCH');
  if (explicit) return explicit;
  const branch = git(['rev-parse', '--abbrev-ref', 'HEAD']);
  if (branch === undefined) {
    fail('Cannot tell the branch: `git rev-parse --abbrev-ref HEAD` failed (no git, or not a git checkout). Fix: set PACT_BRANCH to the branch being built.');
  }
  if (branch === 'HEAD') {
    fail(
      'Cannot tell the branch: HEAD is detached (as in most CI checkouts of a pull request), so git names none. ' +
        'Fix: set PACT_BRANCH, e.g. PACT_BRANCH=${{ github.head_ref || github.ref_name }} on GitHub Actions.',
    );
  }
  return branch;
}

/** The CI build that produced the pacts: BUILD_URL (Jenkins and others), else the GitHub Actions run. */
export function buildUrl(env: NodeJS.ProcessEnv): string | undefined {
  const explicit = setting(env, 'BUILD_URL');
  if (explicit) return explicit;
  const server = setting(env, 'GITHUB_SERVER_URL');
  const repository = setting(env, 'GITHUB_REPOSITORY');
  const runId = setting(env, 'GITHUB_RUN_ID');
  return server && repository && runId ? `${server}/${repository}/actions/runs/${runId}` : undefined;
}

function count(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = setting(env, name);
  if (value !== undefined && !/^\d+$/.test(value)) fail(`${name} must be a whole number, not "${value}".`);
  return value;
}

const BROKER_VARIABLES = ['PACT_BROKER_BASE_URL', 'PACT_BROKER_TOKEN', 'PACT_BROKER_USERNAME', 'PACT_BROKER_PASSWORD'];

/** can-i-deploy about named pacticipants (a team's consumer) rather than this repository's. */
export interface CanIDeployTarget {
  readonly pacticipants: readonly { readonly name: string; readonly version: string }[];
  readonly environment?: string;
}

/**
 * can-i-deploy's own arguments: --pacticipant/--version pairs and --to-environment. An argument it does not
 * know is refused without being echoed (it may be a secret pasted in the wrong place).
 */
export function parseCanIDeployArgs(args: readonly string[]): CanIDeployTarget {
  const pacticipants: { name: string; version: string }[] = [];
  let environment: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const flag = args[i]!;
    const value = args[i + 1];
    if (value === undefined || value.startsWith('--') || !['--pacticipant', '--version', '--to-environment'].includes(flag)) {
      fail(
        `can-i-deploy takes --pacticipant <name> --version <v> (as pairs) and --to-environment <env>; argument ${i + 1} is not one of them (it is not echoed: it may be a secret).\n\n${USAGE}`,
      );
    }
    i += 1;
    if (flag === '--pacticipant') pacticipants.push({ name: value, version: '' });
    else if (flag === '--to-environment') environment = value;
    else {
      const last = pacticipants.at(-1);
      if (!last || last.version) fail('can-i-deploy: each --version follows its --pacticipant: --pacticipant <name> --version <v>.');
      last.version = value;
    }
  }
  const unversioned = pacticipants.find((p) => !p.version);
  if (unversioned) fail(`can-i-deploy: --pacticipant ${unversioned.name} has no --version: add --version <the version to deploy>.`);
  return { pacticipants, ...(environment ? { environment } : {}) };
}

/**
 * What to run for `subcommand`: the broker client's arguments and environment. Pure (git is passed
 * in); throws PactBrokerConfigError, naming the fix, when a setting is missing or wrong. `target` names
 * a team's own pacticipants for can-i-deploy.
 */
export function brokerCommand(subcommand: string, env: NodeJS.ProcessEnv, git: Git, target: CanIDeployTarget = { pacticipants: [] }): BrokerCommand {
  if (!(SUBCOMMANDS as readonly string[]).includes(subcommand)) fail(`Unknown subcommand "${subcommand}".\n\n${USAGE}`);
  const sub = subcommand as Subcommand;
  const url = brokerUrl(sub, env);
  const { auth, vars } = brokerAuth(env);
  const named = sub === 'can-i-deploy' && target.pacticipants.length > 0;
  const version = named ? target.pacticipants.map((p) => p.version).join(', ') : consumerVersion(env, git);
  const pactDir = setting(env, 'PACT_DIR') ?? DEFAULT_PACT_DIR;

  const args = sub === 'publish' ? publishArgs(env, git, pactDir, version) : canIDeployArgs(env, named ? target : undefined, version, target.environment);
  return {
    subcommand: sub,
    args,
    env: clientEnv(env, url, vars),
    brokerUrl: url,
    auth,
    version,
    pactDir,
    pacticipants: named ? target.pacticipants.map((p) => p.name) : [...CONSUMERS],
  };
}

function publishArgs(env: NodeJS.ProcessEnv, git: Git, pactDir: string, version: string): string[] {
  const build = buildUrl(env);
  return ['publish', pactDir, '--consumer-app-version', version, '--branch', consumerBranch(env, git), ...(build ? ['--build-url', build] : [])];
}

/** `named`: the team's own pacticipants, each at its version; otherwise this harness's consumers at `version`. */
function canIDeployArgs(env: NodeJS.ProcessEnv, named: CanIDeployTarget | undefined, version: string, environment: string | undefined): string[] {
  const retries = count(env, 'PACT_RETRY_WHILE_UNKNOWN');
  const interval = count(env, 'PACT_RETRY_INTERVAL');
  return [
    'can-i-deploy',
    ...(named
      ? named.pacticipants.flatMap((p) => ['--pacticipant', p.name, '--version', p.version])
      : CONSUMERS.flatMap((consumer) => ['--pacticipant', consumer, '--version', version])),
    '--to-environment',
    environment ?? setting(env, 'PACT_ENVIRONMENT') ?? 'production',
    ...(retries ? ['--retry-while-unknown', retries] : []),
    ...(retries && interval ? ['--retry-interval', interval] : []),
  ];
}

/**
 * The client's environment: a copy without any broker variable, so only the validated ones (not an empty
 * PACT_BROKER_TOKEN="" left in the environment) reach the client.
 */
function clientEnv(env: NodeJS.ProcessEnv, url: string, vars: Record<string, string>): NodeJS.ProcessEnv {
  const childEnv: NodeJS.ProcessEnv = { ...env };
  for (const name of BROKER_VARIABLES) delete childEnv[name];
  Object.assign(childEnv, { PACT_BROKER_BASE_URL: url, ...vars, PACT_DO_NOT_TRACK: 'true' });
  return childEnv;
}

/** The pact files `publish` would send: *.json directly in `dir` (none when it does not exist). */
export function pactFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .sort();
  } catch {
    return [];
  }
}

/** The broker client binary for this platform, from the platform package that pact-cli installs. */
export function pactBinary(): string {
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  const pkg = `@pact-foundation/pact-cli-${os}-${process.arch}`;
  try {
    const require = createRequire(createRequire(import.meta.url).resolve('@pact-foundation/pact-cli/package.json'));
    return join(dirname(require.resolve(`${pkg}/package.json`)), 'standalone', os === 'windows' ? 'pact.exe' : 'pact');
  } catch {
    throw new PactBrokerConfigError(`The Pact CLI is not installed for ${os}-${process.arch} (${pkg} not found): run npm ci.`);
  }
}

/** A shell-like rendering of the command, for the log only: arguments never hold a secret. */
export function printable(args: string[]): string {
  return ['pact-broker', ...args].map((arg) => (/^[\w./:=@%+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** Credentials over plain http to anything but this machine: allowed (an in-cluster broker), but said. */
export function sendsCredentialsInClear(command: BrokerCommand): boolean {
  const url = new URL(command.brokerUrl);
  return command.auth !== 'no credentials' && url.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

function run(binary: string, command: BrokerCommand): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(binary, ['broker', ...command.args], { cwd: ROOT, stdio: 'inherit', env: command.env });
    child.on('error', (error) => {
      console.error(`pact:${command.subcommand}: could not start the Pact CLI at ${binary} (${error.message}): run npm ci.`);
      resolve(CONFIG_EXIT_CODE);
    });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

export async function main(argv: string[], env: NodeJS.ProcessEnv = processEnv()): Promise<number> {
  const [subcommand, ...rest] = argv;
  if (subcommand === '--help' || subcommand === '-h' || subcommand === 'help' || rest.includes('--help')) {
    console.log(USAGE);
    return 0;
  }
  if (subcommand === undefined || (rest.length > 0 && subcommand !== 'can-i-deploy')) {
    console.error(
      subcommand === undefined
        ? USAGE
        : `pact:${subcommand} takes no arguments (they are not echoed: one may be a secret); it is configured by environment variables.\n\n${USAGE}`,
    );
    return CONFIG_EXIT_CODE;
  }

  const prepared = prepare(subcommand, rest, env);
  if (typeof prepared === 'number') return prepared;
  const { command, binary, files } = prepared;
  announce(command, files);
  const code = await run(binary, command);
  reportOutcome(command, code);
  return code;
}

/** The command, the client binary and (for publish) the files to send; the exit code when a setting is wrong (printed). */
function prepare(subcommand: string, rest: string[], env: NodeJS.ProcessEnv): { command: BrokerCommand; binary: string; files: string[] } | number {
  try {
    const target = subcommand === 'can-i-deploy' ? parseCanIDeployArgs(rest) : undefined;
    const command = brokerCommand(subcommand, env, systemGit(), target);
    const binary = pactBinary();
    let files: string[] = [];
    if (command.subcommand === 'publish') {
      files = pactFiles(resolve(ROOT, command.pactDir));
      if (files.length === 0) fail(`No pact files (*.json) in ${command.pactDir}: the consumer tests write them. Run npm test first.`);
    }
    return { command, binary, files };
  } catch (error) {
    if (!(error instanceof PactBrokerConfigError)) throw error;
    console.error(error.message);
    return CONFIG_EXIT_CODE;
  }
}

/** What is about to be asked of which broker, a warning for credentials in clear, and the command line. */
function announce(command: BrokerCommand, files: readonly string[]): void {
  const target = `${command.brokerUrl} (${command.auth})`;
  if (command.subcommand === 'publish') {
    console.log(`pact:publish: ${files.length} pact files from ${command.pactDir} (${files.join(', ')}) as version ${command.version} to ${target}`);
  } else {
    console.log(`pact:can-i-deploy: may ${command.pacticipants.join(' and ')} at version ${command.version} be deployed? asking ${target}`);
  }
  if (sendsCredentialsInClear(command)) {
    console.warn(`pact:${command.subcommand}: warning: the credentials go over plain http to ${command.brokerUrl}; use https.`);
  }
  console.log(`$ ${printable(command.args)}`);
}

function reportOutcome(command: BrokerCommand, code: number): void {
  if (command.subcommand === 'publish') {
    console.log(
      code === 0
        ? `pact:publish: published as version ${command.version}`
        : `pact:publish: failed (exit ${code}): see the broker client's output above; publishing again is safe (a pact for the same version is overwritten).`,
    );
  } else {
    console.log(
      code === 0
        ? `pact:can-i-deploy: yes, version ${command.version} can be deployed`
        : `pact:can-i-deploy: NO (exit ${code}): do not deploy version ${command.version}; the reasons are above.`,
    );
  }
}

if (import.meta.main) process.exit(await main(process.argv.slice(2)));
