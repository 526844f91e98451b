import { expect, test } from '../../../src/testing/harnessTest.ts';
import config from '../../../playwright.config.ts';
import { API_PROJECTS, GATE_PROJECTS, GATE_RUNS, projectMatches } from '../../../scripts/lib/gateRuns.ts';
import { GATE_BUDGET } from '../../../bench/gateTime.ts';

const projects = (config.projects ?? []).map((project) => project.name ?? '');

test("npm test's unit and twins' runs together run every project of playwright.config.ts, each once", () => {
  const runsOf = (project: string) => [
    ...(project === 'unit' ? ['gate-unit'] : []),
    ...API_PROJECTS.filter((p) => projectMatches(p, project)).map(() => 'gate-twins'),
  ];
  const problems = projects.filter((project) => runsOf(project).length !== 1).map((project) => `${project}: in ${runsOf(project).join(', ') || 'no run'}`);
  const unmatched = API_PROJECTS.filter((pattern) => !projects.some((project) => projectMatches(pattern, project)));
  expect(problems, 'each project in exactly one of gate-unit and gate-twins').toEqual([]);
  expect(unmatched, 'every pattern names a project').toEqual([]);
  expect(GATE_RUNS).toContain('gate-unit');
});

test("the gate bench's CPU budget was set for the gate's runs and projects as they are", () => {
  expect(
    GATE_BUDGET.projects,
    'the gate runs other runs or projects than bench/gateTime.ts budgeted for: measure the gate (npm run bench -- gate) and update GATE_BUDGET with the new lists',
  ).toEqual(GATE_PROJECTS);
});

test("projectMatches reads a pattern as Playwright's --project does", () => {
  const cases = [
    projectMatches('contracts-*', 'contracts-verify'),
    projectMatches('contracts-*', 'store'),
    projectMatches('Store', 'store'),
    projectMatches('st.re', 'store'),
  ];
  expect(cases).toEqual([true, false, true, false]);
});
