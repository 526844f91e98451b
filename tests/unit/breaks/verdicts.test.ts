import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { parseRunReport, runResult, judgeRun, type RunResult } from '../../../src/testing/providerBreaks/runReport.ts';
import { exitCodeOf, judgeBreak, judgeDeviation, markdownReport, pactVerdict, type Outcome } from '../../../src/testing/providerBreaks/verdicts.ts';

interface FakeTest {
  title: string;
  status: 'expected' | 'unexpected' | 'flaky' | 'skipped';
  rules?: string[];
  observations?: string[];
  message?: string;
}

/** A report shaped as Playwright's json reporter writes it. */
function report(tests: FakeTest[], errors: string[] = []): string {
  const spec = (t: FakeTest) => ({
    title: t.title,
    file: 'suites/store/x.spec.ts',
    tests: [
      {
        status: t.status,
        annotations: [...(t.rules ?? []).map((id) => ({ type: 'rule', description: id })), { type: 'spec', description: 'contract: Limits' }],
        results: [
          {
            status: t.status === 'unexpected' || t.status === 'flaky' ? 'failed' : t.status === 'skipped' ? 'skipped' : 'passed',
            ...(t.message ? { error: { message: t.message } } : {}),
            annotations: (t.observations ?? []).map((d) => ({ type: 'observation', description: d })),
          },
          ...(t.status === 'flaky' ? [{ status: 'passed', annotations: [] }] : []),
        ],
      },
    ],
  });
  return JSON.stringify({
    config: {},
    suites: [{ title: 'x.spec.ts', file: 'suites/store/x.spec.ts', specs: [], suites: [{ title: 'describe', specs: tests.map(spec) }] }],
    errors: errors.map((message) => ({ message })),
    stats: {},
  });
}

const ok = (tests: FakeTest[], exit?: number): RunResult =>
  judgeRun(exit ?? (tests.some((t) => t.status === 'unexpected' || t.status === 'flaky') ? 1 : 0), parseRunReport(report(tests)));
const passing: FakeTest = { title: 'store.json.snake-case-keys: keys', status: 'expected', rules: ['store.json.snake-case-keys'] };

test('rule ids come from the rule annotations, else from the title; the first line of a failure, without colour codes', () => {
  const parsed = parseRunReport(
    report([
      {
        title: 'store.pagination.total-count: on every page',
        status: 'unexpected',
        rules: ['store.pagination.total-count'],
        message: '\u001b[31mError: [store.pagination.total-count] no X-Total-Count\u001b[39m\n\nExpected: defined',
      },
      { title: 'store.timestamps.format: stamps', status: 'unexpected', message: 'Error: bad' },
      {
        title: 'a request for one category',
        status: 'unexpected',
        message:
          'PactMismatchError: The live store breaks the pact interaction "a request for one category". Pact\'s Verifier reported:\n\nFailures:\n\n1) Verifying ...\n    1.1) has status code 200\n           expected 200 but was 404\n    1.2) has a matching body\n',
      },
      {
        title: 'store.products.list: array',
        status: 'unexpected',
        rules: ['store.products.list'],
        message: 'Error: [contract schemas] 1 answer(s) break:\nGET /products (200) breaks store/product-list',
      },
      {
        title: 'store.products.filters: since_id',
        status: 'expected',
        rules: ['store.products.filters'],
        observations: ['store.products.filters: since_id ignored'],
      },
      { title: 'store.ratelimit.leak-rate: twin', status: 'skipped', rules: ['store.ratelimit.leak-rate'] },
      { title: 'media.x.y: flaky one', status: 'flaky', rules: ['media.x.y'], message: 'Error: once' },
    ]),
  );
  expect(parsed.tests.map((t) => [t.status, t.rules, t.message ?? null])).toEqual([
    ['failed', ['store.pagination.total-count'], 'Error: [store.pagination.total-count] no X-Total-Count'],
    ['failed', ['store.timestamps.format'], 'Error: bad'],
    ['failed', [], '1.1) has status code 200: expected 200 but was 404; 1.2) has a matching body'],
    ['failed', ['store.products.list'], 'Error: [contract schemas] 1 answer(s) break: GET /products (200) breaks store/product-list'],
    ['passed', ['store.products.filters'], null],
    ['skipped', ['store.ratelimit.leak-rate'], null],
    ['failed', ['media.x.y'], '(flaky) Error: once'],
  ]);
  expect(parsed.tests[4]!.observations).toEqual(['store.products.filters: since_id ignored']);
});

