/**
 * The console of `npx api-contract-harness pact-verify` (HARNESS_CONSOLE=pact-verify): one line per
 * interaction, and under a failed one its short account (the failure's message: contracts/verification/
 * mismatchSummary.ts), never a stack inside the harness. Pact's own output and every test's go to a log
 * beside the reports; the whole report stays in JUnit and the Allure results.
 */
import { stripVTControlCharacters } from 'node:util';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname, relative } from 'node:path';
import type { FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { callerDir, reportsDir } from '../config/env.ts';

/** At most this many lines of one failure's message; the rest is in the report. */
const MAX_FAILURE_LINES = 24;

export interface PactVerifyReporterOptions {
  /** Where Pact's and the tests' own output go. */
  readonly outputLog: string;
  /** Where the lines go; the console unless given (a test passes its own). */
  readonly print?: (line: string) => void;
}

export default class PactVerifyReporter implements Reporter {
  readonly #print: (line: string) => void;
  readonly #outputLog: string;
  #log: WriteStream | undefined;
  readonly #counts = { verified: 0, failed: 0, skipped: 0 };

  constructor(options: PactVerifyReporterOptions) {
    this.#print = options.print ?? ((line) => console.log(line));
    this.#outputLog = options.outputLog;
  }

  printsToStdio(): boolean {
    return true;
  }

  onBegin(_config: unknown, suite: Suite): void {
    const pacts = new Set(suite.allTests().map((test) => test.parent.title));
    this.#print(`Verifying ${suite.allTests().length} interaction(s) of ${pacts.size} pact(s):`);
  }

  onStdOut(chunk: string | Buffer): void {
    this.#write(chunk);
  }

  onStdErr(chunk: string | Buffer): void {
    this.#write(chunk);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    // A retried test speaks once, for its last attempt.
    if (result.retry < test.retries && result.status !== 'passed' && result.status !== 'skipped') return;
    const name = `${test.parent.title} › ${test.title}`;
    if (result.status === 'passed') {
      this.#counts.verified++;
      this.#print(`  ✓ ${name}`);
    } else if (result.status === 'skipped') {
      this.#counts.skipped++;
      const reason = test.annotations.find((a) => a.type === 'skip')?.description ?? 'skipped';
      // A message interaction (annotated so by the verification) is said to be one; a reason that already says "not verified" is not said twice.
      const message = test.annotations.some((a) => a.type === 'pact message');
      this.#print(`  - ${name}: not verified${message ? ' (a message interaction)' : ''}: ${reason.replace(/^[\w ]*not verified: /, '')}`);
    } else {
      this.#counts.failed++;
      const where = test.annotations.find((a) => a.type === 'pact interaction')?.description;
      this.#print(`  ✘ ${name}${where ? ` (interaction ${this.#shown(where)})` : ''}`);
      for (const line of failureLines(result)) this.#print(`      ${line}`);
    }
  }

  async onEnd(result: FullResult): Promise<void> {
    const { verified, failed, skipped } = this.#counts;
    this.#print(`${verified} verified, ${failed} failed, ${skipped} not verified${result.status === 'interrupted' ? ' (interrupted)' : ''}`);
    if (failed > 0 || skipped > 0)
      this.#print(
        `Pact's full report of each interaction: JUnit and Allure results in ${relative(callerDir(), reportsDir()) || '.'}; its output in ${this.#shown(this.#outputLog)}`,
      );
    await new Promise<void>((resolve) => (this.#log ? this.#log.end(resolve) : resolve()));
  }

  /** A path from where the command was run (the team's folder), as the team wrote it. */
  #shown(text: string): string {
    return text.replace(/\/[^\s]+/g, (path) => {
      const shown = relative(callerDir(), path);
      return shown.startsWith('..') ? path : `./${shown}`;
    });
  }

  #write(chunk: string | Buffer): void {
    if (!this.#log) {
      mkdirSync(dirname(this.#outputLog), { recursive: true });
      this.#log = createWriteStream(this.#outputLog, { flags: 'w' });
    }
    this.#log.write(chunk);
  }
}

/** A failure's message, without colour codes or a stack, cut to MAX_FAILURE_LINES. */
export function failureLines(result: Pick<TestResult, 'errors'>): string[] {
  const message = stripVTControlCharacters(result.errors[0]?.message ?? 'failed without a message').replace(/^\w*Error: /, '');
  const lines = message.split('\n').filter((line) => line.trim().length > 0);
  if (lines.length <= MAX_FAILURE_LINES) return lines;
  return [...lines.slice(0, MAX_FAILURE_LINES - 1), `… ${lines.length - MAX_FAILURE_LINES + 1} more line(s) in the report`];
}
