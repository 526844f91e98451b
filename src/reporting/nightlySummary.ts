/**
 * The nightly's "who tonight's breaks affect", for its run summary and its
 * Allure report: the contract and reliance rules npm run verify failed on live
 * (its reports/verify/affected-consumers.json), the contract breaks npm run
 * drift found (reports/drift/drift.json), judged against every pact verified
 * tonight (the harness's own, the examples', and the teams' the broker
 * selected, with tonight's verdicts of all of them). Any input may be missing
 * (a step that did not run): the summary says what it had.
 *
 *   node src/reporting/nightlySummary.ts [--verify <json>] [--drift <json>] [--plan <broker run's plan.json>]
 *     [--outcomes <broker run's outcomes dir>] [--pacts <file|dir> …] [--allure <allure-results dir>]
 *
 * Prints Markdown; with --allure, also puts each failed rule's list on its failed results there.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
  readonly plan?: string;
  readonly outcomes?: string;
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

function outcomesIn(dir: string | undefined): Outcome[] {
  if (!dir || !existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => readJson<Outcome>(join(dir, name)) ?? [])
    .sort((a, b) => a.pact.localeCompare(b.pact) || a.description.localeCompare(b.description));
}

/** The summary's parts: what broke, whom it affects, and how each team's pact came out tonight. */
export function nightlySummary(inputs: NightlyInputs): { markdown: string; affected: Affected[] } {
  const verify = readJson<{ breaks?: Break[]; verdicts?: InteractionVerdict[] }>(inputs.verify);
  const drift = readJson<DriftLike>(inputs.drift);
  const plan = readJson<{ pacts?: { path: string }[] }>(inputs.plan);
  const outcomes = outcomesIn(inputs.outcomes);
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
  const pacts = readConsumerPacts([...PACT_SOURCES, ...(plan?.pacts ?? []).map((p) => p.path), ...(inputs.pacts ?? [])]);
  const affected = affectedConsumers(breaks, pacts, verdicts);
  if (inputs.allure) amendAllureResults(inputs.allure, affected, { when: 'tonight' });

  const had = [
    verify ? 'npm run verify' : 'no npm run verify result',
    drift ? 'npm run drift' : 'no drift report',
    plan ? `the broker's ${plan.pacts?.length ?? 0} pact(s)` : "no broker run's plan",
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

/** The command line: each flag takes a value; --pacts may repeat. */
export function parseNightlyArgs(argv: readonly string[]): NightlyInputs {
  const inputs: { -readonly [K in keyof NightlyInputs]: NightlyInputs[K] } = {};
  const pacts: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) throw new Error(`nightlySummary: ${flag} needs a value (a path).`);
    i += 1;
    if (flag === '--verify') inputs.verify = value;
    else if (flag === '--drift') inputs.drift = value;
    else if (flag === '--plan') inputs.plan = value;
    else if (flag === '--outcomes') inputs.outcomes = value;
    else if (flag === '--allure') inputs.allure = value;
    else if (flag === '--pacts') pacts.push(value);
    else throw new Error(`nightlySummary: unknown option ${flag}: give --verify, --drift, --plan, --outcomes, --pacts or --allure, each with a path.`);
  }
  return { ...inputs, ...(pacts.length > 0 ? { pacts } : {}) };
}

if (import.meta.main) {
  try {
    process.stdout.write(nightlySummary(parseNightlyArgs(process.argv.slice(2))).markdown);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  }
}
