/**
 * npm run verify's console, in place of Playwright's list: one line as each area of
 * the spec (store.pagination) and each pact finishes, then a table per API (rules
 * verified, failed, not verified with the reason, observations, the pact), one line per
 * failed test (its rule, the request its failure is about, the first line of its error),
 * and, per failed contract or reliance rule, the consumers whose pacts use what broke
 * (src/reporting/affectedConsumers.ts), also written beside the output log and onto the
 * rule's failed results in the Allure report. Nothing a test, a worker, Pact or the twins
 * print reaches the console: the Allure results hold each test's output and attachments,
 * and reports/verify/output.log the rest.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { CATALOGUES } from '../rules/catalogues.ts';
import type { Rule } from '../rules/Rule.ts';
import type { RuleOutcome } from '../reporting/unverifiedRules.ts';
import { ruleIdsOf } from '../testing/ruleTest.ts';
import { ruleOutcomesOf } from './RuleCoverageReporter.ts';
import { ruleMatches } from '../verify/verifyArgs.ts';
import {
  areaLine,
  areaOf,
  countRules,
  failureLine,
  firstLine,
  groupLine,
  summaryTable,
  type ApiRow,
  type Failure,
  type TestCounts,
} from '../verify/verifySummary.ts';
import { reportPath, targetName } from '../config/env.ts';
import { failingRequest } from '../reporting/failingRequest.ts';
import {
  affectedConsumers,
  affectedLines,
  affectedMarkdown,
  consumerOfPactTitle,
  PACT_SOURCES,
  readConsumerPacts,
  type Affected,
  type Break,
  type InteractionVerdict,
} from '../reporting/affectedConsumers.ts';
import { breakOfRule } from '../reporting/ruleConcerns.ts';
import { amendAllureResults } from '../reporting/affectedAllure.ts';
import { outageLinesOf } from '../testing/providerUnreachable.ts';
import { outageSummary } from './ProviderOutageReporter.ts';

/** The projects whose tests verify a pact interaction, one test each (the describe names the pact). */
const PACT_PROJECTS = new Set(['contracts-verify', 'contracts-outside']);

export interface VerifyReporterOptions {
  /** The APIs verified (default: every catalogue's). */
  readonly apis?: readonly string[];
  /** Rule ids or prefixes verified (default: every rule of `apis`). */
  readonly rules?: readonly string[];
  readonly target?: string;
  /** Where the tests', workers' and twins' own output goes. */
  readonly outputLog?: string;
  /** Where the lines go (the terminal). */
  readonly write?: (line: string) => void;
  /** Pact files and directories whose consumers a failed rule may affect (default PACT_SOURCES). */
  readonly pactSources?: readonly string[];
  /** Where the consumers each failed rule affects are written, as JSON and Markdown (default beside the output log). */
  readonly affectedFile?: string;
  /** The Allure results the list is added to (default reports/allure-results); null: none. */
  readonly allureResultsDir?: string | null;
}

/** The group a test that names no rule of the run counts in: its API's pact, the pacts' writing, else its project. */
export function groupOf(project: string, file: string): string {
  if (project === 'contracts-verify') return `${file.split('/').find((part) => CATALOGUES[part]) ?? 'other'} pact`;
  if (project.startsWith('contracts-')) return 'pacts written and checked against the schemas';
  return project;
}

/** The spec file a test is in (a test declared by a helper, like a pact interaction's, has the helper as its location). */
function fileOf(test: TestCase): string {
  let suite: Suite | undefined = test.parent;
  while (suite && suite.type !== 'file') suite = suite.parent;
  return suite?.location?.file ?? test.location.file;
}

