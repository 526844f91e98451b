/**
 * What a test does when its provider was unreachable (src/http/providerOutage.ts):
 * it is not verified, with that reason (a skip, never a failure, so no rule is
 * failed and no consumer is named), and it carries the outage's line in a
 * `provider-unreachable` annotation, which the ProviderOutageReporter says once
 * for the run, files in the report's category of its own and fails the run by.
 */
import { outageLine, outageWhat, type Outage } from '../http/providerOutage.ts';

/** The annotation of a test an outage kept from verifying; its description is the outage's line. */
export const PROVIDER_UNREACHABLE = 'provider-unreachable';

/** The words every such skip reason starts with (the report's category matches them). */
export const UNREACHABLE_REASON_START = 'not verified: provider unreachable';

/** The skip reason of a test the outage kept from verifying. */
export function unreachableReason(outage: Outage): string {
  return `${UNREACHABLE_REASON_START}: ${outageWhat(outage)}; an outage, not a verdict`;
}

/** Notes the outage on the test (the annotation the reporter reads) and answers the reason to skip it with. */
export function notVerifiedForOutage(record: { annotations: { type: string; description?: string }[] }, outage: Outage): string {
  const line = outageLine(outage);
  if (!record.annotations.some((a) => a.type === PROVIDER_UNREACHABLE && a.description === line)) {
    record.annotations.push({ type: PROVIDER_UNREACHABLE, description: line });
  }
  return unreachableReason(outage);
}

/** The outage lines a finished test's annotations name. */
export function outageLinesOf(annotations: readonly { type: string; description?: string }[]): string[] {
  return annotations.filter((a) => a.type === PROVIDER_UNREACHABLE && a.description).map((a) => a.description!);
}
