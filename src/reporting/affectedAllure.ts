/**
 * Who a failed rule affects, in the Allure report:
 * - on each failed test of that rule (its Allure result, as allure-playwright
 *   wrote it: the story label is the rule id, allureMeta.ts), a short list at
 *   the end of its description under the heading "Consumers affected" (each
 *   consumer, its interactions and how they came out), and a label that names
 *   the consumers, which the categories group the failures by (categories.ts);
 * - on the report's front page, a global attachment "Consumers affected by
 *   this run's failures": each consumer with the failed tests that affect it.
 * The heading is where the list starts: a later write (the nightly's summary,
 * with the broker's pacts) replaces everything from it on, so writing again
 * never stacks two lists, and nothing but readable Markdown is left for the
 * report to show.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tonightWords, type Affected } from './affectedConsumers.ts';
import { firstLine } from '../verify/verifySummary.ts';

/** The heading the list starts with, in a failed test's description. */
export const AFFECTED_HEADING = '#### Consumers affected';
/** The label naming the consumers a failed test affects (`store-integration, storefront-menu`). */
export const AFFECTED_LABEL = 'consumers affected';
/** The report's front page summary: a global attachment (Allure's `*-globals.json`) and its Markdown. */
export const AFFECTED_OVERVIEW = "Consumers affected by this run's failures";
/** The label's value when no consumer's pact uses what the failed rule covers. */
export const NO_CONSUMER = 'none';
const OVERVIEW_GLOBALS = 'consumers-affected-globals.json';
const OVERVIEW_SOURCE = 'consumers-affected-attachment.md';

interface AllureResult {
  uuid?: string;
  name?: string;
  status?: string;
  description?: string;
  labels?: { name: string; value: string }[];
}

const RED = new Set(['failed', 'broken']);

