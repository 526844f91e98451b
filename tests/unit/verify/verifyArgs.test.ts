import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { CATALOGUES } from '../../../src/rules/catalogues.ts';
import { closestIds, parseVerifyArgs, playwrightRun, ruleMatches, ruleTestList, VerifyArgsError, type ListedSuite } from '../../../src/verify/verifyArgs.ts';

const parse = (...argv: string[]) => parseVerifyArgs(argv, CATALOGUES);
const refusal = (...argv: string[]) => {
  try {
    parse(...argv);
  } catch (error) {
    if (error instanceof VerifyArgsError) return error.message;
    throw error;
  }
  return 'accepted';
};

test('--api and --rule are read in both spellings, the rest is left to Playwright', () => {
  expect(parse('--api', 'store', '--workers=1')).toEqual({ apis: ['store'], rules: [], narrowed: true, rest: ['--workers=1'] });
  expect(parse('--api=media,store').apis).toEqual(['media', 'store']);
  // A rule prefix chooses its API.
  expect(parse('-g', 'x', '--rule', 'store.pagination')).toEqual({ apis: ['store'], rules: ['store.pagination'], narrowed: true, rest: ['-g', 'x'] });
  expect(parse('--rule=media.errors,store.json.no-root-element').apis).toEqual(['media', 'store']);
  expect(parse()).toEqual({ apis: ['store', 'media'], rules: [], narrowed: false, rest: [] });
});

test('a rule prefix is whole parts of an id', () => {
  expect([
    ruleMatches('store.pagination.total-count', 'store.pagination'),
    ruleMatches('store.pagination.total-count', 'store.pagination.total-count'),
    ruleMatches('store.pagination.total-count', 'store.pag'),
    ruleMatches('store.paginationx.y', 'store.pagination'),
  ]).toEqual([true, true, false, false]);
});

test('an unknown API, a rule prefix that matches nothing, a missing value or a rule of another API is refused, naming the fix', () => {
  expect(refusal('--api', 'shop')).toBe('--api shop: no such API. Use store or media.');
  expect(refusal('--rule', 'store.pagnation')).toMatch(
    /^--rule store\.pagnation matches no rule of the catalogues \(src\/rules\)\. Closest: store\.pagination, /,
  );
  expect(refusal('--rule')).toMatch(/^--rule needs a value/);
  expect(refusal('--api', '--rule', 'store')).toMatch(/^--api needs a value: store or media/);
  expect(refusal('--api', 'media', '--rule', 'store.pagination')).toBe('--rule store.pagination is not a rule of --api media: drop one of the two.');
  expect(refusal('--rule', 'store.pagination')).toBe('accepted');
});

test('the closest ids to a prefix: those it begins first, then by edit distance', () => {
  const ids = ['store.pagination.total-count', 'store.pagination.link-full-urls', 'store.products.create', 'media.pagination.offset'];
  expect(closestIds('store.pagination.total', ids, 2)).toEqual(['store.pagination.total-count', 'store.pagination']);
  expect(closestIds('media.pagnation', ids, 1)).toEqual(['media.pagination']);
  expect(closestIds('stor', ids, 1)).toEqual(['store']);
});

test("one API runs its own projects and folders; the whole run, every project (but the properties on a replay) and no filter; a rule run, the test list's tests", () => {
  const media = playwrightRun(parse('--api', 'media'), 'twin');
  expect(media.args).toEqual([
    '--project=media',
    '--project=properties',
    '--project=contracts-verify',
    '--project=contracts-outside',
    'suites/media/',
    'properties/media/',
    'contracts/media/',
    'contracts/verification/',
  ]);
  expect(media.env).toEqual({ HARNESS_CONSOLE: 'verify', HARNESS_VERIFY_APIS: 'media' });
  const store = playwrightRun(parse('--api', 'store'), 'live');
  expect(store.args).toContain('--project=storefront');
  expect(store.args).not.toContain('--project=media');

  const all = playwrightRun(parse(), 'twin');
  // Every consumer's pact too: the harness's own (contracts-verify) and the others' (contracts-outside).
  expect(all.args).toEqual([
    '--project=store',
    '--project=storefront',
    '--project=properties',
    '--project=contracts-verify',
    '--project=contracts-outside',
    '--project=media',
  ]);
  expect(all.env).toEqual({ HARNESS_CONSOLE: 'verify' });
  // A replay has no cassettes of the properties' generated requests.
  expect(playwrightRun(parse(), 'replay').args).toEqual([
    '--project=store',
    '--project=storefront',
    '--project=contracts-verify',
    '--project=contracts-outside',
    '--project=media',
  ]);

  const rule = playwrightRun(parse('--rule', 'media.pagination'), 'record', 'reports/verify/tests.txt');
  expect(rule.args).toEqual([
    '--project=media',
    '--project=properties',
    '--project=contracts-verify',
    '--project=contracts-outside',
    '--test-list=reports/verify/tests.txt',
  ]);
  expect(rule.env).toEqual({ HARNESS_CONSOLE: 'verify', HARNESS_VERIFY_APIS: 'media', HARNESS_VERIFY_RULES: 'media.pagination' });
});

