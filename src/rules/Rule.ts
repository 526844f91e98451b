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
   * Where the rule comes from:
   * - `spec`: the contract itself; asserted hard on every target.
   * - `field-notes`: the contract says "not shown"; the twin does what the real
   *   service is documented or observed to do (see ASSUMPTIONS.md). On live it is
   *   an observation: reported as drift, never a contract failure.
   */
  readonly source: 'spec' | 'field-notes';
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
   * A contract rule the field notes say the real service does not follow: on
   * live a failure is expected drift (reported, not failed). Says how it differs.
   */
  readonly knownDrift?: string;
}

export type RuleCatalogue = Readonly<Record<string, Rule>>;

/** Builds a catalogue keyed by id, refusing duplicates so ids stay stable. */
export function defineRules(rules: readonly Rule[]): RuleCatalogue {
  const byId: Record<string, Rule> = {};
  for (const rule of rules) {
    if (byId[rule.id]) throw new Error(`Duplicate rule id ${rule.id} in the rule catalogue`);
    byId[rule.id] = Object.freeze(rule);
  }
  return Object.freeze(byId);
}
