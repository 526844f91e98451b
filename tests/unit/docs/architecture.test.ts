/**
 * docs/architecture.md names the folders the harness is made of: a folder it names that is gone fails here,
 * and so does a folder of src/ that neither its picture nor its folder table shows.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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

/** The text of a `## <heading>` section, up to the next `## ` heading. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n## ${heading}\n`);
  expect(start, `docs/architecture.md has a "## ${heading}" section`).toBeGreaterThanOrEqual(0);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

test('every folder directly under src/ is in the picture or the folder table of docs/architecture.md', () => {
  const text = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const picture = /```\n([\s\S]*?)```/.exec(section(text, 'The picture'))?.[1] ?? '';
  const table = section(text, 'Folders')
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .join('\n');
  expect(picture.length, 'the picture is a fenced block').toBeGreaterThan(0);
  const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `src/${entry.name}/`);
  expect(folders.length).toBeGreaterThan(10);
  const missing = folders.filter((folder) => !picture.includes(folder) && !table.includes(`\`${folder}\``));
  expect(missing, 'folders of src/ that docs/architecture.md neither draws nor lists in its Folders table: add a line saying what each is for').toEqual([]);
});
