import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { recordingsInStep } from '../../../src/recording/recordingsInStep.ts';

// A few of the shipped cassettes (normalised), with the shipped target.json.
const CASSETTES = [
  'store/products/store-products-crud-read-update-and-delete-one-product.json',
  'media/auth/media-auth-bearer-token-authorization-bearer-identifies-the-user.json',
];

const made: string[] = [];
test.afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function copyOfShipped(): string {
  const root = mkdtempSync(join(tmpdir(), 'in-step-'));
  made.push(root);
  cpSync('recordings/target.json', join(root, 'target.json'));
  for (const file of CASSETTES) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    cpSync(join('recordings', file), join(root, file));
  }
  return root;
}

function rewrite(root: string, file: string, change: (text: string) => string): void {
  writeFileSync(join(root, file), change(readFileSync(join(root, file), 'utf8')));
}

test('the same cassettes are in step', () => {
  const report = recordingsInStep(copyOfShipped(), copyOfShipped());
  expect(report).toEqual({ compared: CASSETTES.length, differences: [] });
});

test("another record run's token stand-ins and User-Agent are no difference", () => {
  const fresh = copyOfShipped();
  const target = JSON.parse(readFileSync(join(fresh, 'target.json'), 'utf8')) as { store: { token: string; userAgent: string }; media: { token: string } };
  const swaps: [string, string][] = [
    [target.store.token, 'redacted-00000001'],
    [target.media.token, 'redacted-00000002'],
    [target.store.userAgent, 'Another run (https://example.invalid/other)'],
  ];
  for (const file of [...CASSETTES, 'target.json']) rewrite(fresh, file, (text) => swaps.reduce((t, [from, to]) => t.replaceAll(from, to), text));
  expect(readFileSync(join(fresh, CASSETTES[1]!), 'utf8')).toContain('redacted-00000002');
  expect(recordingsInStep(copyOfShipped(), fresh).differences).toEqual([]);
});

test('a request that changed is named with the first line that differs', () => {
  const fresh = copyOfShipped();
  rewrite(fresh, CASSETTES[0]!, (text) => text.replace('"method": "PUT"', '"method": "PATCH"'));
  const { differences } = recordingsInStep(copyOfShipped(), fresh);
  expect(differences).toHaveLength(1);
  expect(differences[0]).toContain(CASSETTES[0]);
  expect(differences[0]).toMatch(/shipped "method": "PUT".*\| fresh "method": "PATCH"/);
});

test('a cassette no test records any more, and a new one, are both named', () => {
  const fresh = copyOfShipped();
  renameSync(join(fresh, CASSETTES[1]!), join(fresh, CASSETTES[1]!.replace('.json', '-renamed.json')));
  const { differences } = recordingsInStep(copyOfShipped(), fresh);
  expect(differences).toEqual([
    expect.stringMatching(/identifies-the-user\.json: shipped, but no test recorded it now/),
    expect.stringMatching(/identifies-the-user-renamed\.json: recorded now, but not shipped/),
  ]);
});
