/**
 * The browser the harness drives: Debian's `chromium`, never one Playwright
 * downloads (no download outside the package registries works here). Found on
 * PATH, or named by CHROMIUM_PATH; `.ci/run` installs it when missing.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Flags for a headless run in a container: no sandbox, GPU or background traffic. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const NAMES = ['chromium', 'chromium-browser'];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The chromium binary (CHROMIUM_PATH, else the first on PATH), or undefined when there is none. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const named = env.CHROMIUM_PATH?.trim();
  if (named) return isExecutable(named) ? named : undefined;
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of NAMES) {
      const candidate = join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** Why no browser test can run here, and the fix; undefined when chromium is there. */
export function chromiumMissing(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (findChromium(env)) return undefined;
  const named = env.CHROMIUM_PATH?.trim();
  return named
    ? `CHROMIUM_PATH is "${named}", which is not an executable file. Point it at Debian's chromium (command -v chromium) or unset it.`
    : "No chromium on PATH. Install Debian's chromium (sudo apt-get install -y chromium) or set CHROMIUM_PATH to its binary; npx playwright install does not work here.";
}

/** Playwright launch options for Debian's chromium; without one, an executablePath whose launch error says how to install it. */
export function chromiumLaunchOptions(env: NodeJS.ProcessEnv = process.env): { executablePath: string; args: string[] } {
  return { executablePath: findChromium(env) ?? 'chromium-not-installed (apt-get install -y chromium)', args: [...CHROMIUM_ARGS] };
}
