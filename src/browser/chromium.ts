/**
 * The one place that knows which chromium the harness drives. In this order:
 *   1. CHROMIUM_PATH, when set;
 *   2. a system chromium on PATH (chromium, chromium-browser);
 *   3. on Linux x64, the chromium the devDependency @sparticuz/chromium ships
 *      inside its npm package, unpacked on first use (bundledChromium.ts): a
 *      machine needs nothing but `npm ci`;
 *   4. on macOS, Windows and Linux arm64, Playwright's own browser (no
 *      executablePath), there once `npx playwright install chromium` has run.
 * Anything else is an error that names the fix (CHROMIUM_PATH).
 */
import { accessSync, constants } from 'node:fs';
import { posix, win32 } from 'node:path';
import type { LaunchOptions } from '@playwright/test';
import { bundledChromium } from './bundledChromium.ts';
import { processEnv } from '../config/env.ts';

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

/** What the choice depends on: the environment, the platform, and which files are executable. */
export interface ChromiumHost {
  readonly env: NodeJS.ProcessEnv;
  readonly platform: NodeJS.Platform;
  readonly arch: string;
  isExecutable(path: string): boolean;
}

/** The browser to launch, and where it was found. */
export type ChromiumChoice =
  | { readonly source: 'CHROMIUM_PATH' | 'PATH'; readonly executablePath: string }
  /** @sparticuz/chromium's binary: its path is known once it is unpacked. */
  | { readonly source: 'bundled' }
  /** Playwright's own download: no executablePath. */
  | { readonly source: 'playwright' };

const NAMES = ['chromium', 'chromium-browser'];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** This machine. */
export function currentHost(): ChromiumHost {
  return { env: processEnv(), platform: process.platform, arch: process.arch, isExecutable };
}

/** The first chromium on the host's PATH, or undefined. */
function onPath(host: ChromiumHost): string | undefined {
  const [paths, suffix] = host.platform === 'win32' ? [win32, '.exe'] : [posix, ''];
  for (const dir of (host.env.PATH ?? '').split(paths.delimiter).filter(Boolean)) {
    for (const name of NAMES) {
      const candidate = paths.join(dir, name + suffix);
      if (host.isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** Which chromium to launch on this host (see the order above); throws, naming the fix, when there is none. */
export function chooseChromium(host: ChromiumHost): ChromiumChoice {
  const named = host.env.CHROMIUM_PATH?.trim();
  if (named) {
    if (host.isExecutable(named)) return { source: 'CHROMIUM_PATH', executablePath: named };
    throw new Error(
      `CHROMIUM_PATH is "${named}", which is not an executable file: point it at a chromium binary, or unset it to use the one the harness finds.`,
    );
  }
  const found = onPath(host);
  if (found) return { source: 'PATH', executablePath: found };
  if (host.platform === 'linux' && host.arch === 'x64') return { source: 'bundled' };
  if (host.platform === 'darwin' || host.platform === 'win32' || (host.platform === 'linux' && host.arch === 'arm64')) return { source: 'playwright' };
  throw new Error(
    `No chromium for ${host.platform}-${host.arch}: @sparticuz/chromium ships one for Linux x64 only, and Playwright has none for this platform. Set CHROMIUM_PATH to a chromium binary, or put chromium on PATH.`,
  );
}

/**
 * Playwright launch options for the chosen chromium, with the container flags.
 * Async: the bundled chromium may have to be unpacked first (once per install).
 */
export async function chromiumLaunchOptions(host: ChromiumHost = currentHost()): Promise<LaunchOptions> {
  const choice = chooseChromium(host);
  const args = [...CHROMIUM_ARGS];
  switch (choice.source) {
    case 'CHROMIUM_PATH':
    case 'PATH':
      return { executablePath: choice.executablePath, args };
    case 'bundled': {
      const bundled = await bundledChromium();
      return { executablePath: bundled.executablePath, args, ...(bundled.libraryPath ? { env: withLibraryPath(host.env, bundled.libraryPath) } : {}) };
    }
    case 'playwright':
      return { args };
  }
}

/** The host's environment with `dir` searched first for shared libraries. */
function withLibraryPath(env: NodeJS.ProcessEnv, dir: string): Record<string, string> {
  const defined = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return { ...defined, LD_LIBRARY_PATH: [dir, env.LD_LIBRARY_PATH].filter(Boolean).join(':') };
}
