/**
 * Pacts from outside the harness: a team's own consumer tests wrote them, with
 * their own names. Which API a pact is for is read off its provider name (or
 * given by --provider); what one `npm run pact:verify -- --pact …` run verifies
 * is its plan, written by scripts/pactVerify.ts and read by the Playwright
 * workers (outsidePacts.verify.spec.ts), so nothing travels in the environment.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { reportPath, runName } from '../../src/config/env.ts';
import { OUTSIDE_PACT_SOURCES, OUTSIDE_STATES_FILE } from '../pactNames.ts';
import { sandboxOf, type PactApi } from './sandboxes.ts';
import { parsePact, readPact, type PactDocument, type PactNames } from './pactFile.ts';
import { harnessConfig } from '../../src/config/harnessConfig.ts';

/** A usage problem with what was asked for (exit 2): the message names the fix. */
export class PactSourceError extends Error {
  override name = 'PactSourceError';
}

export interface OutsidePact {
  readonly path: string;
  readonly api: PactApi;
  readonly consumer: string;
  readonly provider: string;
  /** How the report names this pact: `consumer → provider`, with the consumer version when a broker gave it. */
  readonly title: string;
  /** From a broker: the pact's own links (pb:publish-verification-results), for the results. */
  readonly broker?: { readonly pactUrl: string; readonly publishUrl?: string; readonly providerUrl?: string };
}

export interface VerificationPlan {
  readonly pacts: readonly OutsidePact[];
  /** A team's states file (--states), loaded by each worker. */
  readonly statesFile?: string;
}

/** Provider names → API: any name that says store (or commerce), or media (or kitsu, anime, manga). */
export function apiOfProvider(provider: string): PactApi | undefined {
  const name = provider.toLowerCase();
  const store = /store|commerce|tiendanube|nuvemshop/.test(name);
  const media = /media|kitsu|anime|manga/.test(name);
  return store === media ? undefined : store ? 'store' : 'media';
}

/** The pact files a --pact argument names: the file, or the *.json directly in the directory. */
export function pactFilesIn(source: string): string[] {
  const path = resolve(source);
  if (!existsSync(path))
    throw new PactSourceError(`--pact ${source}: no such file or directory (looked for ${path}). Give a pact file (*.json) or a directory of them.`);
  if (!statSync(path).isDirectory()) return [path];
  const files = readdirSync(path)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => join(path, name));
  if (files.length === 0) throw new PactSourceError(`--pact ${source}: the directory ${path} holds no *.json pact file.`);
  return files;
}

/**
 * Reads one pact file for the plan: a pact of any version Pact's verifier reads, for an API its provider name (or
 * `override`) says. `content`: the file's pact, already in hand (what a broker served, just written there).
 */
export function outsidePact(path: string, override?: PactApi, broker?: OutsidePact['broker'], version?: string, content?: unknown): OutsidePact {
  let pact;
  try {
    pact = parsePact(content ?? (JSON.parse(readFileSync(path, 'utf8')) as unknown), path, 'team');
  } catch (error) {
    throw new PactSourceError(`${path} is not a pact this harness can verify: ${error instanceof Error ? error.message : String(error)}`);
  }
  const provider = pact.provider?.name ?? '';
  const consumer = pact.consumer?.name ?? basename(path, '.json');
  const api = override ?? apiOfProvider(provider);
  if (!api) {
    throw new PactSourceError(
      `${path}: cannot tell from the provider name "${provider}" whether the pact is for the Store or the Media API. Fix: add --provider store or --provider media.`,
    );
  }
  return { path, api, consumer, provider, title: `${consumer}${version ? ` ${version}` : ''} → ${provider}`, ...(broker ? { broker } : {}) };
}

/** The names Pact's files go by for an outside pact: its own file, wherever it is. */
export function outsidePactNames(pact: OutsidePact): PactNames {
  return { consumer: pact.consumer, provider: pact.provider, dir: dirname(pact.path), path: pact.path };
}

/** A plan's sandboxes, each its pacts (by their place in the plan) in order, and each pact as read. */
export interface PlanSandboxes {
  readonly read: readonly PactDocument[];
  readonly sandboxes: readonly { readonly sandbox: string; readonly pacts: readonly number[] }[];
}

/**
 * The plan's pacts by sandbox. On a live store each sandbox (a team's own app, or the harness's) has a bucket of its
 * own: its pacts are verified in order, beside the other sandboxes'; the run takes as long as its busiest bucket, not
 * the sum of them. Off live, one sandbox. Each pact is read first, as the file is now: the console says how many
 * interactions before the first verdict.
 */
export function planSandboxes(plan: VerificationPlan): PlanSandboxes {
  const read = plan.pacts.map((pact) => readPact(outsidePactNames(pact)));
  const target = harnessConfig().target;
  const bySandbox = Map.groupBy(
    plan.pacts.map((pact, n) => ({ pact, n })),
    ({ pact }) => (target === 'live' || target === 'record' ? sandboxOf(pact.api, pact.consumer).label : 'one'),
  );
  return { read, sandboxes: [...bySandbox].map(([sandbox, group]) => ({ sandbox, pacts: group.map(({ n }) => n) })) };
}

/** Two pacts between the same pair (two files, two versions) get their file name in the title: Playwright needs titles to differ. */
export function withUniqueTitles(pacts: readonly OutsidePact[]): OutsidePact[] {
  const count = new Map<string, number>();
  for (const pact of pacts) count.set(pact.title, (count.get(pact.title) ?? 0) + 1);
  return pacts.map((pact) => ((count.get(pact.title) ?? 0) > 1 ? { ...pact, title: `${pact.title} (${basename(pact.path)})` } : pact));
}

/** Where this run's plan is: one per run name, so runs side by side do not share one. */
export function planPath(run = runName() ?? 'default'): string {
  return resolve(reportPath('pact-verify', run, 'plan.json'));
}

/** Where Pact's own output goes: the report of every interaction, as its Verifier prints it. */
export function outputLogPath(run: string): string {
  return reportPath('pact-verify', run, 'output.log');
}

export function writePlan(plan: VerificationPlan, run?: string): string {
  const path = planPath(run);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify({ ...plan, pacts: withUniqueTitles(plan.pacts) }, null, 2));
  return path;
}

/**
 * This run's plan: the one pact:verify wrote, else what npm test verifies through the same entry point (the
 * examples' pacts and the held-out pacts of other consumers, OUTSIDE_PACT_SOURCES, with the examples' team states).
 */
export function readPlan(run?: string): VerificationPlan {
  const path = planPath(run);
  if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8')) as VerificationPlan;
  return {
    pacts: withUniqueTitles(OUTSIDE_PACT_SOURCES.filter((dir) => existsSync(dir)).flatMap((dir) => pactFilesIn(dir).map((file) => outsidePact(file)))),
    statesFile: OUTSIDE_STATES_FILE,
  };
}
