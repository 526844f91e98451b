import { requiredScope, type Scope } from '../../../rules/storeScopes.ts';

/** The scope `granted` lacks for this call, if any; undefined `granted` (a control API token) lacks nothing. */
export function missingScope(granted: readonly string[] | undefined, method: string, resource: readonly string[]): Scope | undefined {
  const needed = requiredScope(method, resource);
  return needed !== undefined && granted !== undefined && !granted.includes(needed) ? needed : undefined;
}
