/**
 * The nightly's teams' verification (.github/workflows/nightly.yml): a matrix of one job per sandbox, listed by
 * `pact:verify --list-sandboxes`, beside the suites' job; each verifies on live, with the live guards and sandbox
 * mode, and publishes nothing; the merge job lays every job's reports back into one folder, writes who tonight's
 * breaks affect from the files the jobs leave where the code puts them, and publishes every result once.
 */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { LIVE_SECRETS } from '../../../src/ci/workflowRules.ts';
import { outcomesDir } from '../../../contracts/broker/verificationResults.ts';
import { planPath } from '../../../contracts/verification/outsidePacts.ts';
import { RESULTS_TO_PUBLISH } from '../../../contracts/broker/resultsToPublish.ts';

const ROOT = resolve(import.meta.dirname, '../../..');

interface Step {
  id?: string;
  name?: string;
  if?: string;
  run?: string;
  uses?: string;
  with?: Record<string, string | boolean>;
  env?: Record<string, string>;
  'continue-on-error'?: boolean;
}
interface Job {
  needs?: string | string[];
  if?: string;
  env?: Record<string, string>;
  outputs?: Record<string, string>;
  strategy?: { 'fail-fast'?: boolean; matrix: Record<string, string> };
  steps: Step[];
}
const { jobs } = parse(readFileSync(resolve(ROOT, '.github/workflows/nightly.yml'), 'utf8')) as { jobs: Record<string, Job> };
const { sandboxes, teams, suites, merge } = jobs as Record<'sandboxes' | 'teams' | 'suites' | 'merge', Job>;
const at = (job: Job, find: (s: Step) => boolean) => job.steps.findIndex(find);
const named = (job: Job, start: string) => job.steps.find((s) => s.name?.startsWith(start) === true)!;

