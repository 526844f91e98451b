import type { Rule, RuleCatalogue } from './Rule.ts';
import { MEDIA_RULES, type MediaRuleId } from './mediaRules.ts';
import { STORE_RULES, type StoreRuleId } from './storeRules.ts';

/** Every API's rule catalogue, by the prefix of its rule ids. */
export const CATALOGUES: Readonly<Record<string, RuleCatalogue>> = { store: STORE_RULES, media: MEDIA_RULES };

/** Any rule id of any catalogue: a misspelt id does not compile. */
export type RuleId = StoreRuleId | MediaRuleId;

/** The rule with `id`, or undefined: for ids read at run time (annotations, schema descriptions), which the compiler cannot check. */
export function findRule(id: string): Rule | undefined {
  const catalogue = CATALOGUES[id.split('.')[0]!];
  return catalogue && Object.hasOwn(catalogue, id) ? catalogue[id] : undefined;
}