/** Text as Markdown shows it: every character that would start markup escaped, on one line. */
export function markdownText(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/([\\`*_[\]{}<>()#+!|~&])/g, '\\$1');
}

/**
 * Adds the consumers each failed rule affects to that rule's failed results in `resultsDir`, and the front page's
 * summary of them; `titles` narrows a rule to the tests that failed (by title) when given; `when` says when the
 * pacts were verified (tonight, in this run). Answers how many results were changed.
 */
export function amendAllureResults(
  resultsDir: string,
  affected: readonly Affected[],
  options: { titles?: ReadonlyMap<string, ReadonlySet<string>>; when?: string } = {},
): number {
  const { titles, when = 'tonight' } = options;
  const byRule = new Map(affected.filter((a) => a.break.kind !== 'drift').map((a) => [a.break.id, a]));
  if (byRule.size === 0 || !existsSync(resultsDir)) return 0;
  let changed = 0;
  for (const [path, result] of redResults(resultsDir)) {
    const rules = (result.labels ?? []).filter((l) => l.name === 'story' && byRule.has(l.value)).map((l) => l.value);
    const mine = rules.filter((rule) => !titles?.get(rule) || titles.get(rule)!.has(result.name ?? ''));
    if (mine.length === 0) continue;
    writeFileSync(
      path,
      JSON.stringify(
        withAffected(
          result,
          mine.map((rule) => byRule.get(rule)!),
          when,
        ),
      ),
    );
    changed += 1;
  }
  writeAffectedOverview(resultsDir);
  return changed;
}

/** The failed and broken results of `resultsDir`, with their paths. */
function redResults(resultsDir: string): [string, AllureResult][] {
  const red: [string, AllureResult][] = [];
  for (const name of readdirSync(resultsDir).filter((n) => n.endsWith('-result.json'))) {
    const path = join(resultsDir, name);
    try {
      const result = JSON.parse(readFileSync(path, 'utf8')) as AllureResult;
      if (RED.has(result.status ?? '')) red.push([path, result]);
    } catch {
      // Not a result Allure could read either.
    }
  }
  return red;
}

/**
 * The list a failed test's page shows: per consumer, each interaction that uses what broke, how it came out and
 * what of the break it uses; a rule's id heads its consumers when the test checks more than one rule.
 */
export function affectedList(affected: readonly Affected[], when = 'tonight'): string {
  const lines = [AFFECTED_HEADING, ''];
  for (const { break: brk, consumers } of affected) {
    if (affected.length > 1) lines.push(`**${markdownText(brk.id)}**`, '');
    if (consumers.length === 0) {
      lines.push("No consumer's pact uses what this rule covers.", '');
      continue;
    }
    for (const { consumer, interactions } of consumers) {
      lines.push(`- **${markdownText(consumer)}**`);
      for (const i of interactions) {
        const why = i.tonight === 'failed' && i.reason ? `: ${firstLine(i.reason).slice(0, 200)}` : '';
        lines.push(`  - “${markdownText(i.description)}”: ${markdownText(`${tonightWords(i, when)}${why}; uses ${i.uses.join(', ')}`)}`);
      }
    }
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** The result with the list at the end of its description (replacing an earlier one) and the consumers' label. */
function withAffected(result: AllureResult, affected: readonly Affected[], when: string): AllureResult {
  const before = (result.description ?? '').split(AFFECTED_HEADING)[0]!.trimEnd();
  const consumers = [...new Set(affected.flatMap((a) => a.consumers.map((c) => c.consumer)))].sort();
  return {
    ...result,
    description: `${before}${before ? '\n\n' : ''}${affectedList(affected, when)}`,
    labels: [
      ...(result.labels ?? []).filter((l) => l.name !== AFFECTED_LABEL),
      { name: AFFECTED_LABEL, value: consumers.length > 0 ? consumers.join(', ') : NO_CONSUMER },
    ],
  };
}

/** The consumers a label names (`none`: no consumer). */
function consumersOf(result: AllureResult): string[] {
  const value = result.labels?.find((l) => l.name === AFFECTED_LABEL)?.value;
  return !value || value === NO_CONSUMER ? [] : value.split(', ');
}

/**
 * The front page's summary, from every failed result of `resultsDir` that names consumers (so the runs that share
 * the folder add up): each consumer, then its failed tests with their rules. Written again each time; removed
 * when no failure affects a consumer.
 */
export function writeAffectedOverview(resultsDir: string): void {
  const byConsumer = new Map<string, { name: string; rules: string[] }[]>();
  for (const [, result] of redResults(resultsDir)) {
    const rules = (result.labels ?? []).filter((l) => l.name === 'story').map((l) => l.value);
    for (const consumer of consumersOf(result)) {
      byConsumer.set(consumer, [...(byConsumer.get(consumer) ?? []), { name: result.name ?? '', rules }]);
    }
  }
  const globals = join(resultsDir, OVERVIEW_GLOBALS);
  const source = join(resultsDir, OVERVIEW_SOURCE);
  if (byConsumer.size === 0) {
    rmSync(globals, { force: true });
    rmSync(source, { force: true });
    return;
  }
  writeFileSync(source, affectedOverview(byConsumer));
  const attachment = { name: AFFECTED_OVERVIEW, source: OVERVIEW_SOURCE, type: 'text/markdown', timestamp: Date.now() };
  writeFileSync(globals, JSON.stringify({ attachments: [attachment], errors: [] }));
}

function affectedOverview(byConsumer: ReadonlyMap<string, readonly { name: string; rules: readonly string[] }[]>): string {
  const lines = [
    `## ${AFFECTED_OVERVIEW}`,
    '',
    `${byConsumer.size} consumer(s) whose pacts use what a failed contract or reliance rule covers. Each failed test's page says which of their interactions, and how they came out; Categories groups the failed tests by the consumers they affect.`,
    '',
  ];
  for (const [consumer, tests] of [...byConsumer].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`### ${markdownText(consumer)}`, '', `${tests.length} failed test(s):`, '');
    for (const { name, rules } of [...tests].sort((a, b) => a.name.localeCompare(b.name))) {
      const unnamed = rules.filter((rule) => !name.startsWith(rule));
      lines.push(`- ${markdownText(name)}${unnamed.length > 0 ? ` (${markdownText(unnamed.join(', '))})` : ''}`);
    }
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
