#!/usr/bin/env node
/**
 * `npx api-contract-harness <command>`: the harness from a team's own project. Paths are read from the
 * caller's folder and checked before anything runs; reports go to ./reports/api-contract-harness (or
 * --out), recordings to ./recordings/api-contract-harness (or RECORDINGS_DIR), never inside node_modules.
 * The harness then runs from its own folder, as `npm run pact:verify` and `npm run twins` do in a checkout.
 */
import { existsSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { setProcessVariable, variable } from '../src/config/env.ts';
import { dependencyVersion, HARNESS_ROOT } from '../src/config/harnessRoot.ts';

const USAGE_EXIT = 2;
const TARGETS = ['twin', 'replay', 'live', 'record'];

export const CLI_USAGE = `Usage: api-contract-harness <command> [options]

Commands:
  pact-verify --pact <file|dir> [--pact …] [--states <file>] [--provider store|media] [--target <t>] [--out <dir>]
              your consumer's pacts against the target, one verdict per interaction
  pact-verify --broker [selectors] [--provider-name <n>] [--no-publish] [--target <t>] [--out <dir>]
              the pacts a Pact Broker selects (PACT_BROKER_BASE_URL), then the results published
  twins [--host <address>] [--store-port <n>] [--media-port <n>]
              both twins in the foreground (store 127.0.0.1:4010, media 127.0.0.1:4020)
  doctor      checks a live setup in three requests or fewer, before a live run
  webhooks send <event> --to <url> --secret <app secret> [--store-id <n>] [--id <n>]
              one delivery to your handler, signed and posted as the store does; prints its answer
  webhooks check --to <url> --secret <app secret>
              a conformance check of your webhook handler, one verdict line per check
  help [<command>]  this text, or a command's own options

Options of pact-verify:
  --target twin|replay|live|record   what to verify against (default HARNESS_TARGET, else twin)
  --out <dir>          where reports go: JUnit, Allure results, the plan, Pact's full output
                       (default ./reports/api-contract-harness)
  paths are read from the folder you run the command in

Variables:
  HARNESS_TARGET       twin (default), replay, live or record
  RECORDINGS_DIR       where replay reads and record writes (default ./recordings/api-contract-harness)
  STORE_API_URL, STORE_ID, LIVE_STORE_ALLOWLIST, STORE_ACCESS_TOKEN, STORE_USER_AGENT, STORE_ALLOW_WRITES
  KITSU_API_URL, KITSU_ACCESS_TOKEN, KITSU_ALLOW_WRITES, LIVE_REQUEST_BUDGET     the live target
  PACT_BROKER_BASE_URL, PACT_BROKER_TOKEN (or PACT_BROKER_USERNAME/_PASSWORD)    --broker

Exit: 0 verified; 1 a verdict failed; 2 usage or configuration (before any request).`;

class UsageError extends Error {}

/** The options of pact-verify that name a path: read from the caller's folder, so the harness may run from its own. */
const PATH_OPTIONS = new Set(['--pact', '--states']);

/**
 * pact-verify's command line as the harness reads it from its own folder: every path absolute, and each
 * checked here, in the caller's words. --out and --target become variables; the rest passes as it is.
 */
export function pactVerifyArgs(argv: readonly string[], cwd: string): { args: string[]; out: string; target?: string } {
  const args: string[] = [];
  let out = resolve(cwd, 'reports/api-contract-harness');
  let target: string | undefined;
  const split = argv.indexOf('--');
  const own = split === -1 ? argv : argv.slice(0, split);
  for (let i = 0; i < own.length; i++) {
    const arg = own[i]!;
    const value = (): string => {
      const next = own[++i];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`${arg} needs a value.`);
      return next;
    };
    if (arg === '--out') out = resolve(cwd, value());
    else if (arg === '--target') {
      target = value();
      if (!TARGETS.includes(target)) throw new UsageError(`--target is one of ${TARGETS.join(', ')}, not "${target}".`);
    } else if (PATH_OPTIONS.has(arg)) {
      const given = value();
      const path = resolve(cwd, given);
      if (!existsSync(path)) throw new UsageError(`${arg} ${given}: no such file or directory (looked for ${path}).`);
      args.push(arg, path);
    } else args.push(arg);
  }
  if (split !== -1) args.push(...argv.slice(split));
  if (out.split(sep).includes('node_modules')) throw new UsageError(`--out ${out}: give a folder of your project, not one inside node_modules.`);
  return { args, out, ...(target ? { target } : {}) };
}

async function pactVerify(argv: readonly string[]): Promise<number> {
  const cwd = process.cwd();
  const { args, out, target } = pactVerifyArgs(argv, cwd);
  // Read when the harness's modules load: set first, then the harness runs from its own folder.
  setProcessVariable('HARNESS_REPORTS_DIR', out);
  setProcessVariable('RECORDINGS_DIR', resolve(cwd, variable('RECORDINGS_DIR') ?? 'recordings/api-contract-harness'));
  setProcessVariable('HARNESS_CONSOLE', 'pact-verify');
  setProcessVariable('HARNESS_CALLER_DIR', cwd);
  if (target) setProcessVariable('HARNESS_TARGET', target);
  process.chdir(HARNESS_ROOT);
  const { pactVerifyCommand } = await import('./pactVerify.ts');
  return pactVerifyCommand(args);
}

async function twins(argv: readonly string[]): Promise<number> {
  const { runTwins } = await import('../src/twins/main.ts');
  await runTwins(argv);
  return typeof process.exitCode === 'number' ? process.exitCode : 0;
}

async function doctor(argv: readonly string[]): Promise<number> {
  if (argv.length > 0) throw new UsageError(`doctor takes no arguments (it reads the variables), not "${argv.join(' ')}".`);
  const { doctorCommand } = await import('./doctor.ts');
  return doctorCommand();
}

async function webhooks(argv: readonly string[]): Promise<number> {
  const { webhooksCommand } = await import('./webhooks.ts');
  return webhooksCommand(argv);
}

const COMMANDS: Record<string, (argv: readonly string[]) => Promise<number>> = { 'pact-verify': pactVerify, twins, doctor, webhooks };

export async function cli(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    if (rest[0] === 'pact-verify') return pactVerify(['--help']);
    if (rest[0] === 'twins') return twins(['--help']);
    console.log(CLI_USAGE);
    return command === undefined ? USAGE_EXIT : 0;
  }
  if (command === '--version') {
    console.log(`api-contract-harness (Pact ${dependencyVersion('@pact-foundation/pact')}, Playwright ${dependencyVersion('@playwright/test')})`);
    return 0;
  }
  const run = COMMANDS[command];
  try {
    if (!run) throw new UsageError(`unknown command "${command}". The commands are ${Object.keys(COMMANDS).join(', ')}.`);
    if (rest.includes('--help') || rest.includes('-h')) return command === 'doctor' ? (console.log(CLI_USAGE), 0) : await run(['--help']);
    return await run(rest);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`api-contract-harness: ${error.message}\nRun "npx api-contract-harness --help" for the commands and options.`);
    return USAGE_EXIT;
  }
}

if (import.meta.main) process.exitCode = await cli(process.argv.slice(2));
