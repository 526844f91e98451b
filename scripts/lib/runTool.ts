/**
 * Runs a package's command line with this very Node (process.execPath), not
 * whatever `node` is first on PATH: outside `npm run` that may be the machine's
 * older Node, which the tools here do not support.
 */
import { spawn } from 'node:child_process';

const TOOLS = {
  playwright: 'node_modules/@playwright/test/cli.js',
  allure: 'node_modules/allure/cli.js',
} as const;

export type Tool = keyof typeof TOOLS;

export function runTool(tool: Tool, args: string[], env: NodeJS.ProcessEnv = {}, quiet = false): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TOOLS[tool], ...args], {
      stdio: quiet ? 'ignore' : 'inherit',
      env: { ...process.env, PACT_DO_NOT_TRACK: 'true', ...env },
    });
    child.on('error', () => resolve(1));
    child.on('exit', (code) => resolve(code ?? 1));
  });
}
