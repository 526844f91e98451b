/**
 * On a live or record run, makes the file in which the store clients of every worker share what a 429 showed of a
 * store's rate headers (src/clients/store/pacerLessons.ts), before the first worker starts; removes it at the end.
 * It prints nothing: the pacer that learns says so, once in the run.
 */
import type { Reporter } from '@playwright/test/reporter';
import { harnessConfig } from '../config/harnessConfig.ts';
import { processEnv } from '../config/env.ts';
import { PACER_LESSONS_VARIABLE } from '../clients/store/pacerLessons.ts';
import { shareWithWorkers, type RunSharedFile } from './runSharedFile.ts';

export default class PacerLessonsReporter implements Reporter {
  readonly #live: boolean;
  readonly #workerEnv: Record<string, string | undefined>;
  #file: RunSharedFile | undefined;

  constructor(options: { live?: boolean; workerEnv?: Record<string, string | undefined> } = {}) {
    this.#live = options.live ?? harnessConfig().liveRequestBudget !== undefined;
    this.#workerEnv = options.workerEnv ?? processEnv();
  }

  onBegin(): void {
    // Workers inherit this process's environment.
    if (this.#live) this.#file = shareWithWorkers('pacer-lessons', PACER_LESSONS_VARIABLE, this.#workerEnv);
  }

  printsToStdio(): boolean {
    return false;
  }

  onEnd(): void {
    this.#file?.remove();
  }
}
