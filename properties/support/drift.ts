/**
 * Where a live property puts a difference from a rule that is observed rather
 * than asserted on live (src/testing/ruleTest.ts: field-notes rules, known
 * drift): a `drift` annotation, as the suites record it, instead of a failure.
 */
import type { TestInfo } from '@playwright/test';
import { findRule, type RuleId } from '../../src/rules/catalogues.ts';
import { driftAnnotation, observedOnLive } from '../../src/testing/ruleTest.ts';
import { markFinding } from '../../src/reporting/findings.ts';

export type DriftSink = (ruleId: RuleId, message: string) => void;

export function driftSink(testInfo: TestInfo): DriftSink {
  return (ruleId, message) => {
    testInfo.annotations.push(driftAnnotation(ruleId, message));
    // The sink is synchronous; the label reaches the report before the test ends.
    void markFinding(false);
  };
}

/** Whether a store rule is observed on live (drift) rather than asserted, by the same test as the suites. */
export function isObservedOnLive(ruleId: string): boolean {
  const rule = findRule(ruleId);
  return rule !== undefined && observedOnLive(rule);
}
