/**
 * An unreachable provider is an outage, not a verdict (src/http/providerOutage.ts).
 * On a live or record run this reporter names the run's file of declared outages
 * for the workers (HARNESS_PROVIDER_OUTAGES), so a worker that starts after the
 * declaration fails fast at once; says each outage once, as the first test it
 * kept from verifying ends:
 *
 *   provider unreachable: the media API at 127.0.0.1:4120 stopped answering at 22:51:07 UTC (connection refused); the tests it keeps from verifying are not verified
 *
 * and at the end how many tests it kept from verifying (skipped, never failed:
 * no rule fails for it, no consumer is named), writes the outage onto the Allure
 * report's front page (a global error, and an attachment saying what it kept from
 * verifying), and fails the run: exit 1, for this reason, even when every test
 * that ran passed. The twins and replays reach no provider: there it does nothing.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { harnessConfig } from '../config/harnessConfig.ts';
import { processEnv, reportPath } from '../config/env.ts';
import { OUTAGE_BUDGET, OUTAGE_FILE_VARIABLE, outageLine, readOutages } from '../http/providerOutage.ts';
import { outageLinesOf } from '../testing/providerUnreachable.ts';
import { shareWithWorkers, type RunSharedFile } from './runSharedFile.ts';
import { markdownText } from '../reporting/affectedAllure.ts';

/** The report's front page: a global attachment (Allure's `*-globals.json`) of the outages and what they kept from verifying. */
export const OUTAGE_OVERVIEW = 'Provider unreachable (an outage, not a verdict)';
const OVERVIEW_GLOBALS = 'provider-outage-globals.json';
const OVERVIEW_SOURCE = 'provider-outage-attachment.md';

export interface ProviderOutageOptions {
  /** Whether the run reaches real providers (live, record); default: the harness configuration says so. */
  readonly live?: boolean;
  readonly log?: (line: string) => void;
  /** Where the workers will find the file's name (default the process environment, which they inherit). */
  readonly workerEnv?: Record<string, string | undefined>;
  /** The Allure results the outage is written into (default reports/allure-results); null: none. */
  readonly allureResultsDir?: string | null;
  /** Whether it ends with its own line of how many tests the outages kept from verifying (default true; npm run verify's console says it instead). */
  readonly summary?: boolean;
}

/** The run's closing word on its outages: how many tests they kept from verifying, and that the run fails for it. */
export function outageSummary(notVerified: number): string {
  return (
    `provider unreachable: ${notVerified} test(s) not verified (skipped with the reason: an outage, not a verdict; no rule failed for it). ` +
    `The run fails for it; run again once the provider answers (the retry budget: ${OUTAGE_BUDGET.attempts} attempts over ${OUTAGE_BUDGET.windowMs / 1000} s or more, docs/live.md).`
  );
}

export default class ProviderOutageReporter implements Reporter {
  readonly #live: boolean;
  readonly #log: (line: string) => void;
  readonly #workerEnv: Record<string, string | undefined>;
  readonly #allureResults: string | undefined;
  readonly #summary: boolean;
  /** Each outage line said, with the titles of the tests it kept from verifying. */
  readonly #outages = new Map<string, string[]>();
  #file: RunSharedFile | undefined;

  constructor(options: ProviderOutageOptions = {}) {
    this.#live = options.live ?? harnessConfig().liveRequestBudget !== undefined;
    this.#log = options.log ?? ((line) => console.error(line));
    this.#workerEnv = options.workerEnv ?? processEnv();
    this.#allureResults = options.allureResultsDir === null ? undefined : (options.allureResultsDir ?? reportPath('allure-results'));
    this.#summary = options.summary ?? true;
  }

  onBegin(): void {
    if (!this.#live) return;
    // Before the first worker starts: workers inherit this process's environment.
    this.#file = shareWithWorkers('provider-outages', OUTAGE_FILE_VARIABLE, this.#workerEnv);
  }

  printsToStdio(): boolean {
    return false;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    for (const line of new Set(outageLinesOf([...test.annotations, ...result.annotations]))) {
      const kept = this.#outages.get(line);
      if (kept) kept.push(test.title);
      else {
        this.#outages.set(line, [test.title]);
        this.#log(line);
      }
    }
  }

  async onEnd(_result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    // Declared, but no test said it (the one that met it ended otherwise): said now, once.
    const declared = this.#file ? readOutages(this.#file.path).map(outageLine) : [];
    for (const line of declared.filter((l) => !this.#outages.has(l))) {
      this.#outages.set(line, []);
      this.#log(line);
    }
    this.#file?.remove();
    delete this.#workerEnv[OUTAGE_FILE_VARIABLE];
    if (this.#outages.size === 0) return undefined;
    if (this.#summary) this.#log(outageSummary([...this.#outages.values()].reduce((sum, titles) => sum + titles.length, 0)));
    this.#writeOverview();
    return { status: 'failed' };
  }

  /** The front page of the Allure report: each outage as a global error, and what it kept from verifying. */
  #writeOverview(): void {
    if (!this.#allureResults) return;
    const lines = [
      `## ${OUTAGE_OVERVIEW}`,
      '',
      'A provider stopped answering during the run. The tests it kept from verifying are not verified (skipped, with the reason), never failed: no rule failed for it, and no consumer is named. Run again once it answers.',
      '',
    ];
    for (const [line, titles] of this.#outages) {
      lines.push(`### ${markdownText(line)}`, '', `${titles.length} test(s) not verified:`, '', ...titles.map((title) => `- ${markdownText(title)}`), '');
    }
    try {
      mkdirSync(this.#allureResults, { recursive: true });
      writeFileSync(join(this.#allureResults, OVERVIEW_SOURCE), `${lines.join('\n').trimEnd()}\n`);
      const timestamp = Date.now();
      const globals = {
        attachments: [{ name: OUTAGE_OVERVIEW, source: OVERVIEW_SOURCE, type: 'text/markdown', timestamp }],
        errors: [...this.#outages.keys()].map((message) => ({ message, timestamp })),
      };
      writeFileSync(join(this.#allureResults, OVERVIEW_GLOBALS), JSON.stringify(globals));
    } catch (error) {
      this.#log(`provider unreachable: the report's overview was not written (${error instanceof Error ? error.message : String(error)})`);
    }
  }
}
