/**
 * What npm run verify's console says (src/reporters/VerifyReporter.ts), as pure
 * functions of the rules and the outcomes of their tests: a line per area of the
 * spec as it finishes, a table per API at the end, a line per failure. Rules are
 * counted as rule-coverage.md counts them (tallyRules, reasonClass).
 */
import { stripVTControlCharacters } from 'node:util';
import { failsOnEveryTarget, type Rule } from '../rules/Rule.ts';
import { reasonClass, tallyRules, type RuleOutcome } from '../reporting/unverifiedRules.ts';
import { exchangeTitle } from '../reporting/httpAttachments.ts';
import { OBSERVATION } from '../testing/ruleTest.ts';

type Outcomes = Readonly<Record<string, readonly RuleOutcome[]>>;

/** The area of a rule id (`<api>.<area>.<rule>`): `store.pagination`. */
export function areaOf(ruleId: string): string {
  return ruleId.split('.').slice(0, 2).join('.');
}

/** What a set of rules (an area, an API) came to in one run. */
export interface RuleCounts {
  /** Contract and reliance rules: verified, failed, and not verified with the class of the reason, most frequent first. */
  readonly verified: number;
  readonly failed: number;
  readonly notVerified: readonly { readonly id: string; readonly why: string }[];
  /** Rules with an observation: a difference seen on a real provider and reported, not failed (a field-notes rule, or a contract rule's known defect). */
  readonly observations: number;
  /** Field-notes rules: held (asserted on the twins, observed alike on live) and failed. */
  readonly fieldNotesHeld: number;
  readonly fieldNotesFailed: number;
}

const FAILED = new Set(['failed', 'timedOut', 'interrupted']);

/** Counts `rules` from their tests' outcomes; a rule none of whose tests ran is "no test ran", one whose every test ended in an observation is "observation". */
export function countRules(rules: readonly Rule[], outcomes: Outcomes): RuleCounts {
  const tally = tallyRules(rules, outcomes);
  const notVerified = tally.unverified.map(({ rule, reason }) => {
    const tests = outcomes[rule.id] ?? [];
    const why = tests.length === 0 ? 'no test ran' : tests.every((t) => t.status === OBSERVATION) ? OBSERVATION : reasonClass(reason);
    return { id: rule.id, why };
  });
  const fieldNotes = rules.filter((rule) => !failsOnEveryTarget(rule));
  const statuses = (rule: Rule) => (outcomes[rule.id] ?? []).map((t) => t.status);
  return {
    verified: tally.verified,
    failed: tally.failed,
    notVerified,
    observations: rules.filter((rule) => statuses(rule).includes(OBSERVATION)).length,
    fieldNotesHeld: fieldNotes.filter((rule) => statuses(rule).length > 0 && statuses(rule).every((s) => s === 'passed')).length,
    fieldNotesFailed: fieldNotes.filter((rule) => statuses(rule).some((s) => FAILED.has(s))).length,
  };
}

/** Why rules were not verified, by class, most frequent first: `2 needs the write flag, 1 twin only`. */
export function reasonClasses(counts: Pick<RuleCounts, 'notVerified'>): string {
  const byClass = new Map<string, number>();
  for (const { why } of counts.notVerified) byClass.set(why, (byClass.get(why) ?? 0) + 1);
  return [...byClass]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([why, n]) => `${n} ${why}`)
    .join(', ');
}

/** `3 (2 needs the write flag, 1 twin only)`, or `0`. */
export function notVerifiedCell(counts: Pick<RuleCounts, 'notVerified'>): string {
  return counts.notVerified.length === 0 ? '0' : `${counts.notVerified.length} (${reasonClasses(counts)})`;
}

/** `store pagination: 6 verified, 0 failed, 1 not verified (1 twin only); field notes 4 held` (field notes only where the area has any). */
export function areaLine(area: string, counts: RuleCounts): string {
  const [api, ...rest] = area.split('.');
  const why = counts.notVerified.length > 0 ? ` (${reasonClasses(counts)})` : '';
  const head = `${api} ${rest.join('.')}: ${counts.verified} verified, ${counts.failed} failed, ${counts.notVerified.length} not verified${why}`;
  const notes = [
    counts.fieldNotesHeld > 0 ? `${counts.fieldNotesHeld} held` : '',
    counts.observations > 0 ? `${counts.observations} ${counts.observations === 1 ? 'observation' : 'observations'}` : '',
    counts.fieldNotesFailed > 0 ? `${counts.fieldNotesFailed} failed` : '',
  ].filter(Boolean);
  return notes.length > 0 ? `${head}; field notes ${notes.join(', ')}` : head;
}

/** How a group of tests that verify no rule of their own (a pact, the pacts' writing) came out. */
export interface TestCounts {
  passed: number;
  failed: number;
  skipped: number;
}

/** `store pact: 13 passed, 0 failed, 0 skipped`. */
export function groupLine(group: string, counts: TestCounts): string {
  return `${group}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`;
}

/** One row of the table npm run verify ends with. */
export interface ApiRow {
  readonly api: string;
  readonly counts: RuleCounts;
  /** Its pact's verification, when the run verified it. */
  readonly pact?: TestCounts;
}

/** The table, columns aligned: per API, its contract and reliance rules verified, failed, not verified (why), observations, and its pact. */
export function summaryTable(rows: readonly ApiRow[]): string[] {
  const pactCell = (pact?: TestCounts) =>
    !pact ? '-' : `${pact.passed} passed${pact.failed > 0 ? `, ${pact.failed} failed` : ''}${pact.skipped > 0 ? `, ${pact.skipped} skipped` : ''}`;
  const cells = [
    ['API', 'verified', 'failed', 'not verified', 'observations', 'pact'],
    ...rows.map(({ api, counts, pact }) => [
      api,
      String(counts.verified),
      String(counts.failed),
      notVerifiedCell(counts),
      String(counts.observations),
      pactCell(pact),
    ]),
  ];
  const widths = cells[0]!.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  return cells.map((row) => `  ${row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ')}`.trimEnd());
}

/** A failed test as one line: what broke (its rule, else its title), the request it sent last, and the first line of the error. */
export interface Failure {
  readonly what: string;
  readonly request?: string;
  readonly reason: string;
}

export function failureLine(failure: Failure, width = 200): string {
  const line = `  ✗ ${failure.what}${failure.request ? `  ${failure.request}` : ''}  ${failure.reason}`;
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}
/** The first line of an error message that says something, without colour codes or a bare `Error: `. */
export function firstLine(message: string | undefined): string {
  const line = stripVTControlCharacters(message ?? '')
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  return line?.replace(/^Error: /, '') || 'failed without a message';
}

/** What a test's attachments hold (src/reporting/httpAttachments.ts): the readable exchanges, and exchanges.json. */
export interface AttachmentLike {
  readonly name: string;
  readonly body?: Buffer | string;
}

/** `GET /v1/1/products?page=2 → 200`: the test's last exchange, from exchanges.json, else from the names of the readable ones. */
export function lastRequest(attachments: readonly AttachmentLike[]): string | undefined {
  const record = [...attachments].reverse().find((a) => a.name === 'exchanges.json' && a.body !== undefined);
  if (record) {
    try {
      const last = (JSON.parse(String(record.body)) as Parameters<typeof exchangeTitle>[0][]).at(-1);
      if (last?.request?.method && last.request.url) return exchangeTitle(last);
    } catch {
      // Not the JSON record: the readable names below.
    }
  }
  const named = [...attachments].reverse().find((a) => /^HTTP \d+: /.test(a.name));
  return named?.name.replace(/^HTTP \d+: /, '');
}
