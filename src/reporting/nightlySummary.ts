/**
 * The nightly's "who tonight's breaks affect", for its run summary and its
 * Allure report: the contract and reliance rules npm run verify failed on live
 * (its reports/verify/affected-consumers.json), the contract breaks npm run
 * drift found (reports/drift/drift.json), judged against every pact verified
 * tonight (the harness's own, the examples', and the teams' the broker
 * selected, with tonight's verdicts of all of them). The teams' pacts are
 * verified in one job per sandbox: --plan and --outcomes repeat, one of each
 * per job. Any input may be missing (a step or job that did not run): the
 * summary says what it had.
 *
 *   node src/reporting/nightlySummary.ts [--verify <json>] [--drift <json>] [--plan <broker run's plan.json> …]
 *     [--outcomes <broker run's outcomes dir> …] [--pacts <file|dir> …] [--allure <allure-results dir>]
 *
 * Prints Markdown; with --allure, also puts each failed rule's list on its failed results there.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  affectedConsumers,
  affectedMarkdown,
  consumerOfPactTitle,
  PACT_SOURCES,
  readConsumerPacts,
  type Affected,
  type Break,
  type InteractionVerdict,
} from './affectedConsumers.ts';
import { amendAllureResults } from './affectedAllure.ts';
import { breakOfRule, breaksOfDrift, type DriftLike } from './ruleConcerns.ts';

export interface NightlyInputs {
  readonly verify?: string;
  readonly drift?: string;
  readonly plans?: readonly string[];
  readonly outcomes?: readonly string[];
  readonly pacts?: readonly string[];
  readonly allure?: string;
}

/** One interaction's outcome, as a broker run's tests write them (contracts/broker/verificationResults.ts). */
interface Outcome {
  readonly pact: string;
  readonly description: string;
  readonly status: 'passed' | 'failed' | 'skipped';
  readonly reason?: string;
}

