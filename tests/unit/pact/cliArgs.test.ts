/**
 * `npx api-contract-harness`: what it reads from the caller's folder before the harness runs from its own
 * (scripts/cli.ts). A wrong path or option is a usage error naming the path as resolved, exit 2, before any request.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { cli, pactVerifyArgs } from '../../../scripts/cli.ts';

function teamFolder(): string {
  const team = mkdtempSync(join(tmpdir(), 'cli-team-'));
  mkdirSync(join(team, 'pacts'));
  writeFileSync(join(team, 'pact-states.ts'), 'export default {};\n');
  return team;
}

test("paths are read from the caller's folder and handed on absolute; --out and --target become settings, the rest passes", () => {
  const team = teamFolder();
  const read = pactVerifyArgs(['--pact', './pacts', '--states', 'pact-states.ts', '--provider', 'store', '--target', 'replay', '--', '--grep', 'x'], team);
  expect(read).toEqual({
    args: ['--pact', join(team, 'pacts'), '--states', join(team, 'pact-states.ts'), '--provider', 'store', '--', '--grep', 'x'],
    out: join(team, 'reports/api-contract-harness'),
    target: 'replay',
  });
  expect(pactVerifyArgs(['--out', 'build/contracts'], team).out).toBe(join(team, 'build/contracts'));
});

test('a missing path, a bad target, an --out inside node_modules and a flag without its value are refused naming the fix', () => {
  const team = teamFolder();
  expect(() => pactVerifyArgs(['--states', './nope.ts'], team)).toThrow(`--states ./nope.ts: no such file or directory (looked for ${join(team, 'nope.ts')})`);
  expect(() => pactVerifyArgs(['--pact', 'missing'], team)).toThrow(join(team, 'missing'));
  expect(() => pactVerifyArgs(['--target', 'staging'], team)).toThrow('--target is one of twin, replay, live, record, not "staging"');
  expect(() => pactVerifyArgs(['--out', 'node_modules/x'], team)).toThrow('not one inside node_modules');
  expect(() => pactVerifyArgs(['--pact'], team)).toThrow('--pact needs a value');
});

test('an unknown command exits 2 and names the commands; --help exits 0', async () => {
  const errors: string[] = [];
  const logs: string[] = [];
  const { error, log } = console;
  console.error = (line: string) => errors.push(line);
  console.log = (line: string) => logs.push(line);
  try {
    expect(await cli(['frobnicate'])).toBe(2);
    expect(await cli(['--help'])).toBe(0);
  } finally {
    Object.assign(console, { error, log });
  }
  expect(errors.join('\n')).toContain('unknown command "frobnicate". The commands are pact-verify, twins, doctor, webhooks.');
  expect(logs.join('\n')).toMatch(/pact-verify --pact <file\|dir>[\s\S]*HARNESS_TARGET/);
});
