/**
 * The leak scan: which files under the given directories hold a secret
 * (raw, URL-encoded or JSON-escaped). It names files, never the secret.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { secretsIn } from './redactRecording.ts';

export function leakScan(dirs: readonly string[], secrets: readonly string[]): string[] {
  if (secrets.length === 0) return [];
  const found: string[] = [];
  const walk = (path: string) => {
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const name of readdirSync(path)) walk(join(path, name));
    } else if (stat.size < 64 * 1024 * 1024 && secretsIn(readFileSync(path, 'latin1'), secrets).length > 0) {
      found.push(path);
    }
  };
  for (const dir of dirs) if (existsSync(dir)) walk(dir);
  return found;
}
