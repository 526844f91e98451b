import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../../../../src/testing/harnessTest.ts';
import { driftTrees, removeDriftTrees } from './driftTrees.ts';

test.afterAll(removeDriftTrees);

test('npm run drift without stored recordings says how to make them', () => {
  const { dir } = driftTrees();
  const missing = join(dir, 'nothing-here');
  const run = spawnSync(process.execPath, ['scripts/drift.ts', '--fresh', join(dir, 'fresh')], {
    env: { ...process.env, RECORDINGS_DIR: missing },
    encoding: 'utf8',
  });
  expect(run.status).toBe(2);
  expect(run.stderr).toContain(`the stored recordings directory ${missing} does not exist`);
  expect(run.stderr).toContain('npm run record');
  expect(existsSync(missing)).toBe(false);
});
