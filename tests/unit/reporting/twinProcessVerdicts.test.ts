/**
 * npm test runs the suites' live-capable tests once, against twin processes, and
 * counts those verdicts as the twins' only when the twin processes were held to
 * what the twins' own run asserts (each proof once, nothing given up).
 */
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { joinTwinProcessCoverage, twinProcessVerdicts } from '../../../src/reporting/twinProcessVerdicts.ts';
import { parseRunReport } from '../../../src/testing/providerBreaks/runReport.ts';
import { ruleTestParts, ruleTestMeta } from '../../../src/testing/ruleTest.ts';
import { STORE_RULES } from '../../../src/rules/storeRules.ts';
import type { Target } from '../../../src/config/harnessConfig.ts';

type Result = { status: string; annotations?: { type: string; description?: string }[] };
/** Playwright's JSON reporter's test status for one result's. */
const TEST_STATUS: Record<string, string> = { passed: 'expected', skipped: 'skipped', failed: 'unexpected' };
const spec = (title: string, tags: string[], result: Result, project = 'store') => ({
  title,
  tags,
  tests: [{ projectName: project, status: TEST_STATUS[result.status], annotations: [], results: [result] }],
});
/** A Playwright JSON report of these specs, read as the gate reads gate-record.json. */
const report = (...specs: ReturnType<typeof spec>[]) => parseRunReport(JSON.stringify({ suites: [{ suites: [{ specs }] }] }));

test('a live-capable test that passed outright on the twin processes counts; every leniency a real provider is allowed is a problem here', () => {
  const { verified, problems } = twinProcessVerdicts(
    report(
      spec('clean', ['live-capable', 'contract'], { status: 'passed' }),
      spec('observed', ['live-capable', 'field-notes'], { status: 'passed', annotations: [{ type: 'observation', description: 'x: differs' }] }),
      spec('known defect', ['live-capable', 'contract'], { status: 'passed', annotations: [{ type: 'known-defect', description: 'y: 500' }] }),
      spec('unverified', ['live-capable', 'contract'], { status: 'passed', annotations: [{ type: 'not-verified', description: 'z: too few' }] }),
      spec('skipped', ['live-capable', 'contract'], { status: 'skipped' }),
      spec('failed', ['live-capable', 'contract'], { status: 'failed' }, 'media'),
      spec('twin-only, skipped as it must be', ['twin-only', 'contract'], { status: 'skipped' }),
      spec('not recorded', ['live-capable', 'not-recorded'], { status: 'skipped' }),
      spec('another project', ['live-capable', 'contract'], { status: 'skipped' }, 'properties'),
    ),
    ['store', 'media'],
  );
  expect([...verified]).toEqual(['store\u0000clean']);
  expect(problems).toEqual([
    '[store] observed: observation: x: differs',
    '[store] known defect: known-defect: y: 500',
    '[store] unverified: not-verified: z: too few',
    '[store] skipped: skipped',
    '[media] failed: failed',
  ]);
});

test("the joined coverage adds only the verified tests' verdicts, marked as run on a twin process", () => {
  const twin = { target: 'twin', rules: { 'store.a': [{ title: 'own', project: 'store', status: 'passed' }] } };
  const record = {
    target: 'record',
    rules: {
      'store.a': [{ title: 'clean', project: 'store', status: 'passed' }],
      'store.b': [
        { title: 'clean', project: 'store', status: 'passed' },
        { title: 'observed', project: 'store', status: 'observation' },
      ],
      'store.c': [{ title: 'twin only', project: 'store', status: 'skipped', reason: 'needs the twin' }],
    },
  };
  const joined = joinTwinProcessCoverage(twin, record, new Set(['store\u0000clean']));
  expect(joined).toEqual({
    target: 'twin',
    rules: {
      'store.a': [
        { title: 'own', project: 'store', status: 'passed' },
        { title: 'clean', project: 'store, twin process', status: 'passed' },
      ],
      'store.b': [{ title: 'clean', project: 'store, twin process', status: 'passed' }],
    },
  });
  expect(twin.rules['store.a'], 'the twins’ own file is left as it was').toHaveLength(1);
});

test('a variant that needs the twin is tagged @twin-only and skipped elsewhere; one a recording cannot hold is tagged @not-recorded and skipped on record and replay', async () => {
  const liveCapable = 'store.localized.always-object';
  expect(ruleTestMeta(STORE_RULES, liveCapable, 'x').details.tag[0]).toBe('@live-capable');
  expect(ruleTestMeta(STORE_RULES, liveCapable, 'x', { needsTwin: 'a second store' }).details.tag[0]).toBe('@twin-only');
  expect(ruleTestMeta(STORE_RULES, liveCapable, 'x', { notRecorded: 'another origin' }).details.tag).toContain('@not-recorded');

  const outcome = async (options: { needsTwin?: string; notRecorded?: string }, target: Target) => {
    const skipped: string[] = [];
    let ran = false;
    const { run } = ruleTestParts(STORE_RULES, liveCapable, 'x', options, (reason) => void skipped.push(reason));
    await run({ target, allowWrites: true, hasToken: true }, { annotations: [] } as never, async () => {
      ran = true;
    });
    return ran ? 'ran' : `skipped: ${skipped.join()}`;
  };
  expect(await outcome({ needsTwin: 'a second store' }, 'twin')).toBe('ran');
  expect(await outcome({ needsTwin: 'a second store' }, 'live')).toBe('skipped: a second store');
  expect(await outcome({ notRecorded: 'another origin' }, 'live')).toBe('ran');
  expect(await outcome({ notRecorded: 'another origin' }, 'record')).toBe('skipped: another origin');
  expect(await outcome({ notRecorded: 'another origin' }, 'replay')).toBe('skipped: another origin');

  // Declared on the run's target, the same skips are in the test's details, where Playwright skips it without a worker.
  const declaredSkip = (options: { needsTwin?: string; notRecorded?: string }, target: Target) =>
    ruleTestParts(STORE_RULES, liveCapable, 'x', options, () => undefined, target).details.annotation.find((a) => a.type === 'skip')?.description;
  expect(declaredSkip({ needsTwin: 'a second store' }, 'twin')).toBeUndefined();
  expect(declaredSkip({ needsTwin: 'a second store' }, 'live')).toBe('a second store');
  expect(declaredSkip({ notRecorded: 'another origin' }, 'live')).toBeUndefined();
  expect(declaredSkip({ notRecorded: 'another origin' }, 'replay')).toBe('another origin');
  const twinRule = Object.values(STORE_RULES).find((rule) => rule.needs === 'twin')!;
  const running: string[] = [];
  await ruleTestParts(STORE_RULES, twinRule.id, 'x', {}, (reason) => void running.push(reason)).run(
    { target: 'live', allowWrites: true },
    { annotations: [] } as never,
    async () => undefined,
  );
  expect(ruleTestParts(STORE_RULES, twinRule.id, 'x', {}, () => undefined, 'live').details.annotation.find((a) => a.type === 'skip')?.description).toBe(
    running[0],
  );
});
