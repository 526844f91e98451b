/**
 * npm runs this as `prepare`: at `npm pack`, when the harness is installed from a git URL, and after `npm ci` in a
 * checkout. It writes the harness compiled to JavaScript in dist/, a mirror of the checkout's
 * tree (tsconfig.build.json), with the data files the harness reads from its own folder beside it: the
 * contract schemas, the recordings' normalisation rules and the harness's own pacts. Node strips no types
 * under node_modules, so an installed harness runs only what is compiled here.
 */
import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { dependencyFile } from '../src/config/harnessRoot.ts';
import { variable } from '../src/config/env.ts';

const DIST = 'dist';

/** The data the compiled harness reads from its own folder (HARNESS_ROOT), by path from the checkout. */
export const PACKAGED_DATA = [
  'contracts/store/schemas',
  'contracts/media/schemas',
  'contracts/store/normalisation.json',
  'contracts/media/normalisation.json',
  'contracts/pacts',
] as const;

export function buildPackage(): number {
  rmSync(DIST, { recursive: true, force: true });
  const tsc = spawnSync(process.execPath, [dependencyFile('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  if (tsc.status !== 0) {
    // A package is never made from code that does not type-check; a checkout's npm ci still installs (npm run lint names the errors).
    const packing = variable('npm_command') === 'pack' || variable('npm_command') === 'publish';
    console.error(
      `buildPackage: tsc -p tsconfig.build.json found type errors (above)${packing ? ': fix them, then npm pack again.' : '; dist/ is not fit to pack.'}`,
    );
    if (packing) return 1;
  }
  for (const path of PACKAGED_DATA) cpSync(path, join(DIST, path), { recursive: true });
  const compiled = readdirSync(DIST, { recursive: true }).filter((name) => String(name).endsWith('.js')).length;
  if (!existsSync(join(DIST, 'scripts/bin.js'))) {
    console.error('buildPackage: dist/scripts/bin.js (the bin) was not written: check "include" in tsconfig.build.json.');
    return 1;
  }
  console.log(`buildPackage: ${compiled} modules compiled into ${DIST}/, with ${PACKAGED_DATA.length} data folders and files`);
  return 0;
}

if (import.meta.main) process.exitCode = buildPackage();
