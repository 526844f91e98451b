/**
 * The leak scan (src/recording/leakScan.ts) names every file holding a secret in any form it may be written in,
 * and only those: raw, URL-encoded, JSON-escaped, outside ASCII too; too short a secret is not looked for.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { leakScan, secretForms } from '../../../src/recording/leakScan.ts';

const SECRET = 'tok/en+"ñandú"';

test('a secret written raw, URL-encoded or JSON-escaped is found, in any folder; files without it are not named', () => {
  const root = mkdtempSync(join(tmpdir(), 'leak-scan-'));
  mkdirSync(join(root, 'deep', 'er'), { recursive: true });
  const files = {
    raw: join(root, 'raw.txt'),
    url: join(root, 'deep', 'url.log'),
    json: join(root, 'deep', 'er', 'cassette.json'),
    clean: join(root, 'clean.json'),
  };
  writeFileSync(files.raw, `Authentication: bearer ${SECRET}\n`);
  writeFileSync(files.url, `GET /oauth?code=${encodeURIComponent(SECRET)}`);
  writeFileSync(files.json, JSON.stringify({ token: SECRET }));
  writeFileSync(files.clean, JSON.stringify({ token: '<redacted>', near: SECRET.slice(0, -1) }));
  expect(leakScan([root], [SECRET]).sort()).toEqual([files.raw, files.url, files.json].sort());
  expect(leakScan([root, join(root, 'missing')], ['no-such-secret'])).toEqual([]);
});

test('each form is looked for once, and a secret under 4 characters not at all', () => {
  expect(secretForms(['abcd-1234']).map(String)).toEqual(['abcd-1234']);
  expect(secretForms([SECRET]).map(String)).toEqual([SECRET, encodeURIComponent(SECRET), JSON.stringify(SECRET).slice(1, -1)]);
  expect(secretForms(['abc', ''])).toEqual([]);
  expect(leakScan([tmpdir()], ['abc'])).toEqual([]);
});
