/**
 * What `npx api-contract-harness pact-verify` prints: one line per interaction, and under a failed one its short
 * account (the failure's message: contracts/verification/mismatchSummary.ts), never a stack inside the harness;
 * then the counts. Pact's own output goes to a log beside the reports. Written by the run in one process
 * (contracts/verification/planReports.ts) and, under Playwright, by PactVerifyReporter.ts.
 */
import { stripVTControlCharacters } from 'node:util';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname, relative } from 'node:path';
import { callerDir, reportsDir } from '../config/env.ts';

/** At most this many lines of one failure's message; the rest is in the report. */
const MAX_FAILURE_LINES = 24;

/** The annotation that says once, on the interaction's line, where its request went when not where the pact writes. */
export const PROVIDER_NOTE = 'sent to';

/** One interaction's verdict, as the console tells it. */
export interface InteractionLine {
  /** The pact's title (`consumer → provider`). */
  readonly pact: string;
  readonly description: string;
  readonly status: 'passed' | 'failed' | 'skipped';
  /** A skip's reason. */
  readonly reason?: string;
  /** A failure's message. */
  readonly failure?: string;
  /** Where the interaction is in the consumer's file (`3 of 9 in /path/pact.json`). */
  readonly where?: string;
  /** Whether it is a message interaction. */
  readonly message?: boolean;
  /** Said once after the name: where the request went, when not where the pact writes (a live store id mapped). */
  readonly note?: string;
}

export interface PactVerifyConsoleOptions {
  /** Where Pact's and the verification's own output go. */
  readonly outputLog: string;
  /** Where the lines go; the console unless given (a test passes its own). */
  readonly print?: (line: string) => void;
}

export class PactVerifyConsole {
  readonly #print: (line: string) => void;
  readonly #outputLog: string;
  #log: WriteStream | undefined;
  readonly counts = { verified: 0, failed: 0, skipped: 0 };

  constructor(options: PactVerifyConsoleOptions) {
    this.#print = options.print ?? ((line) => console.log(line));
    this.#outputLog = options.outputLog;
  }

  begin(interactions: number, pacts: number): void {
    this.#print(`Verifying ${interactions} interaction(s) of ${pacts} pact(s):`);
  }

  /** One line of the run's own (a table the run ends with), as it is. */
  line(text: string): void {
    this.#print(text);
  }

  /** Output for the log (Pact's report, a test's stdout), not the console. */
  log(chunk: string | Buffer): void {
    if (!this.#log) {
      mkdirSync(dirname(this.#outputLog), { recursive: true });
      this.#log = createWriteStream(this.#outputLog, { flags: 'w' });
    }
    this.#log.write(chunk);
  }

  verdict(line: InteractionLine): void {
    const name = `${line.pact} › ${line.description}${line.note ? ` (${line.note})` : ''}`;
    if (line.status === 'passed') {
      this.counts.verified++;
      this.#print(`  ✓ ${name}`);
    } else if (line.status === 'skipped') {
      this.counts.skipped++;
      // A reason that already says "not verified" is not said twice.
      const reason = (line.reason ?? 'skipped').replace(/^[\w ]*not verified: /, '');
      this.#print(`  - ${name}: not verified${line.message ? ' (a message interaction)' : ''}: ${reason}`);
    } else {
      this.counts.failed++;
      this.#print(`  ✘ ${name}${line.where ? ` (interaction ${this.#shown(line.where)})` : ''}`);
      for (const text of failureLines(line.failure)) this.#print(`      ${text}`);
    }
  }

  async end(interrupted = false): Promise<void> {
    const { verified, failed, skipped } = this.counts;
    this.#print(`${verified} verified, ${failed} failed, ${skipped} not verified${interrupted ? ' (interrupted)' : ''}`);
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
}

/** A failure's message, without colour codes or a stack, cut to MAX_FAILURE_LINES. */
export function failureLines(failure: string | undefined): string[] {
  const message = stripVTControlCharacters(failure ?? 'failed without a message').replace(/^\w*Error: /, '');
  const lines = message.split('\n').filter((line) => line.trim().length > 0);
  if (lines.length <= MAX_FAILURE_LINES) return lines;
  return [...lines.slice(0, MAX_FAILURE_LINES - 1), `… ${lines.length - MAX_FAILURE_LINES + 1} more line(s) in the report`];
}
