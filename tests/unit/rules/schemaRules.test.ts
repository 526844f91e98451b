/**
 * Every JSON Schema of the contracts (contracts/<api>/schemas/) opens its
 * description with the rules it serves, by id: `Rules: a, b. Spec: ...`. So a
 * rule's shapes are found from its id, and a renamed rule leaves no schema
 * naming the old id.
 */
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { CATALOGUES, findRule } from '../../../src/rules/catalogues.ts';
import { schemaRegistry } from '../../../src/schemas/schemaRegistry.ts';
import { RULES_LINE } from '../../../src/schemas/schemaRules.ts';

test('every schema description opens with "Rules: " and rules of its own API that the catalogue has', () => {
  const names = schemaRegistry().names;
  expect(names.filter((name) => name.startsWith('media/')).length).toBeGreaterThanOrEqual(26);
  const problems = names.flatMap((name) => {
    const api = name.split('/')[0]!;
    if (!Object.hasOwn(CATALOGUES, api)) return [];
    const description = String(schemaRegistry().entry(name).schema.description ?? '');
    const line = RULES_LINE.exec(description);
    if (!line) return [`${name}: the description does not open with "Rules: <id>, <id>. "`];
    return line[1]!.split(', ').flatMap((id) => {
      if (!findRule(id)) return [`${name}: ${id} is no rule of the catalogue`];
      return id.startsWith(`${api}.`) ? [] : [`${name}: ${id} is a rule of another API`];
    });
  });
  expect(problems).toEqual([]);
});
