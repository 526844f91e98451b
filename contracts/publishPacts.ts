/**
 * Publishing what consumer tests wrote: each pact in `from` replaces its
 * committed copy in `to` with one rename, and only when it changed, so a run
 * beside this one reads either the old pact or the new one, never a missing or
 * partial file. Used by contracts/pacts.publish.ts and examples/pacts.publish.ts.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The pact files (`*.json`) in `dir`; none when it does not exist. */
const pactFiles = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.json')) : []);

/** Moves each changed pact of `from` into `to`; answers the names `from` held. */
export function publishPacts(from: string, to: string): string[] {
  const written = pactFiles(from);
  mkdirSync(to, { recursive: true });
  for (const name of written) {
    const text = readFileSync(join(from, name), 'utf8');
    const target = join(to, name);
    if (existsSync(target) && readFileSync(target, 'utf8') === text) continue;
    const staged = `${target}.${process.pid}.tmp`;
    writeFileSync(staged, text);
    renameSync(staged, target);
  }
  return written;
}
