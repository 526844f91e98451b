/**
 * The kind of finding a test that passed on live still reports, as an Allure
 * label the report's categories sort by (allurerc.ts): an observation (a
 * difference from the field notes, reported, never failed) or a contract rule
 * the real service is known to break (its known defect).
 */
import * as allure from 'allure-js-commons';

export const FINDING_LABEL = 'finding';
export type Finding = 'observation' | 'known defect';

/** Labels the running test with what it observed on live. */
export function markFinding(knownDefect: boolean): PromiseLike<void> {
  const finding: Finding = knownDefect ? 'known defect' : 'observation';
  return allure.label(FINDING_LABEL, finding);
}
