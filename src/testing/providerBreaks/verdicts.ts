/**
 * The verdicts of `npm run breaks`, from the runs of each job (the API's live
 * suites, then its pact verification, against one changed provider):
 * - a break is caught only when a test of one of the rules it names failed;
 *   red tests of other rules alone are "caught by the wrong rule", which counts
 *   as survived; pact interactions carry no rule ids, so their red or green is
 *   reported beside the verdict, and counts only through rule ids they carry;
 * - a deviation (and the pass-through control) is tolerated only when both runs
 *   are green;
 * - a run that cannot be read is an error, never a verdict.
 * The run exits non-zero when a break survives, a deviation turns a run red,
 * or anything is an error.
 */
import type { BreakKind } from './breakingProxy.ts';
import type { RunResult, TestOutcome } from './runReport.ts';

export interface JobRuns {
  readonly suites: RunResult;
  readonly pact: RunResult;
}

export type BreakVerdict =
  | { readonly verdict: 'caught'; readonly by: readonly string[]; readonly tests: readonly TestOutcome[] }
  | { readonly verdict: 'wrong-rule'; readonly tests: readonly TestOutcome[] }
  | { readonly verdict: 'survived'; readonly observations: readonly string[] }
  | { readonly verdict: 'error'; readonly error: string };

export type PactVerdict =
  | { readonly verdict: 'red'; readonly interactions: readonly TestOutcome[] }
  | { readonly verdict: 'green' }
  | { readonly verdict: 'error'; readonly error: string };

export type DeviationVerdict =
  | { readonly verdict: 'green'; readonly observations: readonly string[] }
  | { readonly verdict: 'red'; readonly tests: readonly (TestOutcome & { readonly run: 'suites' | 'pact' })[] }
  | { readonly verdict: 'error'; readonly error: string };

const failedIn = (run: RunResult): TestOutcome[] => (run.ok ? run.report.tests.filter((t) => t.status === 'failed') : []);

export function pactVerdict(pact: RunResult): PactVerdict {
  if (!pact.ok) return { verdict: 'error', error: `pact verification: ${pact.error}` };
  const red = failedIn(pact);
  return red.length > 0 ? { verdict: 'red', interactions: red } : { verdict: 'green' };
}

/** Caught, caught by the wrong rule, survived, or an error; `rules` are the ids the break names. */
export function judgeBreak(rules: readonly string[], runs: JobRuns): BreakVerdict {
  if (!runs.suites.ok) return { verdict: 'error', error: `suites: ${runs.suites.error}` };
  const wanted = new Set(rules);
  // Pact interactions count under the rules they carry (none today: then only "pact: red" beside the verdict).
  const failures = [...failedIn(runs.suites), ...failedIn(runs.pact).filter((t) => t.rules.length > 0)];
  const right = failures.filter((t) => t.rules.some((id) => wanted.has(id)));
  if (right.length > 0) return { verdict: 'caught', by: [...new Set(right.flatMap((t) => t.rules.filter((id) => wanted.has(id))))], tests: right };
  if (failures.length > 0) return { verdict: 'wrong-rule', tests: failures };
  const observations = runs.suites.report.tests.flatMap((t) => t.observations.filter((d) => rules.some((id) => d.startsWith(`${id}:`))));
  return { verdict: 'survived', observations };
}

/** Green (observations are fine), red with the tests that failed in either run, or an error. */
export function judgeDeviation(runs: JobRuns): DeviationVerdict {
  const broken = [runs.suites.ok ? undefined : `suites: ${runs.suites.error}`, runs.pact.ok ? undefined : `pact verification: ${runs.pact.error}`].filter(
    Boolean,
  );
  if (broken.length > 0) return { verdict: 'error', error: broken.join('; ') };
  const red = [...failedIn(runs.suites).map((t) => ({ ...t, run: 'suites' as const })), ...failedIn(runs.pact).map((t) => ({ ...t, run: 'pact' as const }))];
  if (red.length > 0) return { verdict: 'red', tests: red };
  return { verdict: 'green', observations: runs.suites.ok ? [...new Set(runs.suites.report.tests.flatMap((t) => t.observations))] : [] };
}

