/**
 * A file the run's main process shares with every worker it starts: made empty before the first worker, its path
 * handed down in `variable` (workers inherit the main process's environment), removed when the run ends. The live
 * request ledger (RequestBudgetReporter) and the declared outages (ProviderOutageReporter) are such files.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RunSharedFile {
  readonly path: string;
  remove(): void;
}

export function shareWithWorkers(name: string, variable: string, workerEnv: NodeJS.ProcessEnv): RunSharedFile {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  const path = join(dir, name);
  writeFileSync(path, '');
  workerEnv[variable] = path;
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