function readJson<T>(path: string | undefined): T | undefined {
  if (!path || !existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

function outcomesIn(dirs: readonly string[]): Outcome[] {
  return dirs
    .filter((dir) => existsSync(dir))
    .flatMap((dir) =>
      readdirSync(dir)
        .filter((name) => name.endsWith('.json'))
        .flatMap((name) => readJson<Outcome>(join(dir, name)) ?? []),
    )
    .sort((a, b) => a.pact.localeCompare(b.pact) || a.description.localeCompare(b.description));
}

/**
 * A plan's pact files. A plan names them where its job wrote them; copied elsewhere (a job's artifact, downloaded
 * by the merge), each is found under the plan's folder by the end of that path (broker/<file>).
 */
function pactsOfPlan(plan: string): { count: number; paths: string[] } | undefined {
  const read = readJson<{ pacts?: { path: string }[] }>(plan);
  if (!read) return undefined;
  const paths = (read.pacts ?? []).map(({ path }) => {
    if (existsSync(path)) return path;
    const parts = path.split(/[\\/]/);
    for (let n = Math.min(parts.length - 1, 3); n >= 1; n--) {
      const moved = join(dirname(plan), ...parts.slice(-n));
      if (existsSync(moved)) return moved;
    }
    return path;
  });
  return { count: paths.length, paths };
}

/** The summary's parts: what broke, whom it affects, and how each team's pact came out tonight. */
export function nightlySummary(inputs: NightlyInputs): { markdown: string; affected: Affected[] } {
  const verify = readJson<{ breaks?: Break[]; verdicts?: InteractionVerdict[] }>(inputs.verify);
  const drift = readJson<DriftLike>(inputs.drift);
  const plans = (inputs.plans ?? []).flatMap((plan) => pactsOfPlan(plan) ?? []);
  const outcomes = outcomesIn(inputs.outcomes ?? []);
  // The concerns are the catalogue's, not the JSON's (a pattern does not survive JSON).
  const breaks = [
    ...(verify?.breaks ?? []).flatMap((b) => breakOfRule(b.id, b.failingRequests ?? [], b.summary) ?? []),
    ...(drift ? breaksOfDrift(drift) : []),
  ];
  const verdicts = [
    ...(verify?.verdicts ?? []),
    ...outcomes.map((o) => ({
      consumer: consumerOfPactTitle(o.pact),
      description: o.description,
      status: o.status,
      ...(o.reason ? { reason: o.reason } : {}),
    })),
  ];
  const pacts = readConsumerPacts([...PACT_SOURCES, ...plans.flatMap((plan) => plan.paths), ...(inputs.pacts ?? [])]);
  const affected = affectedConsumers(breaks, pacts, verdicts);
  if (inputs.allure) amendAllureResults(inputs.allure, affected, { when: 'tonight' });

  const had = [
    verify ? 'npm run verify' : 'no npm run verify result',
    drift ? 'npm run drift' : 'no drift report',
    plans.length > 0
      ? `the broker's ${plans.reduce((sum, plan) => sum + plan.count, 0)} pact(s)${plans.length > 1 ? ` from ${plans.length} runs` : ''}`
      : "no broker run's plan",
  ];
  const lines = [affectedMarkdown(affected, "## Who tonight's breaks affect").trimEnd(), '', `From ${had.join(', ')}.`, ''];
  lines.push(...teamTable(outcomes));
  return { markdown: `${lines.join('\n').trimEnd()}\n`, affected };
}

/** Each broker pact verified tonight: its interactions verified, failed, and skipped (not verified). */
function teamTable(outcomes: readonly Outcome[]): string[] {
  if (outcomes.length === 0) return [];
  const byPact = new Map<string, Outcome[]>();
  for (const outcome of outcomes) byPact.set(outcome.pact, [...(byPact.get(outcome.pact) ?? []), outcome]);
  const count = (list: Outcome[], status: Outcome['status']) => list.filter((o) => o.status === status).length;
  return [
    "## Teams' pacts verified against live tonight (published to the broker)",
    '',
    '| Pact | Verified | Failed | Skipped: not verified | Published as |',
    '| --- | ---: | ---: | ---: | --- |',
    ...[...byPact].map(([pact, list]) => {
      const verdict = list.every((o) => o.status === 'passed') ? 'success' : 'failure';
      return `| ${pact.replace(/\|/g, '\\|')} | ${count(list, 'passed')} | ${count(list, 'failed')} | ${count(list, 'skipped')} | ${verdict} |`;
    }),
    '',
  ];
}

/** The command line: each flag takes a value; --plan, --outcomes and --pacts may repeat. */
export function parseNightlyArgs(argv: readonly string[]): NightlyInputs {
  const inputs: { -readonly [K in keyof NightlyInputs]: NightlyInputs[K] } = {};
  const plans: string[] = [];
  const outcomes: string[] = [];
  const pacts: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) throw new Error(`nightlySummary: ${flag} needs a value (a path).`);
    i += 1;
    if (flag === '--verify') inputs.verify = value;
    else if (flag === '--drift') inputs.drift = value;
    else if (flag === '--plan') plans.push(value);
    else if (flag === '--outcomes') outcomes.push(value);
    else if (flag === '--allure') inputs.allure = value;
    else if (flag === '--pacts') pacts.push(value);
    else throw new Error(`nightlySummary: unknown option ${flag}: give --verify, --drift, --plan, --outcomes, --pacts or --allure, each with a path.`);
  }
  return {
    ...inputs,
    ...(plans.length > 0 ? { plans } : {}),
    ...(outcomes.length > 0 ? { outcomes } : {}),
    ...(pacts.length > 0 ? { pacts } : {}),
  };
}

if (import.meta.main) {
  try {
    process.stdout.write(nightlySummary(parseNightlyArgs(process.argv.slice(2))).markdown);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  }
}
