/**
 * Whose fault a red (or noteworthy) test is, as the report's categories: the
 * first category whose matcher fits wins, so the order matters.
 * - a broken contract that affects consumers: a rule failed against a real
 *   (or recorded) provider and some consumer's pact uses what it covers
 *   (affectedAllure.ts): the provider's fault, grouped by those consumers, so
 *   a QA lead sees first whom the night's failures touch;
 * - any other broken contract: a rule, a schema or a pact failed against a
 *   real (or recorded) provider: the provider's fault;
 * - a recording out of step: a replay was asked for a request never recorded;
 * - a known defect of the real service, and an observation: what a real
 *   provider was seen to do beyond the contract, passed as findings
 *   (src/reporting/findings.ts);
 * - a provider unreachable: the tests an outage kept from verifying (skipped
 *   with that reason, src/testing/providerUnreachable.ts): neither the
 *   provider's contract nor the harness's fault;
 * - a broken test: anything else, including any failure on the twins, which
 *   are part of the harness.
 */
import type { AllureConfig } from 'allure';
import { FINDING_LABEL } from './findings.ts';
import { TARGET_LABEL } from './allureMeta.ts';
import { AFFECTED_LABEL, NO_CONSUMER } from './affectedAllure.ts';
import { UNREACHABLE_REASON_START } from '../testing/providerUnreachable.ts';

type CategoryRule = Extract<NonNullable<AllureConfig['categories']>, { rules: unknown }>['rules'][number];
type PredicateMatcher = Extract<NonNullable<CategoryRule['matchers']>, (d: never) => boolean>;
type CategoryMatchingData = Parameters<PredicateMatcher>[0];

/** A failure message that names a rule of the contract, the route schemas, or a pact interaction. */
export const CONTRACT_FAILURE =
  /\[(?:store|media)\.[a-z0-9-]+\.[a-z0-9-]+\]|\[contract schemas\]|breaks the pact interaction|does not hold against the|\d+ contract breaks?\b/;
/** A test an unreachable provider kept from verifying: its skip reason (src/testing/providerUnreachable.ts). */
export const PROVIDER_UNREACHABLE_MESSAGE = new RegExp(`^${UNREACHABLE_REASON_START}\\b`);
/** A replay asked for a request its cassette does not hold. */
export const REPLAY_MISS = /^replay: |ReplayMiss/m;

const RED = ['failed', 'broken'] as const;

function labelOf(d: CategoryMatchingData, name: string): string | undefined {
  return d.labels.find((label) => label.name === name)?.value;
}

/** The provider was a real service, live or recorded from one: not a twin of the harness. */
function againstRealProvider(d: CategoryMatchingData): boolean {
  return labelOf(d, TARGET_LABEL) !== 'twin';
}

/** Red against a real provider, with a message that names a rule, the schemas or a pact. */
function brokenContract(d: CategoryMatchingData): boolean {
  return RED.includes(d.status as (typeof RED)[number]) && againstRealProvider(d) && CONTRACT_FAILURE.test(d.message ?? '');
}

/** Some consumer's pact uses what the failed rule covers (the label affectedAllure.ts writes). */
function affectsConsumers(d: CategoryMatchingData): boolean {
  const consumers = labelOf(d, AFFECTED_LABEL);
  return consumers !== undefined && consumers !== NO_CONSUMER;
}

export const CATEGORY_NAMES = {
  affectsConsumers: "Broken contract that affects consumers (the provider's fault)",
  brokenContract: "Broken contract (the provider's fault)",
  replayMiss: 'Recording out of step with the suites (record again)',
  knownDefect: 'Known defect of the real service',
  observation: 'Observations (live, beyond the contract)',
  providerUnreachable: 'Provider unreachable (an outage, not a verdict)',
  brokenTest: "Broken test (the harness's fault)",
} as const;

export function reportCategories(): CategoryRule[] {
  return [
    {
      id: 'affects-consumers',
      name: CATEGORY_NAMES.affectsConsumers,
      matchers: (d) => brokenContract(d) && affectsConsumers(d),
      // Under the consumers, the failed tests themselves: each message differs (its numbers), a group apiece.
      groupBy: [{ label: AFFECTED_LABEL }],
      groupByMessage: false,
      expand: true,
    },
    {
      id: 'broken-contract',
      name: CATEGORY_NAMES.brokenContract,
      matchers: brokenContract,
      groupBy: [{ label: 'epic' }, { label: 'feature' }],
      expand: true,
    },
    { id: 'replay-miss', name: CATEGORY_NAMES.replayMiss, matchers: { statuses: RED, message: REPLAY_MISS } },
    { id: 'known-defect', name: CATEGORY_NAMES.knownDefect, matchers: { labels: { [FINDING_LABEL]: /^known defect$/ } }, groupBy: [{ label: 'epic' }] },
    { id: 'observation', name: CATEGORY_NAMES.observation, matchers: { labels: { [FINDING_LABEL]: /^observation$/ } }, groupBy: [{ label: 'epic' }] },
    // Skipped, not red: what an outage kept from verifying, by API.
    {
      id: 'provider-unreachable',
      name: CATEGORY_NAMES.providerUnreachable,
      matchers: { statuses: ['skipped'], message: PROVIDER_UNREACHABLE_MESSAGE },
      groupBy: [{ label: 'epic' }],
    },
    { id: 'broken-test', name: CATEGORY_NAMES.brokenTest, matchers: { statuses: RED }, groupByMessage: true },
  ];
}
