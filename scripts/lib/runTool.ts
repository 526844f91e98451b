/**
 * Runs a package's command line with this very Node (process.execPath), not
 * whatever `node` is first on PATH: outside `npm run` that may be the machine's
 * older Node, which the tools here do not support.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

const TOOLS = {
  playwright: 'node_modules/@playwright/test/cli.js',
  allure: 'node_modules/allure/cli.js',
} as const;

export type Tool = keyof typeof TOOLS;

export function runTool(tool: Tool, args: string[], env: NodeJS.ProcessEnv = {}, quiet = false, logFile?: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TOOLS[tool], ...args], {
      // With a log file the output is shown and kept, so it can be scanned for secrets afterwards.
      stdio: quiet ? 'ignore' : logFile ? ['inherit', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, PACT_DO_NOT_TRACK: 'true', ...env },
    });
    if (logFile && !quiet) {
      mkdirSync(dirname(logFile), { recursive: true });
      const log = createWriteStream(logFile, { flags: 'a' });
      child.stdout?.on('data', (chunk: Buffer) => (process.stdout.write(chunk), log.write(chunk)));
      child.stderr?.on('data', (chunk: Buffer) => (process.stderr.write(chunk), log.write(chunk)));
      child.on('close', () => log.end());
    }
    child.on('error', () => resolve(1));
    child.on('close', (code) => resolve(code ?? 1));
  });
}