test('the test list names the tests whose rule annotations lie under a prefix, by project, file and title path', () => {
  const rule = (id: string) => ({ type: 'rule', description: id });
  const suites: ListedSuite[] = [
    {
      title: 'properties/store/pagination.spec.ts',
      specs: [
        {
          title: 'following Link next',
          file: 'properties/store/pagination.spec.ts',
          tests: [{ projectName: 'properties', annotations: [rule('store.pagination.follow-links')] }],
        },
      ],
      suites: [
        {
          title: 'a describe',
          specs: [
            {
              title: 'inside it',
              file: 'properties/store/pagination.spec.ts',
              tests: [{ projectName: 'properties', annotations: [rule('store.pagination.total-count')] }],
            },
            {
              title: 'a › in the title',
              file: 'properties/store/pagination.spec.ts',
              tests: [{ projectName: 'properties', annotations: [rule('store.pagination.total-count')] }],
            },
            {
              title: 'another area',
              file: 'properties/store/pagination.spec.ts',
              tests: [{ projectName: 'properties', annotations: [rule('store.products.create')] }],
            },
          ],
        },
      ],
    },
  ];
  expect(ruleTestList(suites, ['store.pagination'])).toEqual([
    '[properties] › properties/store/pagination.spec.ts › following Link next',
    '[properties] › properties/store/pagination.spec.ts › a describe › inside it',
    // A title holding the separator: its whole file.
    '[properties] › properties/store/pagination.spec.ts',
  ]);
  expect(ruleTestList(suites, ['media'])).toEqual([]);
});

test('--api media lists no store test and no store-only project, and --api store no media test (the config drops the other API as a dependency)', () => {
  const root = resolve(import.meta.dirname, '../../..');
  const listed = (api: string) => {
    const file = join(mkdtempSync(join(tmpdir(), 'verify-list-')), 'list.json');
    const { args, env } = playwrightRun(parse('--api', api), 'twin');
    const run = spawnSync(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', '--list', '--reporter=json', ...args], {
      cwd: root,
      env: { ...process.env, ...env, HARNESS_CONSOLE: '', PLAYWRIGHT_JSON_OUTPUT_NAME: file },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    const tests: string[] = [];
    const walk = (suite: ListedSuite) => {
      for (const spec of suite.specs ?? []) for (const t of spec.tests) tests.push(`${t.projectName} ${spec.file}`);
      for (const child of suite.suites ?? []) walk(child);
    };
    (JSON.parse(readFileSync(file, 'utf8')) as { suites: ListedSuite[] }).suites.forEach(walk);
    return tests;
  };
  const media = listed('media');
  // The consumer pacts of both APIs are written first (a dependency); the verification of the other API's is not run.
  expect(media.filter((t) => /^(store|storefront) |(suites|properties)\/store|contracts\/store\/verify\./.test(t))).toEqual([]);
  expect(media.some((t) => t.startsWith('media '))).toBe(true);
  const store = listed('store');
  expect(store.filter((t) => /^media |(suites|properties)\/media|contracts\/media\/verify\./.test(t))).toEqual([]);
  expect(store.some((t) => t.startsWith('storefront '))).toBe(true);
});