test('a missing or unreadable report, an exit code without a failed test, and a run that ran nothing are errors, not "nothing failed"', () => {
  const dir = mkdtempSync(join(tmpdir(), 'breaks-'));
  const missing = runResult(1, join(dir, 'none.json'));
  writeFileSync(join(dir, 'bad.json'), '{"suites": [');
  const unreadable = runResult(0, join(dir, 'bad.json'));
  writeFileSync(join(dir, 'good.json'), report([passing]));
  const good = runResult(0, join(dir, 'good.json'));
  const crashed = runResult(1, join(dir, 'good.json'));
  const results = [
    missing,
    unreadable,
    good,
    crashed,
    judgeRun(0, parseRunReport(report([{ ...passing, status: 'unexpected' }]))),
    judgeRun(0, parseRunReport(report([{ ...passing, status: 'skipped' }]))),
    judgeRun(1, parseRunReport(report([passing], ['Error: config failed to load']))),
  ];
  expect(results.map((r) => (r.ok ? 'ok' : r.error.replace(dir, '<dir>')))).toEqual([
    'the run (exit 1) wrote no report at <dir>/none.json',
    expect.stringContaining('the report <dir>/bad.json cannot be read:'),
    'ok',
    `the run exited 1 without a failed test (<dir>/good.json)`,
    'the run exited 0 although 1 test(s) failed (the report)',
    'no test ran (1 skipped): nothing was checked (the report)',
    'the run had errors outside its tests: Error: config failed to load',
  ]);
});

test('a break is caught only by a failed test of a rule it names; other red tests alone are the wrong rule', () => {
  const green = ok([passing]);
  const totalRed: FakeTest = {
    title: 'store.pagination.total-count: every page',
    status: 'unexpected',
    rules: ['store.pagination.total-count'],
    message: 'Error: x',
  };
  const schemaRed: FakeTest = {
    title: 'store.products.list: array',
    status: 'unexpected',
    rules: ['store.products.list'],
    message: 'Error: [contract schemas] 1 answer',
  };
  const pactRed: FakeTest = { title: 'a request for the first page of products, 30 per page', status: 'unexpected', message: 'PactMismatchError' };
  const rules = ['store.pagination.total-count'];
  const caught = judgeBreak(rules, { suites: ok([passing, totalRed, schemaRed]), pact: green });
  const wrong = judgeBreak(rules, { suites: ok([passing, schemaRed]), pact: ok([pactRed]) });
  const pactOnly = judgeBreak(rules, { suites: green, pact: ok([pactRed]) });
  const pactWithRule = judgeBreak(rules, { suites: green, pact: ok([{ ...pactRed, rules }]) });
  const observed = judgeBreak(['store.products.filters'], {
    suites: ok([
      {
        title: 'store.products.filters: since_id',
        status: 'expected',
        rules: ['store.products.filters'],
        observations: ['store.products.filters: since_id ignored'],
      },
    ]),
    pact: green,
  });
  const broken = judgeBreak(rules, { suites: { ok: false, error: 'the run exited 1 without a failed test' }, pact: green });
  expect(caught).toMatchObject({ verdict: 'caught', by: ['store.pagination.total-count'] });
  expect(caught.verdict === 'caught' && caught.tests.map((t) => t.title)).toEqual(['store.pagination.total-count: every page']);
  expect(wrong).toMatchObject({ verdict: 'wrong-rule' });
  expect(wrong.verdict === 'wrong-rule' && wrong.tests.map((t) => t.title)).toEqual(['store.products.list: array']);
  expect(pactOnly, 'a pact interaction without rule ids is shown beside the verdict, not counted').toMatchObject({ verdict: 'survived', observations: [] });
  expect(pactVerdict(ok([pactRed]))).toMatchObject({ verdict: 'red' });
  expect(pactWithRule, 'an interaction that carries the rule counts').toMatchObject({ verdict: 'caught', by: rules });
  expect(observed, 'an observation is not a catch').toEqual({ verdict: 'survived', observations: ['store.products.filters: since_id ignored'] });
  expect(broken).toEqual({ verdict: 'error', error: 'suites: the run exited 1 without a failed test' });
});

