/**
 * Where a live property puts a difference from a rule that is observed rather
 * than asserted on live (src/testing/ruleTest.ts: field-notes rules, known
 * defects): an `observation` annotation, as the suites record it, instead of a failure.
 */
import type { TestInfo } from '@playwright/test';
import { findRule, type RuleId } from '../../src/rules/catalogues.ts';
import { observationAnnotation, observedOnLive } from '../../src/testing/ruleTest.ts';
import { markFinding } from '../../src/reporting/findings.ts';

export type ObservationSink = (ruleId: RuleId, message: string) => void;

export function observationSink(testInfo: TestInfo): ObservationSink {
  return (ruleId, message) => {
    testInfo.annotations.push(observationAnnotation(ruleId, message));
    // The sink is synchronous; the label reaches the report before the test ends.
    void markFinding(false);
  };
}

/** Whether a store rule is observed on live (an observation, not a failure) rather than asserted, by the same test as the suites. */
export function isObservedOnLive(ruleId: string): boolean {
  const rule = findRule(ruleId);
  return rule !== undefined && observedOnLive(rule);
}