export default class VerifyReporter implements Reporter {
  readonly #apis: readonly string[];
  readonly #prefixes: readonly string[];
  readonly #target: string;
  readonly #outputLog: string;
  readonly #write: (line: string) => void;
  /** The rules this run verifies, by id. */
  readonly #rules = new Map<string, Rule>();
  /** What each finished test said of each chosen rule. */
  readonly #outcomes: Record<string, RuleOutcome[]> = {};
  /** Each area's or group's tests not yet finished. */
  readonly #pending = new Map<string, Set<TestCase>>();
  readonly #groups = new Map<string, TestCounts>();
  readonly #failures: Failure[] = [];
  /** Each failed contract or reliance rule: the requests its failures were about, the titles of its failed tests, the first error. */
  readonly #failedRules = new Map<string, { requests: string[]; titles: Set<string>; summary: string }>();
  /** Each pact interaction verified in this run. */
  readonly #verdicts: InteractionVerdict[] = [];
  readonly #pactSources: readonly string[];
  readonly #affectedFile: string;
  readonly #allureResults: string | undefined;
  readonly #errors: string[] = [];
  readonly #tests = { passed: 0, failed: 0, skipped: 0 };
  /** Tests an unreachable provider kept from verifying (an outage, not a verdict; ProviderOutageReporter says each outage). */
  #notVerifiedForOutage = 0;
  #began = Date.now();
  #rootDir = process.cwd();

