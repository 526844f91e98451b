/**
 * A copy of a pact file with one member of one expected body wrong: the first member of the first object in the first
 * interaction that expects one, renamed to a member the provider does not answer. A matcher on a member's type or
 * value (integer, regex) still needs the member there, so every version's matching refuses it. The package check
 * verifies each tool's pact and such a copy of it: the first must pass, the copy fail with the short account.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The first object under `value` with a member, depth first, and its path. */
function firstObject(value: Json, path: string): { path: string; object: { [key: string]: Json } } | undefined {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = firstObject(item, `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  return Object.keys(value).length > 0 ? { path, object: value } : undefined;
}

/** Makes the member wrong in place; answers the interaction it changed and the member's new path. */
export function oneMemberWrong(pact: { interactions: { description: string; response: { body?: Json } }[] }): { description: string; member: string } {
  for (const interaction of pact.interactions) {
    const body = interaction.response.body;
    // V4 holds the body as {content, contentType, encoded}; the earlier versions as the JSON itself.
    const content = body !== null && typeof body === 'object' && !Array.isArray(body) && 'contentType' in body ? body['content'] : body;
    const found = content === undefined ? undefined : firstObject(content, '$');
    if (!found) continue;
    const [name] = Object.keys(found.object) as [string];
    const renamed = `${name}_not_in_the_answer`;
    // Rebuilt in the same order, the one member renamed.
    const entries = Object.entries(found.object).map(([key, value]) => [key === name ? renamed : key, value] as const);
    for (const key of Object.keys(found.object)) delete found.object[key];
    Object.assign(found.object, Object.fromEntries(entries));
    return { description: interaction.description, member: `${found.path}.${renamed}` };
  }
  throw new Error('no interaction of the pact expects a body with a member to make wrong');
}
