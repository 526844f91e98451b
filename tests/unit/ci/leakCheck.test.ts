import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { leakedFiles } from '../../../src/ci/leakCheck.ts';

let dir: string;
test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'leak-check-'));
  mkdirSync(join(dir, 'allure-results'));
  writeFileSync(join(dir, 'allure-results', 'a-result.json'), JSON.stringify({ header: 'Authentication: bearer live-store-token-1234' }));
  writeFileSync(join(dir, 'clean.md'), 'Authentication: bearer redacted-0a1b2c3d');
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the files that hold a live token are named, and nothing is found without tokens in the environment', () => {
  expect(leakedFiles([dir], { STORE_ACCESS_TOKEN: 'live-store-token-1234' })).toEqual([join(dir, 'allure-results', 'a-result.json')]);
  expect(leakedFiles([dir], { KITSU_ACCESS_TOKEN: 'another-token-5678' })).toEqual([]);
  expect(leakedFiles([dir], {})).toEqual([]);
});

test("each team's app token in STORE_TEAM_SANDBOXES is looked for too; a value that does not parse adds none", () => {
  const teams = JSON.stringify({ 'sync-app': { storeId: '100001', token: 'live-store-token-1234' }, 'menu-app': { storeId: '100002', token: 'other-5678' } });
  expect(leakedFiles([dir], { STORE_TEAM_SANDBOXES: teams })).toEqual([join(dir, 'allure-results', 'a-result.json')]);
  expect(leakedFiles([dir], { STORE_TEAM_SANDBOXES: '{not json' })).toEqual([]);
});

test('a token shorter than 4 characters is not looked for (it would match everywhere)', () => {
  expect(leakedFiles([dir], { STORE_ACCESS_TOKEN: 'a' })).toEqual([]);
});
