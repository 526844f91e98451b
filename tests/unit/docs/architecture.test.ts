/** docs/architecture.md names the folders the harness is made of: a folder it names that is gone fails here. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';

const ROOT = resolve(import.meta.dirname, '../../..');

test('every folder docs/architecture.md names exists', () => {
  const text = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  // Folder names end in a slash: `src/rules/`, `suites/<api>/` (a placeholder stands for any child).
  const named = [
    ...new Set(
      [...text.matchAll(/\b((?:src|suites|properties|contracts|recordings|scripts|bench|tests|docs|examples)(?:\/[\w<>*.-]+)*\/)/g)].map((m) => m[1]!),
    ),
  ];
  expect(named.length).toBeGreaterThan(15);
  const missing = named.filter((folder) => {
    const concrete = folder.split('/').filter(Boolean);
    const placeholder = concrete.findIndex((part) => /[<*]/.test(part));
    const path = join(ROOT, ...(placeholder === -1 ? concrete : concrete.slice(0, placeholder)));
    return !existsSync(path) || !statSync(path).isDirectory();
  });
  expect(missing, 'folders docs/architecture.md names but the repository lacks: update the picture or restore them').toEqual([]);
});
