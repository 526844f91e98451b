/**
 * One rule of an API's contract: the single source of truth that the twin,
 * the schemas and the suites point at by id.
 */
export interface Rule {
  /** Stable id, `<api>.<area>.<rule>`; tests are named after it. */
  readonly id: string;
  /** What the provider (or, for `client.*` rules, the consumer) must do. */
  readonly text: string;
  /** Heading of the spec section the rule comes from. */
  readonly section: string;
  /**
   * Which kind of expectation it is, and so what a difference means on a real provider:
   * - `contract`: the seed spec says it; it fails on every target.
   * - `reliance`: the contract leaves it open, but the typed clients or the pacts depend
   *   on it (the links they follow, the counts they read, the headers the pacer reads);
   *   it fails on every target, and the pacts state it with matchers. `reliedOnBy` says who.
   * - `field-notes`: the contract says "not shown"; the twin does what the real
   *   service is documented or observed to do (see ASSUMPTIONS.md). On live, record and
   *   replay a difference is an observation: reported (an `observation` annotation), never a
   *   failure. On the twins it holds the twin to its documented choice.
   */
  readonly source: 'contract' | 'reliance' | 'field-notes';
  /** For a `reliance` rule: what in the harness depends on it (a client method, a pact interaction). */
  readonly reliedOnBy?: string;
  /**
   * What checking it needs:
   * - `any`: observable from outside with URLs and credentials, so checked on live too.
   * - `twin`: needs the twin's control API (clock, suspension, faults, webhook
   *   receiver); skipped on live with the reason.
   * - `token`: needs a signed-in user; on live it runs only with an access token.
   */
  readonly needs: 'any' | 'twin' | 'token';
  /** Whether checking it on live creates, changes or deletes data. */
  readonly writes?: boolean;
  /**
   * The known defect of the real service against this contract rule: how the field notes
   * say it does not follow the rule, as an exact predicate. On a real provider an answer
   * that differs in just this way is an observation (annotated, and labelled `known defect`
   * in the report), not a failure; any other difference from the rule still fails, and on
   * the twins nothing is tolerated (see ruleTest.ts `knownDefectSeen`).
   */
  readonly knownDefect?: KnownDefect;
}

/** One documented defect of the real service: how it differs from a contract rule. */
export interface KnownDefect {
  /** How the real service differs, as the field notes say. */
  readonly text: string;
  /** Whether `value` (what the rule's test looked at) differs in exactly this way. */
  readonly matches: (value: unknown) => boolean;
}

/** The kind of a rule as reports name it. */
export function ruleKind(rule: Pick<Rule, 'source'>): 'contract' | 'reliance' | 'field notes' {
  return rule.source === 'contract' ? 'contract' : rule.source === 'reliance' ? 'reliance' : 'field notes';
}

/** Whether a difference from the rule fails a run on every target (contract and reliance rules). */
export function failsOnEveryTarget(rule: Pick<Rule, 'source'>): boolean {
  return rule.source !== 'field-notes';
}

export type RuleCatalogue = Readonly<Record<string, Rule>>;

/** Builds a catalogue keyed by id, refusing duplicates so ids stay stable; its keys are the ids' literal types. */
export function defineRules<const R extends readonly Rule[]>(rules: R): Readonly<Record<R[number]['id'], Rule>> {
  const byId: Record<string, Rule> = {};
  for (const rule of rules) {
    if (byId[rule.id]) throw new Error(`Duplicate rule id ${rule.id} in the rule catalogue`);
    byId[rule.id] = Object.freeze(rule);
  }
  return Object.freeze(byId) as Readonly<Record<R[number]['id'], Rule>>;
}