test('a deviation is tolerated only when the suites and the pact verification are both green; an observation is fine', () => {
  const observed: FakeTest = {
    title: 'store.products.create-201: 201',
    status: 'expected',
    rules: ['store.products.create-201'],
    observations: ['store.products.create-201: answered 200'],
  };
  const red: FakeTest = {
    title: 'store.http.content-type-required: text/plain',
    status: 'unexpected',
    rules: ['store.http.content-type-required'],
    message: 'Error: [store.http.content-type-required] POST answered 400, expected 415',
  };
  const pactRed: FakeTest = { title: 'a request to create a product with a localized name', status: 'unexpected', message: 'PactMismatchError: status 200' };
  expect(judgeDeviation({ suites: ok([passing, observed]), pact: ok([passing]) })).toEqual({
    verdict: 'green',
    observations: ['store.products.create-201: answered 200'],
  });
  const suitesRed = judgeDeviation({ suites: ok([passing, red]), pact: ok([passing]) });
  const pactIsRed = judgeDeviation({ suites: ok([passing]), pact: ok([passing, pactRed]) });
  expect(suitesRed.verdict === 'red' && suitesRed.tests.map((t) => [t.run, t.message])).toEqual([
    ['suites', 'Error: [store.http.content-type-required] POST answered 400, expected 415'],
  ]);
  expect(pactIsRed.verdict === 'red' && pactIsRed.tests.map((t) => [t.run, t.title])).toEqual([
    ['pact', 'a request to create a product with a localized name'],
  ]);
  expect(judgeDeviation({ suites: ok([passing]), pact: { ok: false, error: 'no report' } })).toEqual({
    verdict: 'error',
    error: 'pact verification: no report',
  });
});

test('the run exits non-zero when a break survives or is caught by the wrong rule, a deviation is red, or anything is an error', () => {
  const green = { verdict: 'green' } as const;
  const brk = (verdict: Outcome['verdict'], pact: { verdict: 'green' } | { verdict: 'error'; error: string } = green): Outcome =>
    ({ type: 'break', api: 'store', name: 'b', heldOut: false, kind: 'contract', what: 'w', rules: ['store.a.b'], verdict, pact, seconds: 1 }) as Outcome;
  const dev = (verdict: Outcome['verdict']): Outcome =>
    ({ type: 'deviation', api: 'store', name: 'd', heldOut: false, control: false, what: 'w', verdict, seconds: 1 }) as Outcome;
  const caught = brk({ verdict: 'caught', by: ['store.a.b'], tests: [] });
  const tolerated = dev({ verdict: 'green', observations: [] });
  expect(
    [
      [caught, tolerated],
      [caught, brk({ verdict: 'survived', observations: [] })],
      [caught, brk({ verdict: 'wrong-rule', tests: [] })],
      [caught, brk({ verdict: 'error', error: 'x' })],
      [brk({ verdict: 'caught', by: ['store.a.b'], tests: [] }, { verdict: 'error', error: 'no report' })],
      [tolerated, dev({ verdict: 'red', tests: [] })],
      [tolerated, dev({ verdict: 'error', error: 'x' })],
    ].map((outcomes) => exitCodeOf(outcomes)),
  ).toEqual([0, 1, 1, 1, 1, 1, 1]);
  const md = markdownReport([caught, tolerated], { seconds: 3, command: 'npm run breaks' });
  expect(md).toContain('| store | b: w | contract | `store.a.b` | caught by `store.a.b` |  | green |');
  expect(md).toContain('| store | d: w | green |  |');
});
