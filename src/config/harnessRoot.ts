/**
 * Where the harness's own files are: a checkout (TypeScript, run by Node's type stripping) or an installed
 * package's dist/ (the same tree compiled to JavaScript, since Node strips no types under node_modules).
 * Whatever names a harness module to Playwright or to a child process names it through here, so one
 * config serves both.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder that holds src/, contracts/ and scripts/: the checkout, or the package's dist/. */
export const HARNESS_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** True when this is the compiled package (a .js file), false in a checkout. */
export const COMPILED = import.meta.url.endsWith('.js');

/**
 * The harness's own TypeScript in a checkout (the package has none: it is JavaScript, and under node_modules).
 * Playwright leaves these files to Node's type stripping (build.external in playwright.config.ts), as the scripts are.
 */
export const OWN_TYPESCRIPT: readonly RegExp[] = COMPILED
  ? []
  : [new RegExp(`^${HARNESS_ROOT.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}(?!node_modules[\\\\/]).*\\.ts$`)];

/** A harness module by its path from the root, without extension: `harnessModule('src/twins/main')`. */
export function harnessModule(path: string): string {
  return join(HARNESS_ROOT, `${path}.${COMPILED ? 'js' : 'ts'}`);
}

/** A dependency's file as the harness resolves it: a team's project may hold another version beside it. */
export function dependencyFile(specifier: string): string {
  return createRequire(import.meta.url).resolve(specifier);
}

/** A dependency's version as the harness resolves it. */
export function dependencyVersion(name: string): string {
  return (createRequire(import.meta.url)(`${name}/package.json`) as { version: string }).version;
}
