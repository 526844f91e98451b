import { existsSync, readFileSync } from 'node:fs';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { NEEDED_NODE } from '../../../src/config/nodeVersion.ts';

const README = readFileSync('README.md', 'utf8');
/** The bound: a page a newcomer and a team lead read whole; the rest lives in docs/. */
const MAX_WORDS = 2000;

test(`the README is at most ${MAX_WORDS} words`, () => {
  const words = README.split(/\s+/).filter(Boolean).length;
  expect(words, 'move detail to docs/ and link it').toBeLessThanOrEqual(MAX_WORDS);
});

test("a team reads which Node it needs and what each command's exit codes mean before the checkout's own commands", () => {
  const team = README.indexOf('## For an integration team');
  const checkout = README.indexOf('## Every command of a checkout');
  expect(team, 'the team section').toBeGreaterThan(0);
  expect(team, "the team section comes before the checkout's commands").toBeLessThan(checkout);
  const section = README.slice(team, checkout);
  expect(section).toContain(`Node ${NEEDED_NODE.replace(/\.0$/, '')} or newer`);
  for (const command of ['pact-verify', 'twins', 'doctor']) {
    const row = section.split('\n').find((line) => line.startsWith(`| \`npx api-contract-harness ${command}`));
    expect(row?.split('|').at(-2), `${command}'s exit codes, in the table's last column`).toMatch(/; 2 /);
  }
});

test('every page the README links exists', () => {
  const links = [...README.matchAll(/\]\(((?:docs|examples)\/[^)#]+|[A-Z]+\.md)(?:#[^)]*)?\)/g)].map((m) => m[1]!);
  expect(links.length).toBeGreaterThan(5);
  for (const link of links) expect(existsSync(link), `${link} is linked from the README`).toBe(true);
});
