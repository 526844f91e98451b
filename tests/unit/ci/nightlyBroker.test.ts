/**
 * The nightly's broker step and its run summary (.github/workflows/nightly.yml): every team's pact the broker selects
 * is verified on live after the harness's own checks, with the live guards and sandbox mode, and who tonight's breaks
 * affect is written from the files those steps leave, where the code puts them.
 */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { LIVE_SECRETS } from '../../../src/ci/workflowRules.ts';
import { outcomesDir } from '../../../contracts/broker/verificationResults.ts';
import { planPath } from '../../../contracts/verification/outsidePacts.ts';
import { parseNightlyArgs } from '../../../src/reporting/nightlySummary.ts';

const ROOT = resolve(import.meta.dirname, '../../..');

interface Step {
  id?: string;
  name?: string;
  if?: string;
  run?: string;
  env?: Record<string, string>;
}
const workflow = parse(readFileSync(resolve(ROOT, '.github/workflows/nightly.yml'), 'utf8')) as {
  jobs: { live: { env: Record<string, string>; steps: Step[] } };
};
const live = workflow.jobs.live;
const at = (find: (s: Step) => boolean) => live.steps.findIndex(find);

test("the broker step runs after the harness's own checks, before drift, with the default selectors and the live secrets", () => {
  const broker = live.steps[at((s) => s.id === 'broker')]!;
  expect(at((s) => s.id === 'broker')).toBeGreaterThan(at((s) => s.id === 'verify'));
  expect(at((s) => s.id === 'broker')).toBeLessThan(at((s) => s.id === 'drift'));
  // It runs whatever verify found: a red night is when the teams most need to know.
  expect(broker.if).toBe('${{ !cancelled() }}');
  expect(broker.run).toContain('npm run pact:verify -- --broker --main-branch --deployed-or-released');
  expect(broker.env?.HARNESS_RUN_NAME).toBe('nightly-broker');
  for (const name of [...LIVE_SECRETS, 'PACT_BROKER_BASE_URL', 'PACT_BROKER_TOKEN']) expect(broker.env?.[name], name).toBe(`\${{ secrets.${name} }}`);
  // Read-only unless sandbox mode: the write flags are the job's (the secrets job's decision), never set here.
  expect(broker.env).not.toHaveProperty('STORE_ALLOW_WRITES');
  expect(live.env.STORE_ALLOW_WRITES).toBe('${{ needs.secrets.outputs.writes }}');
  expect(live.env.HARNESS_TARGET).toBe('live');
  // Without a broker it says so, and the night goes on.
  expect(broker.run).toMatch(/if \[ -z "\$PACT_BROKER_BASE_URL" \]; then[\s\S]*::notice[\s\S]*exit 0/);
});

test('the run summary reads what verify, drift and the broker step wrote, where they write it, before the Allure report is built', () => {
  const summary = live.steps[at((s) => s.name?.startsWith("Who tonight's breaks affect") === true)]!;
  const [command, script, ...args] = summary.run!.replace(/>>.*$/, '').trim().split(/\s+/);
  expect([command, script]).toEqual(['node', 'src/reporting/nightlySummary.ts']);
  const inputs = parseNightlyArgs(args);
  expect(inputs).toEqual({
    verify: 'reports/verify/affected-consumers.json',
    drift: 'reports/drift/drift.json',
    plan: relative(ROOT, planPath('nightly-broker')),
    outcomes: relative(ROOT, outcomesDir('nightly-broker')),
    allure: 'reports/allure-results',
  });
  expect(summary.run).toContain('>> "$GITHUB_STEP_SUMMARY"');
  expect(at((s) => s === summary)).toBeGreaterThan(at((s) => s.id === 'drift'));
  expect(at((s) => s === summary)).toBeLessThan(at((s) => s.name?.startsWith('Allure report') === true));
});