  constructor(options: VerifyReporterOptions = {}) {
    this.#apis = options.apis?.length ? options.apis : Object.keys(CATALOGUES);
    this.#prefixes = options.rules ?? [];
    this.#target = options.target ?? targetName();
    this.#outputLog = options.outputLog ?? reportPath('verify', 'output.log');
    this.#write = options.write ?? ((line) => process.stdout.write(`${line}\n`));
    this.#pactSources = options.pactSources ?? PACT_SOURCES;
    this.#affectedFile = options.affectedFile ?? join(dirname(this.#outputLog), 'affected-consumers.json');
    this.#allureResults = options.allureResultsDir === null ? undefined : (options.allureResultsDir ?? reportPath('allure-results'));
    // Emptied here, not in onBegin: the twins start (and may print) before the tests are listed.
    mkdirSync(dirname(this.#outputLog), { recursive: true });
    writeFileSync(this.#outputLog, '');
    for (const api of this.#apis) {
      for (const rule of Object.values(CATALOGUES[api] ?? {})) if (this.#chosen(rule.id)) this.#rules.set(rule.id, rule);
    }
  }

  printsToStdio(): boolean {
    return true;
  }

  #chosen(ruleId: string): boolean {
    return this.#apis.includes(ruleId.split('.')[0]!) && (this.#prefixes.length === 0 || this.#prefixes.some((prefix) => ruleMatches(ruleId, prefix)));
  }

  /** The areas of the chosen rules a test names; none when it names rules, none of them chosen. */
  #areasOf(test: TestCase): string[] {
    return [
      ...new Set(
        ruleIdsOf(test.annotations)
          .filter((id) => this.#rules.has(id))
          .map(areaOf),
      ),
    ];
  }

  /** The group of a test that names no rule. */
  #groupOf(test: TestCase): string | undefined {
    if (ruleIdsOf(test.annotations).length > 0) return undefined;
    return groupOf(test.parent.project()?.name ?? '', relative(this.#rootDir, fileOf(test)).replace(/\\/g, '/'));
  }

  #keysOf(test: TestCase): string[] {
    const group = this.#groupOf(test);
    return group ? [group] : this.#areasOf(test);
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.#began = Date.now();
    this.#rootDir = config.rootDir;
    const tests = suite.allTests();
    for (const test of tests) {
      const group = this.#groupOf(test);
      if (group) this.#groups.set(group, { passed: 0, failed: 0, skipped: 0 });
      for (const key of this.#keysOf(test)) {
        if (!this.#pending.has(key)) this.#pending.set(key, new Set());
        this.#pending.get(key)!.add(test);
      }
    }
    const rules = this.#prefixes.length > 0 ? `rules ${this.#prefixes.join(', ')}` : `every rule of ${this.#apis.join(' and ')}`;
    this.#write(`verify: ${tests.length} tests of ${rules} on ${this.#target}, ${config.workers} workers; a line as each area of the spec finishes`);
  }

  onStdOut(chunk: string | Buffer): void {
    this.#log(chunk);
  }

  onStdErr(chunk: string | Buffer): void {
    this.#log(chunk);
  }

  #log(chunk: string | Buffer): void {
    try {
      appendFileSync(this.#outputLog, chunk);
    } catch {
      // The folder removed mid-run: nothing to keep it in.
    }
  }

  onError(error: TestError): void {
    const line = firstLine(error.message ?? error.value);
    this.#errors.push(line);
    this.#write(`verify: error: ${line}`);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    // A test retried after a failure ends for good with its last try.
    if (result.status !== 'passed' && result.status !== 'skipped' && result.retry < test.retries) return;
    const outcome = test.outcome();
    const counted = outcome === 'skipped' ? 'skipped' : outcome === 'unexpected' ? 'failed' : 'passed';
    this.#tests[counted] += 1;
    if (outageLinesOf([...test.annotations, ...result.annotations]).length > 0) this.#notVerifiedForOutage += 1;
    for (const [rule, ruleOutcome] of ruleOutcomesOf(test, result)) if (this.#rules.has(rule)) (this.#outcomes[rule] ??= []).push(ruleOutcome);
    if (outcome === 'unexpected') this.#failures.push(this.#failure(test, result));
    if (PACT_PROJECTS.has(test.parent.project()?.name ?? '')) this.#verdicts.push(verdictOf(test, result, counted));

    const group = this.#groupOf(test);
    if (group) this.#groups.get(group)![counted] += 1;
    for (const key of this.#keysOf(test)) {
      const pending = this.#pending.get(key);
      if (!pending?.delete(test) || pending.size > 0) continue;
      this.#write(`  ${this.#line(key)}`);
    }
  }

  #failure(test: TestCase, result: TestResult): Failure {
    const rules = ruleIdsOf(test.annotations).filter((id) => this.#rules.has(id));
    const what =
      rules.length > 0 ? `${rules[0]}${rules.length > 1 ? ` (+${rules.length - 1} more rules)` : ''}` : `${this.#groupOf(test) ?? 'test'}: ${test.title}`;
    const message = result.error?.message ?? result.error?.value ?? (result.status === 'timedOut' ? `timed out after ${test.timeout} ms` : result.status);
    // The request the failure is about (not the clean-up after it); a test that sent none (a property, a browser test) is named by its title.
    const sent = failingRequest(result.attachments, message);
    const request = sent ?? (rules.length > 0 ? `“${test.title}”` : undefined);
    const reason = firstLine(message);
    for (const rule of rules.filter((id) => this.#rules.get(id)!.source !== 'field-notes')) {
      const failed = this.#failedRules.get(rule) ?? { requests: [], titles: new Set<string>(), summary: reason };
      if (sent) failed.requests.push(sent);
      failed.titles.add(test.title);
      this.#failedRules.set(rule, failed);
    }
    return { what, ...(request ? { request } : {}), reason };
  }

  #line(key: string): string {
    const group = this.#groups.get(key);
    return group
      ? groupLine(key, group)
      : areaLine(
          key,
          countRules(
            this.#rulesOf((id) => areaOf(id) === key),
            this.#outcomes,
          ),
        );
  }

  #rulesOf(where: (id: string) => boolean): Rule[] {
    return [...this.#rules.values()].filter((rule) => where(rule.id));
  }

  onEnd(result: FullResult): void {
    // What did not finish (an interrupted run, a failed dependency): its line now, saying so.
    for (const [key, pending] of this.#pending) {
      if (pending.size > 0) this.#write(`  ${this.#line(key)} (${pending.size} test(s) did not finish)`);
    }
    const seconds = ((Date.now() - this.#began) / 1000).toFixed(1);
    const { passed, failed, skipped } = this.#tests;
    const lines = [
      '',
      `verify on ${this.#target}: ${passed} tests passed, ${failed} failed, ${skipped} skipped in ${seconds} s; contract and reliance rules:`,
      ...summaryTable(this.#rows()),
    ];
    if (this.#failures.length > 0) lines.push(`${this.#failures.length} failed test(s):`, ...this.#failures.map((f) => failureLine(f)));
    if (this.#errors.length > 0) lines.push(`${this.#errors.length} error(s) outside a test:`, ...this.#errors.map((e) => `  ✗ ${e}`));
    // An unreachable provider fails the run without a failed test: said as the reason, never as a broken rule.
    if (this.#notVerifiedForOutage > 0) lines.push(outageSummary(this.#notVerifiedForOutage));
    else if (result.status !== 'passed' && this.#failures.length === 0 && this.#errors.length === 0) lines.push(`the run ended ${result.status}`);
    const affected = this.#affected();
    if (affected.length > 0) {
      lines.push(
        `who the ${affected.length} failed contract and reliance rule(s) affect (the consumers whose pacts use what broke; ${this.#affectedFile.replace(/\.json$/, '.md')}):`,
        ...affectedLines(affected, { when: 'in this run' }),
      );
    }
    lines.push(`each rule with its tests: reports/rule-coverage.md; the tests' and twins' own output: ${this.#outputLog}`);
    for (const line of lines) this.#write(line);
  }

  /**
   * Per failed contract or reliance rule, the consumers it affects; written as JSON and Markdown (always: the nightly
   * judges drift's breaks by this run's pact verdicts too), and onto the rule's failed Allure results.
   */
  #affected(): Affected[] {
    const breaks = [...this.#failedRules]
      .map(([rule, failed]) => breakOfRule(rule, failed.requests, failed.summary))
      .filter((brk): brk is Break => brk !== undefined);
    const affected = breaks.length === 0 ? [] : affectedConsumers(breaks, readConsumerPacts(this.#pactSources), this.#verdicts);
    try {
      mkdirSync(dirname(this.#affectedFile), { recursive: true });
      writeFileSync(this.#affectedFile, `${JSON.stringify({ target: this.#target, breaks, verdicts: this.#verdicts, affected }, replacer, 2)}\n`);
      writeFileSync(
        this.#affectedFile.replace(/\.json$/, '.md'),
        affectedMarkdown(affected, `## Who the failed rules affect (${this.#target})`, 'in this run'),
      );
      if (this.#allureResults && affected.length > 0) {
        const titles = new Map([...this.#failedRules].map(([rule, failed]) => [rule, failed.titles]));
        amendAllureResults(this.#allureResults, affected, { titles, when: 'in this run' });
      }
    } catch (error) {
      this.#write(
        `verify: the consumers the failed rules affect were not written (${error instanceof Error ? error.message : String(error)}): check that reports/ is writable.`,
      );
    }
    return affected;
  }

  #rows(): ApiRow[] {
    return this.#apis.map((api) => {
      const pact = this.#groups.get(`${api} pact`);
      return {
        api,
        counts: countRules(
          this.#rulesOf((id) => id.startsWith(`${api}.`)),
          this.#outcomes,
        ),
        ...(pact ? { pact } : {}),
      };
    });
  }
}

/** How a pact interaction's test came out, for who a break affects. */
function verdictOf(test: TestCase, result: TestResult, counted: 'passed' | 'failed' | 'skipped'): InteractionVerdict {
  const reason =
    counted === 'failed'
      ? (result.error?.message ?? result.error?.value)
      : counted === 'skipped'
        ? result.annotations.find((a) => a.type === 'skip')?.description
        : undefined;
  return { consumer: consumerOfPactTitle(test.parent.title), description: test.title, status: counted, ...(reason ? { reason: reason.slice(0, 2000) } : {}) };
}

/** A concern's patterns (RegExp) as their source in the JSON. */
function replacer(_key: string, value: unknown): unknown {
  return value instanceof RegExp ? value.source : value;
}
