/**
 * Playwright's global setup for a live or record run: makes the file in which the store clients of every worker share
 * what a 429 showed of a store's rate headers (src/clients/store/pacerLessons.ts), before the first worker starts
 * (workers inherit the environment), and removes it when the run ends. A global setup, not a reporter: a run with
 * reporters of its own on the command line (npm run breaks) learns once too.
 */
import { harnessConfig } from '../config/harnessConfig.ts';
import { processEnv } from '../config/env.ts';
import { PACER_LESSONS_VARIABLE } from '../clients/store/pacerLessons.ts';
import { shareWithWorkers } from '../reporters/runSharedFile.ts';

export default function pacerLessonsSetup(): (() => void) | undefined {
  if (harnessConfig().liveRequestBudget === undefined) return undefined;
  const file = shareWithWorkers('pacer-lessons', PACER_LESSONS_VARIABLE, processEnv());
  return () => file.remove();
}