test('the matrix is listed by pact:verify --list-sandboxes, ids only, and without a broker is empty', () => {
  const list = sandboxes.steps.find((s) => s.id === 'list')!;
  expect(list.run).toContain('npm run --silent pact:verify -- --list-sandboxes');
  // Only a JSON array of ids becomes the output: never a store id or a token.
  expect(list.run).toMatch(/grep -Eqx '\\\[\("\[a-z0-9-\]\+"/);
  expect(list.env?.STORE_TEAM_SANDBOXES).toBe('${{ secrets.STORE_TEAM_SANDBOXES }}');
  expect(list.run).toMatch(/if \[ -z "\$PACT_BROKER_BASE_URL" \]; then[\s\S]*::notice[\s\S]*ids=\[\][\s\S]*exit 0/);
  expect(sandboxes.outputs?.ids).toBe('${{ steps.list.outputs.ids }}');
  // Every id (the merge checks each left its results), those beside the suites, those after them.
  expect(list.run).toContain("for list in ids:'' beside:--beside-suites after:--after-suites; do");
  expect(sandboxes.outputs?.beside).toBe('${{ steps.list.outputs.beside }}');
  expect(sandboxes.outputs?.after).toBe('${{ steps.list.outputs.after }}');
});

test("one job per sandbox, beside the suites' job: every pact the broker selects for it, on live, read-only unless sandbox mode, nothing published", () => {
  expect(teams.needs).toEqual(['secrets', 'sandboxes']);
  expect(suites.needs).toBe('secrets');
  expect(teams.strategy?.matrix.sandbox).toBe('${{ fromJSON(needs.sandboxes.outputs.beside) }}');
  expect(teams.strategy?.['fail-fast']).toBe(false);
  const broker = teams.steps.find((s) => s.id === 'broker')!;
  expect(broker.run).toContain('npm run pact:verify -- --broker --main-branch --deployed-or-released --no-publish --sandbox "$SANDBOX"');
  expect(broker.env?.SANDBOX).toBe('${{ matrix.sandbox }}');
  expect(teams.env?.HARNESS_RUN_NAME).toBe('nightly-broker-${{ matrix.sandbox }}');
  for (const name of [...LIVE_SECRETS, 'PACT_BROKER_BASE_URL', 'PACT_BROKER_TOKEN', 'STORE_TEAM_SANDBOXES'])
    expect(broker.env?.[name], name).toBe(`\${{ secrets.${name} }}`);
  // Read-only unless sandbox mode: the write flags are the job's (the secrets job's decision), never set here.
  expect(broker.env).not.toHaveProperty('STORE_ALLOW_WRITES');
  expect(teams.env?.STORE_ALLOW_WRITES).toBe('${{ needs.secrets.outputs.writes }}');
  expect(teams.env?.HARNESS_TARGET).toBe('live');
  // A team's failed pact (exit 1) warns; a setup the step cannot use fails the job.
  expect(broker.run).toMatch(/if \[ "\$status" = 1 \]; then[\s\S]*::warning[\s\S]*elif \[ "\$status" != 0 \]; then[\s\S]*exit "\$status"/);
});

test("the sandboxes that write where the suites count records follow the suites in their job, as the teams' job runs them", () => {
  const after = suites.steps.find((s) => s.id === 'after')!;
  expect(at(suites, (s) => s.id === 'drift')).toBeLessThan(at(suites, (s) => s === after));
  expect(at(suites, (s) => s === after)).toBeLessThan(at(suites, (s) => s.id === 'leaks'));
  expect(after.run).toContain('npm run --silent pact:verify -- --list-sandboxes --after-suites');
  expect(after.run).toContain(
    'HARNESS_RUN_NAME="nightly-broker-$sandbox" npm run pact:verify -- --broker --main-branch --deployed-or-released --no-publish --sandbox "$sandbox"',
  );
  expect(after.if).toContain('!cancelled()');
  expect(after['continue-on-error']).toBe(true);
  for (const name of ['PACT_BROKER_BASE_URL', 'PACT_BROKER_TOKEN', 'STORE_TEAM_SANDBOXES']) expect(after.env?.[name], name).toBe(`\${{ secrets.${name} }}`);
  expect(suites.outputs?.after).toBe('${{ steps.after.outcome }}');
  expect(named(merge, 'Fail when a check failed').env?.AFTER_SUITES).toBe('${{ needs.suites.outputs.after }}');
});

test('each job uploads its reports/ folder, after the leak check, as a part the merge lays back into one reports/', () => {
  const download = merge.steps.find((s) => s.uses === 'actions/download-artifact@v4')!;
  expect(download.with).toEqual({ pattern: 'nightly-part-*', path: 'reports', 'merge-multiple': true });
  for (const [job, name] of [
    [teams, 'nightly-part-${{ matrix.sandbox }}'],
    [suites, 'nightly-part-suites'],
  ] as const) {
    const upload = job.steps.find((s) => s.uses === 'actions/upload-artifact@v4')!;
    expect(upload.with?.name).toBe(name);
    // One folder: the part's root is reports/, whatever the job wrote in it.
    expect(String(upload.with?.path).split('\n')[0]).toBe('reports');
    expect(upload.if).toContain("steps.leaks.outcome == 'success'");
    expect(at(job, (s) => s.id === 'leaks')).toBeLessThan(at(job, (s) => s === upload));
  }
});

test('the merge runs whatever the jobs found: the summary reads every sandbox run where the code writes it, before the report; then it publishes once', () => {
  expect(merge.needs).toEqual(['secrets', 'sandboxes', 'suites', 'teams']);
  expect(merge.if).toContain('!cancelled()');
  const summary = named(merge, "Who tonight's breaks affect");
  expect(summary.run).toContain('node src/reporting/nightlySummary.ts');
  expect(summary.run).toContain('--verify reports/verify/affected-consumers.json');
  expect(summary.run).toContain('--drift reports/drift/drift.json');
  expect(summary.run).toContain('--allure reports/allure-results');
  // Each sandbox's run folder, as pact:verify names it under HARNESS_RUN_NAME=nightly-broker-<id>.
  expect(summary.run).toContain('for run in reports/pact-verify/nightly-broker-*/; do');
  expect(summary.run).toContain('--plan "${run}plan.json" --outcomes "${run}outcomes"');
  expect(relative(ROOT, planPath('nightly-broker-sandbox-1'))).toBe('reports/pact-verify/nightly-broker-sandbox-1/plan.json');
  expect(relative(ROOT, outcomesDir('nightly-broker-sandbox-1'))).toBe('reports/pact-verify/nightly-broker-sandbox-1/outcomes');
  expect(summary.run).toContain('>> "$GITHUB_STEP_SUMMARY"');
  const report = at(merge, (s) => s.name?.startsWith('Allure report') === true);
  expect(at(merge, (s) => s === summary)).toBeLessThan(report);
  expect(at(merge, (s) => s.name === 'Restore the Allure history')).toBeLessThan(report);
  expect(at(merge, (s) => s.name === 'Save the Allure history')).toBeGreaterThan(report);

  const publish = merge.steps.find((s) => s.id === 'publish')!;
  expect(publish.run).toContain('npm run pact:publish-results -- --from reports/pact-verify --sandboxes "$SANDBOXES"');
  expect(publish.env?.SANDBOXES).toBe('${{ needs.sandboxes.outputs.ids }}');
  expect(RESULTS_TO_PUBLISH).toBe('to-publish.json');
  expect(named(merge, 'One JUnit file').run).toBe("npx jrm reports/nightly-junit.xml 'reports/junit/*.xml'");
  // Every step after the download runs whatever an earlier one did; the last fails the run when a check failed.
  for (const step of merge.steps.slice(at(merge, (s) => s === summary))) expect(step.if ?? '', step.name).toContain('!cancelled()');
  const fail = merge.steps.at(-1)!;
  expect(fail.name).toBe('Fail when a check failed');
  expect(fail.env).toMatchObject({ TEAMS: '${{ needs.teams.result }}', PUBLISH: '${{ steps.publish.outputs.status }}' });
});
