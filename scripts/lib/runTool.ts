/**
 * Runs a package's command line with this very Node (process.execPath), not
 * whatever `node` is first on PATH: outside `npm run` that may be the machine's
 * older Node, which the tools here do not support.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { processEnv } from '../../src/config/env.ts';
import { dependencyFile } from '../../src/config/harnessRoot.ts';

// Resolved from the harness, not the working folder: an installed harness runs with the team's folder as its own.
const TOOLS = {
  playwright: () => dependencyFile('@playwright/test/cli'),
  // The report builder is the checkout's only (not a dependency of the package).
  allure: () => 'node_modules/allure/cli.js',
} as const;

export type Tool = keyof typeof TOOLS;

/**
 * Where the output goes: the terminal (the default), nowhere, or a log file,
 * kept so it can be scanned for secrets afterwards, and shown too unless `echo`
 * is false (a run beside another would interleave its lines with the other's).
 */
export type ToolOutput = 'inherit' | 'ignore' | { readonly log: string; readonly echo: boolean };

export function runTool(tool: Tool, args: string[], env: NodeJS.ProcessEnv = {}, output: ToolOutput = 'inherit'): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TOOLS[tool](), ...args], {
      stdio: typeof output === 'string' ? output : ['inherit', 'pipe', 'pipe'],
      env: { ...processEnv(), PACT_DO_NOT_TRACK: 'true', ...env },
    });
    if (typeof output === 'object') {
      mkdirSync(dirname(output.log), { recursive: true });
      const log = createWriteStream(output.log, { flags: 'a' });
      const copy = (terminal: NodeJS.WriteStream) => (chunk: Buffer) => {
        if (output.echo) terminal.write(chunk);
        log.write(chunk);
      };
      child.stdout?.on('data', copy(process.stdout));
      child.stderr?.on('data', copy(process.stderr));
      child.on('close', () => log.end());
    }
    child.on('error', () => resolve(1));
    child.on('close', (code) => resolve(code ?? 1));
  });
}
