/** Test details naming the rules a property checks, so rule coverage and reports count it. */
import { CATALOGUES, type RuleId } from '../../src/rules/catalogues.ts';

export function checksRules(ruleIds: readonly RuleId[], tag?: string): { annotation: { type: string; description: string }[]; tag?: string[] } {
  for (const id of ruleIds) {
    if (!CATALOGUES[id.split('.')[0]!]?.[id]) throw new Error(`properties: no rule ${id} in the catalogue; add it to src/rules before checking it.`);
  }
  return { annotation: ruleIds.map((id) => ({ type: 'rule', description: id })), ...(tag ? { tag: [tag] } : {}) };
}
