/**
 * npm test runs the live-capable store and media tests once: in the recording,
 * against twin processes reached with nothing but URLs and credentials
 * (scripts/gate.ts). Those processes are our twins, so their verdicts are the
 * twins' too, provided the twins were held to what the twins' own run asserts:
 * each such test passed outright, with no observation, known defect, unverified
 * rule or skip. On a real provider those are allowed; on our twin they mean it
 * left its documented choice, or its seed no longer meets a precondition.
 */
import type { CoverageFile, Verification } from './ruleCoverage.ts';
import { NOT_VERIFIED, OBSERVATION } from '../testing/ruleTest.ts';
import type { RunReport } from '../testing/providerBreaks/runReport.ts';

/** What a real provider may show and a twin may not: an observation, a known defect, a rule a test could not verify. */
const LENIENCIES = new Set([OBSERVATION, 'known-defect', NOT_VERIFIED]);

const key = (project: string, title: string) => `${project}\u0000${title}`;

/** The live-capable tests of `projects` the recording verified (read by runReport.ts), and every way the twin processes fell short. */
export function twinProcessVerdicts(report: RunReport, projects: readonly string[]): { verified: Set<string>; problems: string[] } {
  const verified = new Set<string>();
  const problems: string[] = [];
  for (const test of report.tests) {
    if (!projects.includes(test.project) || !test.tags.includes('live-capable') || test.tags.includes('not-recorded')) continue;
    const lenient = test.annotations.filter((a) => LENIENCIES.has(a.type));
    if (test.status !== 'passed') {
      const skip = test.annotations.find((a) => a.type === 'skip')?.description;
      problems.push(`[${test.project}] ${test.title}: ${test.status}${skip ? ` (${skip})` : ''}`);
    } else if (lenient.length > 0) {
      problems.push(`[${test.project}] ${test.title}: ${lenient.map((a) => `${a.type}: ${a.description ?? ''}`).join('; ')}`);
    } else verified.add(key(test.project, test.title));
  }
  return { verified, problems };
}

/**
 * The twins' coverage with the recording's verdicts of the tests it verified on twin processes added,
 * each marked as such in its project ("store, twin process").
 */
export function joinTwinProcessCoverage(twin: CoverageFile, record: CoverageFile, verified: ReadonlySet<string>): CoverageFile {
  const rules: Record<string, Verification[]> = structuredClone(twin.rules);
  for (const [rule, tests] of Object.entries(record.rules))
    for (const t of tests)
      if (verified.has(key(t.project, t.title)) && t.status === 'passed') (rules[rule] ??= []).push({ ...t, project: `${t.project}, twin process` });
  return { target: twin.target, rules };
}
