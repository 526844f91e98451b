/** The nightly's "who tonight's breaks affect" (src/reporting/nightlySummary.ts) from the files verify, drift and the broker step leave. */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { nightlySummary, parseNightlyArgs } from '../../../src/reporting/nightlySummary.ts';

const write = (path: string, value: unknown) => writeFileSync(path, JSON.stringify(value));

test('with no step having left anything: nothing broke, and it says what it did not have', () => {
  const { markdown, affected } = nightlySummary({ verify: '/nowhere/a.json', drift: '/nowhere/d.json' });
  expect(affected).toEqual([]);
  expect(markdown).toContain('No contract or reliance rule failed, and drift found no contract break.');
  expect(markdown).toContain("From no npm run verify result, no drift report, no broker run's plan.");
});

test("verify's failed rule and drift's break, judged against every pact verified tonight, the broker's teams' too", () => {
  const dir = mkdtempSync(join(tmpdir(), 'nightly-summary-'));
  // A team's pact as the broker step saved it, and its outcome: its categories read failed tonight naming X-Main-Language.
  const teamPact = JSON.parse(readFileSync('tests/fixtures/pacts/storefront-menu-store-commerce-api.json', 'utf8')) as { consumer: { name: string } };
  write(join(dir, 'team.json'), { ...teamPact, consumer: { name: 'team-menu' } });
  write(join(dir, 'plan.json'), { pacts: [{ path: join(dir, 'team.json') }] });
  mkdirSync(join(dir, 'outcomes'));
  write(join(dir, 'outcomes', '1.json'), {
    pact: 'team-menu (latest from branch main) → store-commerce-api',
    description: 'a request for the categories of a store with a tree',
    status: 'failed',
    reason: "Expected header 'X-Main-Language' to be present",
  });
  write(join(dir, 'outcomes', '2.json'), {
    pact: 'team-menu (latest from branch main) → store-commerce-api',
    description: 'a request for a leaf category',
    status: 'passed',
  });
  write(join(dir, 'verify.json'), {
    breaks: [{ id: 'store.pagination.total-count', failingRequests: ['GET /v1/1/products?per_page=30 → 200'] }],
    verdicts: [],
  });
  write(join(dir, 'drift.json'), {
    apis: [
      {
        api: 'store',
        cassettes: [
          {
            findings: [
              {
                kind: 'contract-break',
                change: 'header-removed',
                route: 'GET /v1/<store>/categories?per_page=200',
                subject: 'X-Main-Language',
                message: 'header X-Main-Language removed',
              },
            ],
          },
        ],
      },
    ],
  });
  const allure = join(dir, 'allure');
  mkdirSync(allure);
  write(join(allure, 'a-result.json'), { name: 'on every page', status: 'failed', labels: [{ name: 'story', value: 'store.pagination.total-count' }] });

  const { markdown, affected } = nightlySummary({
    verify: join(dir, 'verify.json'),
    drift: join(dir, 'drift.json'),
    plan: join(dir, 'plan.json'),
    outcomes: join(dir, 'outcomes'),
    allure,
  });
  expect(affected.map((a) => [a.break.id, a.consumers.map((c) => c.consumer)])).toEqual([
    ['store.pagination.total-count', ['store-integration']],
    // The menus do not state the header; the team's failed on it tonight, so it is named, and the held-out menu is not.
    ['drift: GET /categories X-Main-Language', ['team-menu']],
  ]);
  expect(markdown).toContain('“a request for the categories of a store with a tree”: failed tonight: Expected header');
  expect(markdown).toContain('| team-menu (latest from branch main) → store-commerce-api | 1 | 1 | 0 | failure |');
  expect(markdown).toContain("From npm run verify, npm run drift, the broker's 1 pact(s).");
  expect(JSON.parse(readFileSync(join(allure, 'a-result.json'), 'utf8')).description).toContain('**store-integration**');
});

test('the command line: each flag takes a path; anything else is refused, naming the flags', () => {
  expect(parseNightlyArgs(['--verify', 'v.json', '--pacts', 'a', '--pacts', 'b'])).toEqual({ verify: 'v.json', pacts: ['a', 'b'] });
  expect(() => parseNightlyArgs(['--verify'])).toThrow(/--verify needs a value/);
  expect(() => parseNightlyArgs(['--frob', 'x'])).toThrow(/unknown option --frob: give --verify, --drift/);
});
