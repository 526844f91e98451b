/** Test details naming the rules a property checks, so rule coverage and reports count it. */
import { harnessConfig } from '../../src/config/harnessConfig.ts';
import { CATALOGUES, type RuleId } from '../../src/rules/catalogues.ts';

/**
 * `needsTwin`: what the property needs that only the twin arranges. Tagged @twin-only, and on another target declared
 * skipped with the reason: a skip inside a running test needs a worker (and its arena), and after a failed property
 * Playwright starts a new worker for the rest of its file even when all that rest skips.
 */
export function checksRules(ruleIds: readonly RuleId[], needsTwin?: string): { annotation: { type: string; description: string }[]; tag?: string[] } {
  for (const id of ruleIds) {
    if (!CATALOGUES[id.split('.')[0]!]?.[id]) throw new Error(`properties: no rule ${id} in the catalogue; add it to src/rules before checking it.`);
  }
  const rules = ruleIds.map((id) => ({ type: 'rule', description: id }));
  if (needsTwin === undefined) return { annotation: rules };
  const skip = harnessConfig().target === 'twin' ? [] : [{ type: 'skip', description: `needs the twin: ${needsTwin}; a live service gives no handle on it.` }];
  return { annotation: [...rules, ...skip], tag: ['@twin-only'] };
}
