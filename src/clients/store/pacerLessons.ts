/**
 * The stores whose rate headers a 429 showed to lie, shared by every worker process of a run (Playwright starts a new
 * worker after each failed test): a pacer made after the lesson paces by the contract's bucket from its first request,
 * and the lesson is said once in the run, not once per worker. The run's main process makes the file
 * (src/testing/pacerLessonsSetup.ts, live and record runs); without it a process learns for itself alone.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { processEnv } from '../../config/env.ts';

/** The variable naming the run's file of lessons: one store base URL (printable, no token) per line, as JSON. */
export const PACER_LESSONS_VARIABLE = 'HARNESS_PACER_LESSONS';

/** Whether a pacer of another process of this run learned that this store's rate headers lie. */
export function learnedInThisRun(store: string): boolean {
  const file = processEnv()[PACER_LESSONS_VARIABLE];
  if (!file) return false;
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .some((line) => line !== '' && JSON.parse(line) === store);
  } catch {
    // The run ended, or a line was half written: this process learns for itself.
    return false;
  }
}

/** Tells the run's other processes: one line, appended whole (O_APPEND). */
export function shareLesson(store: string): void {
  const file = processEnv()[PACER_LESSONS_VARIABLE];
  if (file) appendFileSync(file, `${JSON.stringify(store)}\n`);
}