export interface BreakOutcome {
  readonly type: 'break';
  readonly api: string;
  readonly name: string;
  readonly heldOut: boolean;
  readonly kind: BreakKind;
  readonly what: string;
  readonly rules: readonly string[];
  readonly verdict: BreakVerdict;
  readonly pact: PactVerdict;
  readonly seconds: number;
}

export interface DeviationOutcome {
  readonly type: 'deviation';
  readonly api: string;
  readonly name: string;
  readonly heldOut: boolean;
  /** The pass-through proxy: nothing changed, so everything must be green. */
  readonly control: boolean;
  readonly what: string;
  readonly verdict: DeviationVerdict;
  readonly seconds: number;
}

export type Outcome = BreakOutcome | DeviationOutcome;

/** 0 only when every break is caught by its rule, every deviation and control is green, and nothing is an error. */
export function exitCodeOf(outcomes: readonly Outcome[]): number {
  const ok = outcomes.every((o) => (o.type === 'break' ? o.verdict.verdict === 'caught' && o.pact.verdict !== 'error' : o.verdict.verdict === 'green'));
  return ok ? 0 : 1;
}

const label = (o: Outcome) => `${o.api} ${o.name}${o.heldOut ? ' [held out]' : ''}`;
const testLine = (t: TestOutcome) => `${t.title}${t.message ? ` — ${t.message}` : ''}`;

export function pactText(pact: PactVerdict): string {
  if (pact.verdict === 'green') return 'pact: green';
  if (pact.verdict === 'error') return `pact: ERROR (${pact.error})`;
  return `pact: red (${pact.interactions.map((t) => t.title).join('; ')})`;
}

/** One line per outcome, as printed while the run goes on. */
export function outcomeLine(o: Outcome): string {
  if (o.type === 'break') {
    const v = o.verdict;
    const what =
      v.verdict === 'caught'
        ? `caught by ${v.by.join(', ')}`
        : v.verdict === 'wrong-rule'
          ? `CAUGHT BY THE WRONG RULE (${[...new Set(v.tests.flatMap((t) => (t.rules.length ? t.rules : ['(no rule)'])))].join(', ')}; wanted ${o.rules.join(', ')})`
          : v.verdict === 'survived'
            ? `SURVIVED (wanted ${o.rules.join(', ')}${v.observations.length ? `; seen only as an observation` : ''})`
            : `ERROR: ${v.error}`;
    return `break ${label(o)}: ${what}; ${pactText(o.pact)}`;
  }
  const v = o.verdict;
  const what =
    v.verdict === 'green'
      ? `green${v.observations.length ? ` (${v.observations.length} observation${v.observations.length === 1 ? '' : 's'})` : ''}`
      : v.verdict === 'red'
        ? `RED by ${v.tests.map((t) => `${t.run === 'pact' ? 'pact ' : ''}${t.title}`).join('; ')}`
        : `ERROR: ${v.error}`;
  return `${o.control ? 'control' : 'deviation'} ${label(o)}: ${what}`;
}

