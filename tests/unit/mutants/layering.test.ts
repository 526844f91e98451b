import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

test('scripts/ and src/ import nothing from tests/ (the break set and its proxy live in src/testing/providerBreaks)', () => {
  const offenders = ['scripts', 'src'].flatMap(filesUnder).filter((file) => /from '(\.\.\/)+tests\//.test(readFileSync(file, 'utf8')));
  expect(offenders).toEqual([]);
});
