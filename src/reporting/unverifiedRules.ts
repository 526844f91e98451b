/**
 * The contract and reliance rules a run did not verify, and why: green means
 * verified, so a rule whose every test was skipped (a write flag off, a
 * precondition the provider's data does not meet, a twin-only check on live)
 * is listed, never counted as passed. Written into rule-coverage.md, the run's
 * last lines and the Allure report (one result per run, status skipped).
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { failsOnEveryTarget, ruleKind, type Rule } from '../rules/Rule.ts';
import { UNREACHABLE_REASON_START } from '../testing/providerUnreachable.ts';

export interface RuleOutcome {
  readonly status: string;
  /** Why the test was skipped, when it was. */
  readonly reason?: string;
}

export interface UnverifiedRule {
  readonly rule: Rule;
  readonly reason: string;
}

export interface RuleTally {
  readonly verified: number;
  readonly failed: number;
  readonly unverified: readonly UnverifiedRule[];
}

/** Contract and reliance rules of `rules` with the outcomes of their tests in one run. */
export function tallyRules(rules: readonly Rule[], outcomes: Readonly<Record<string, readonly RuleOutcome[]>>): RuleTally {
  let verified = 0;
  let failed = 0;
  const unverified: UnverifiedRule[] = [];
  for (const rule of rules.filter(failsOnEveryTarget)) {
    const tests = outcomes[rule.id] ?? [];
    if (tests.some((t) => t.status === 'failed' || t.status === 'timedOut' || t.status === 'interrupted')) failed += 1;
    else if (tests.some((t) => t.status === 'passed')) verified += 1;
    else unverified.push({ rule, reason: reasonOf(tests) });
  }
  return { verified, failed, unverified };
}

function reasonOf(tests: readonly RuleOutcome[]): string {
  if (tests.length === 0) return 'no test of it ran in this run (not selected, or no test)';
  const reasons = [...new Set(tests.map((t) => t.reason).filter((r): r is string => !!r))];
  if (reasons.length === 0) return `its ${tests.length} test(s) did not run (${[...new Set(tests.map((t) => t.status))].join(', ')})`;
  return reasons.join(' / ');
}

/** The class of a skip reason, for the summary table: what would verify it. */
export function reasonClass(reason: string): string {
  if (reason.includes(UNREACHABLE_REASON_START)) return 'provider unreachable';
  if (/_ALLOW_WRITES/.test(reason)) return 'needs the write flag';
  if (/needs the twin|twin's control API|only the twin/i.test(reason)) return 'twin only';
  if (/not verified: it needs/.test(reason)) return 'precondition unmet';
  if (/STOREFRONT_URL/.test(reason)) return 'storefront not configured';
  if (/not configured|KITSU_API_URL|STORE_ID/.test(reason)) return 'API not configured';
  if (/ACCESS_TOKEN|signed-in/i.test(reason)) return 'needs a token';
  return 'other';
}

/** The lines the run ends with: the counts, then each unverified rule with its reason. */
export function unverifiedLines(target: string, tally: RuleTally, max = 40): string[] {
  const head = `Rules on ${target}: ${tally.verified} contract/reliance rule(s) verified, ${tally.failed} failed, ${tally.unverified.length} NOT verified (skipped is not green)`;
  if (tally.unverified.length === 0) return [head];
  const listed = tally.unverified.slice(0, max).map(({ rule, reason }) => `  not verified: ${rule.id} (${ruleKind(rule)}): ${reason}`);
  const more = tally.unverified.length > max ? [`  … and ${tally.unverified.length - max} more in reports/rule-coverage.md`] : [];
  return [head, ...listed, ...more];
}

/** The markdown section of rule-coverage.md for one run. */
export function unverifiedMarkdown(target: string, tally: RuleTally): string[] {
  const lines = [`## Not verified on ${target}`, '', unverifiedLines(target, tally, 0)[0]!, ''];
  if (tally.unverified.length === 0) return lines;
  lines.push('| rule | kind | why not, and what would verify it |', '|---|---|---|');
  for (const { rule, reason } of tally.unverified) lines.push(`| \`${rule.id}\` | ${ruleKind(rule)} | ${reason.replace(/\|/g, '\\|')} |`);
  lines.push('');
  return lines;
}

/** One Allure result per run listing what it did not verify: status skipped, never passed. */
export function writeUnverifiedAllureResult(resultsDir: string, target: string, tally: RuleTally): string {
  mkdirSync(resultsDir, { recursive: true });
  const historyId = createHash('md5').update(`api-contract-harness rules not verified on ${target}`).digest('hex');
  const uuid = randomUUID();
  const markdown = unverifiedMarkdown(target, tally).join('\n');
  const source = `${randomUUID()}-attachment.md`;
  writeFileSync(join(resultsDir, source), markdown);
  const now = Date.now();
  const result = {
    uuid,
    historyId,
    testCaseId: historyId,
    name: `rules not verified on ${target}`,
    fullName: `rule coverage: contract and reliance rules not verified on ${target}`,
    status: tally.unverified.length > 0 ? 'skipped' : 'passed',
    statusDetails: { message: unverifiedLines(target, tally, 10).join('\n') },
    stage: 'finished',
    steps: [],
    attachments: [{ name: 'not-verified.md', type: 'text/markdown', source }],
    parameters: [{ name: 'target', value: target }],
    labels: [
      { name: 'epic', value: 'Rule coverage' },
      { name: 'feature', value: 'Not verified' },
      { name: 'suite', value: 'rule coverage' },
      { name: 'target', value: target },
    ],
    links: [],
    start: now,
    stop: now,
  };
  const path = join(resultsDir, `${uuid}-result.json`);
  writeFileSync(path, JSON.stringify(result));
  return path;
}