/** The summary printed at the end: counts, then each break and deviation with the tests behind its verdict. */
export function consoleReport(outcomes: readonly Outcome[], seconds: number): string {
  const breaks = outcomes.filter((o): o is BreakOutcome => o.type === 'break');
  const deviations = outcomes.filter((o): o is DeviationOutcome => o.type === 'deviation');
  const count = (list: readonly Outcome[], verdict: string) => list.filter((o) => o.verdict.verdict === verdict).length;
  const lines = [
    '',
    `Breaks: ${count(breaks, 'caught')} of ${breaks.length} caught by their rule, ${count(breaks, 'wrong-rule')} caught by the wrong rule, ${count(breaks, 'survived')} survived, ${count(breaks, 'error')} errors`,
    `Deviations: ${count(deviations, 'green')} of ${deviations.length} green (controls included), ${count(deviations, 'red')} red, ${count(deviations, 'error')} errors`,
    '',
    'BREAKS',
  ];
  for (const o of breaks) {
    lines.push(`  ${outcomeLine(o).replace(/^break /, '')}`);
    if (o.verdict.verdict === 'caught' || o.verdict.verdict === 'wrong-rule') {
      for (const t of o.verdict.tests.slice(0, 3)) lines.push(`      ${testLine(t)}`);
      if (o.verdict.tests.length > 3) lines.push(`      … and ${o.verdict.tests.length - 3} more`);
    }
    if (o.verdict.verdict === 'survived') for (const d of o.verdict.observations.slice(0, 3)) lines.push(`      observation: ${d}`);
  }
  lines.push('', 'DEVIATIONS');
  for (const o of deviations) {
    lines.push(`  ${outcomeLine(o).replace(/^(deviation|control) /, o.control ? 'control ' : '')}`);
    if (o.verdict.verdict === 'red') for (const t of o.verdict.tests) lines.push(`      ${t.run === 'pact' ? 'pact: ' : ''}${testLine(t)}`);
  }
  lines.push('', `${outcomes.length} jobs in ${seconds.toFixed(0)} s; exit ${exitCodeOf(outcomes)}`);
  return lines.join('\n');
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** One table row: each cell escaped so a pipe or a line break in a message cannot split it. */
const row = (cells: readonly string[]): string => cells.map(cell).join(' | ').replace(/^/, '| ').replace(/$/, ' |');

/** A break's row: what it breaks, the verdict, and the failed tests (or what survived as observations). */
function breakRow(o: BreakOutcome): string {
  const verdict =
    o.verdict.verdict === 'caught'
      ? `caught by ${o.verdict.by.map((r) => `\`${r}\``).join(', ')}`
      : o.verdict.verdict === 'wrong-rule'
        ? '**caught by the wrong rule**'
        : o.verdict.verdict === 'survived'
          ? '**survived**'
          : `**error**: ${o.verdict.error}`;
  const tests =
    o.verdict.verdict === 'caught' || o.verdict.verdict === 'wrong-rule'
      ? o.verdict.tests.map((t) => `${t.title} — ${t.message ?? ''}`).join('<br>')
      : o.verdict.verdict === 'survived'
        ? o.verdict.observations.map((d) => `observation: ${d}`).join('<br>')
        : '';
  return row([
    o.api,
    `${o.name}${o.heldOut ? ' (held out)' : ''}: ${o.what}`,
    o.kind,
    o.rules.map((r) => `\`${r}\``).join(', '),
    verdict,
    tests,
    pactText(o.pact).replace(/^pact: /, ''),
  ]);
}

/** A deviation's row: green or red, and the red tests. */
function deviationRow(o: DeviationOutcome): string {
  return row([
    o.api,
    `${o.name}${o.heldOut ? ' (held out)' : ''}: ${o.what}`,
    o.verdict.verdict === 'green'
      ? `green${o.verdict.observations.length ? ` (${o.verdict.observations.length} observations)` : ''}`
      : o.verdict.verdict === 'red'
        ? '**red**'
        : `**error**: ${o.verdict.error}`,
    o.verdict.verdict === 'red' ? o.verdict.tests.map((t) => `${t.run === 'pact' ? 'pact: ' : ''}${t.title} — ${t.message ?? ''}`).join('<br>') : '',
  ]);
}

/** reports/breaks/report.md: the breaks and the deviations side by side, with the tests behind each verdict. */
export function markdownReport(outcomes: readonly Outcome[], meta: { seconds: number; command: string }): string {
  const breaks = outcomes.filter((o): o is BreakOutcome => o.type === 'break');
  const deviations = outcomes.filter((o): o is DeviationOutcome => o.type === 'deviation');
  const lines = [
    '# Can the suites fail? (`npm run breaks`)',
    '',
    `\`${meta.command}\`: ${outcomes.length} jobs in ${meta.seconds.toFixed(0)} s, exit ${exitCodeOf(outcomes)}.`,
    '',
    'A break is caught only by a failed test of a rule it names; a deviation (something the contract leaves open) must keep the live suites and the pact verification green.',
    '',
    '## Breaks',
    '',
    '| API | Break | Kind | Rules it breaks | Verdict | Failed tests (or observations) | Pact |',
    '|---|---|---|---|---|---|---|',
    ...breaks.map(breakRow),
    '',
    '## Deviations',
    '',
    '| API | Deviation | Verdict | Red tests (first line of the failure) |',
    '|---|---|---|---|',
    ...deviations.map(deviationRow),
    '',
  ];
  return lines.join('\n');
}
