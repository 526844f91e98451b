/**
 * The kind of finding a test that passed on live still reports, as an Allure
 * label the report's categories sort by (allurerc.ts): a difference from the
 * field notes (drift) or a contract rule the real service is known to break.
 */
import * as allure from 'allure-js-commons';

export const FINDING_LABEL = 'finding';
export type Finding = 'drift' | 'known defect';

/** Labels the running test with what it observed on live. */
export function markFinding(knownDefect: boolean): PromiseLike<void> {
  const finding: Finding = knownDefect ? 'known defect' : 'drift';
  return allure.label(FINDING_LABEL, finding);
}
