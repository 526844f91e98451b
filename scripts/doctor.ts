/**
 * `npm run doctor`: checks a live setup before a live run (the variables, the
 * allow-list, that each configured API's host answers, that the token and the
 * User-Agent are accepted, that the store id is the token's, whether writes are
 * allowed and the media account allows adult content) and prints a checklist
 * with the fix for each problem, never a secret. src/doctor/ holds the checks.
 *
 *   HARNESS_TARGET=live STORE_ID=… STORE_ACCESS_TOKEN=… … npm run doctor
 *
 * Exit 0: a live run could succeed; 1: it could not; 2: the configuration is refused.
 * On the twins (HARNESS_TARGET unset or twin) there is nothing to check: exit 0.
 */
import { loadConfig } from '../src/config/harnessConfig.ts';
import { formatChecklist } from '../src/doctor/formatChecklist.ts';
import { runDoctor } from '../src/doctor/runDoctor.ts';

/** Runs the checks, prints the checklist, and gives the exit code. */
export async function doctorCommand(): Promise<number> {
  const report = await runDoctor(() => loadConfig());
  process.stdout.write(formatChecklist(report));
  return report.exitCode;
}

if (import.meta.main) process.exitCode = await doctorCommand();
