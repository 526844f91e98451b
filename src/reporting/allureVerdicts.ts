/**
 * Allure results for a run that is not Playwright's (the packaged pact-verify in one process,
 * contracts/verification/planReports.ts): one result per verdict, with the labels allureMeta.ts gives a
 * pact interaction under Playwright, so the report a QA engineer reads groups them the same way.
 * allure-js-commons builds them (its ReporterRuntime, what allure-playwright uses); each file is written once (UnsyncedWriter).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Status, type TestResult } from 'allure-js-commons';
import { FileSystemWriter, ReporterRuntime } from 'allure-js-commons/sdk/reporter';
import type { AllureMeta } from './allureMeta.ts';

export interface AllureVerdict {
  readonly name: string;
  /** Unique in the report (its history follows it from run to run). */
  readonly fullName: string;
  readonly meta: AllureMeta;
  readonly status: 'passed' | 'failed' | 'skipped';
  /** A failure's message or a skip's reason. */
  readonly message?: string;
  readonly start: number;
  readonly stop: number;
  readonly attachments: readonly { readonly name: string; readonly body: string; readonly contentType: string }[];
}

const STATUS = { passed: Status.PASSED, failed: Status.FAILED, skipped: Status.SKIPPED } as const;

/**
 * FileSystemWriter's files, each written once, without its fsync and rename: the results are read after the run
 * (npm run report), not watched while it runs, and its fsync of each file held the thread that writes them 7 to 20 ms
 * an interaction on a busy disk (docs/speed.md, the teams' pacts at scale).
 */
class UnsyncedWriter extends FileSystemWriter {
  readonly #dir: string;
  #made = false;

  constructor(resultsDir: string) {
    super({ resultsDir });
    this.#dir = resultsDir;
  }

  override writeAttachment(distFileName: string, content: Buffer): void {
    writeFileSync(this.#path(distFileName), content);
  }

  override writeResult(result: TestResult): void {
    writeFileSync(this.#path(`${result.uuid}-result.json`), JSON.stringify(result));
  }

  #path(name: string): string {
    if (!this.#made) mkdirSync(this.#dir, { recursive: true });
    this.#made = true;
    return join(this.#dir, name);
  }
}

export class AllureVerdicts {
  readonly #runtime: ReporterRuntime;

  constructor(resultsDir: string) {
    this.#runtime = new ReporterRuntime({ writer: new UnsyncedWriter(resultsDir) });
  }

  write(verdict: AllureVerdict): void {
    const { meta } = verdict;
    const uuid = this.#runtime.startTest({
      name: verdict.name,
      fullName: verdict.fullName,
      labels: meta.labels,
      links: meta.links,
      parameters: meta.parameters,
      ...(meta.description ? { description: meta.description } : {}),
      start: verdict.start,
    });
    for (const attachment of verdict.attachments)
      this.#runtime.writeAttachment(uuid, undefined, attachment.name, Buffer.from(attachment.body), { contentType: attachment.contentType });
    this.#runtime.updateTest(uuid, (result) => {
      result.status = STATUS[verdict.status];
      if (verdict.message) result.statusDetails = { message: verdict.message };
    });
    this.#runtime.stopTest(uuid, { stop: verdict.stop });
    this.#runtime.writeTest(uuid);
  }
}
