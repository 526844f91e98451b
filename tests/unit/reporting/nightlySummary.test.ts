/** The nightly's "who tonight's breaks affect" (src/reporting/nightlySummary.ts) from the files verify, drift and the broker step leave. */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { nightlySummary, parseNightlyArgs } from '../../../src/reporting/nightlySummary.ts';

/** What drift found: the store's X-Main-Language gone from GET /categories. */
const MAIN_LANGUAGE_REMOVED = {
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
};

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
  write(join(dir, 'drift.json'), MAIN_LANGUAGE_REMOVED);
  const allure = join(dir, 'allure');
  mkdirSync(allure);
  write(join(allure, 'a-result.json'), { name: 'on every page', status: 'failed', labels: [{ name: 'story', value: 'store.pagination.total-count' }] });

  const { markdown, affected } = nightlySummary({
    verify: join(dir, 'verify.json'),
    drift: join(dir, 'drift.json'),
    plans: [join(dir, 'plan.json')],
    outcomes: [join(dir, 'outcomes')],
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

test("one job per sandbox: every job's plan and outcomes, its pacts found in its folder wherever the merge copied it", () => {
  const merged = mkdtempSync(join(tmpdir(), 'nightly-merged-'));
  const teamPact = JSON.parse(readFileSync('tests/fixtures/pacts/storefront-menu-store-commerce-api.json', 'utf8')) as { consumer: { name: string } };
  const args: string[] = [];
  for (const [job, consumer] of [
    ['nightly-broker-sandbox-1', 'menu-one'],
    ['nightly-broker-sandbox-2', 'menu-two'],
  ] as const) {
    const run = join(merged, 'pact-verify', job);
    mkdirSync(join(run, 'broker'), { recursive: true });
    mkdirSync(join(run, 'outcomes'));
    write(join(run, 'broker', 'store-commerce-api-1.json'), { ...teamPact, consumer: { name: consumer } });
    // The path as the job wrote it, on its own machine.
    write(join(run, 'plan.json'), { pacts: [{ path: `/home/runner/work/harness/harness/reports/pact-verify/${job}/broker/store-commerce-api-1.json` }] });
    write(join(run, 'outcomes', '1.json'), {
      pact: `${consumer} (latest from branch main) → store-commerce-api`,
      description: 'a request for the categories of a store with a tree',
      status: consumer === 'menu-one' ? 'failed' : 'passed',
      reason: "Expected header 'X-Main-Language' to be present",
    });
    args.push('--plan', join(run, 'plan.json'), '--outcomes', join(run, 'outcomes'));
  }
  const drift = join(merged, 'drift.json');
  write(drift, MAIN_LANGUAGE_REMOVED);
  const inputs = parseNightlyArgs(['--drift', drift, ...args]);
  expect(inputs.plans).toHaveLength(2);
  const { markdown, affected } = nightlySummary(inputs);
  expect(markdown).toContain("the broker's 2 pact(s) from 2 runs");
  expect(markdown).toContain('| menu-one (latest from branch main) → store-commerce-api | 0 | 1 | 0 | failure |');
  expect(markdown).toContain('| menu-two (latest from branch main) → store-commerce-api | 1 | 0 | 0 | success |');
  // The failed one is named by its failure; both pacts were read from the copied folders.
  expect(affected.flatMap((a) => a.consumers.map((c) => c.consumer))).toContain('menu-one');
});

test('the command line: each flag takes a path; anything else is refused, naming the flags', () => {
  expect(parseNightlyArgs(['--verify', 'v.json', '--pacts', 'a', '--pacts', 'b'])).toEqual({ verify: 'v.json', pacts: ['a', 'b'] });
  expect(parseNightlyArgs(['--plan', 'a/plan.json', '--outcomes', 'a/outcomes', '--plan', 'b/plan.json'])).toEqual({
    plans: ['a/plan.json', 'b/plan.json'],
    outcomes: ['a/outcomes'],
  });
  expect(() => parseNightlyArgs(['--verify'])).toThrow(/--verify needs a value/);
  expect(() => parseNightlyArgs(['--frob', 'x'])).toThrow(/unknown option --frob: give --verify, --drift/);
});
