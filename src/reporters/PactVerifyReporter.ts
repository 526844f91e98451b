/**
 * The console of the harness's pact-verify when it runs under Playwright (HARNESS_CONSOLE=pact-verify with
 * Playwright's own arguments after `--`): the lines of pactVerifyConsole.ts, fed from Playwright's tests. Pact's
 * own output and every test's go to the log beside the reports; the whole report stays in JUnit and Allure.
 */
import type { FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { PactVerifyConsole, PROVIDER_NOTE, type PactVerifyConsoleOptions } from './pactVerifyConsole.ts';

export default class PactVerifyReporter implements Reporter {
  readonly #console: PactVerifyConsole;

  constructor(options: PactVerifyConsoleOptions) {
    this.#console = new PactVerifyConsole(options);
  }

  printsToStdio(): boolean {
    return true;
  }

  onBegin(_config: unknown, suite: Suite): void {
    const tests = suite.allTests();
    this.#console.begin(tests.length, new Set(tests.map((test) => test.parent.title)).size);
  }

  onStdOut(chunk: string | Buffer): void {
    this.#console.log(chunk);
  }

  onStdErr(chunk: string | Buffer): void {
    this.#console.log(chunk);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    // A retried test speaks once, for its last attempt.
    if (result.retry < test.retries && result.status !== 'passed' && result.status !== 'skipped') return;
    const status = result.status === 'passed' ? 'passed' : result.status === 'skipped' ? 'skipped' : 'failed';
    const annotation = (type: string) => test.annotations.find((a) => a.type === type)?.description;
    const reason = annotation('skip');
    const where = annotation('pact interaction');
    const note = annotation(PROVIDER_NOTE);
    const failure = result.errors[0]?.message;
    this.#console.verdict({
      pact: test.parent.title,
      description: test.title,
      status,
      message: test.annotations.some((a) => a.type === 'pact message'),
      ...(reason ? { reason } : {}),
      ...(where ? { where } : {}),
      ...(note ? { note } : {}),
      ...(failure ? { failure } : {}),
    });
  }

  async onEnd(result: FullResult): Promise<void> {
    await this.#console.end(result.status === 'interrupted');
  }
}
