/**
 * The rules a contract schema serves. Each schema's description opens with them, `Rules: a, b. Spec: …`
 * (tests/unit/rules/schemaRules.test.ts holds every schema to that), and a schema serves as well the rules of
 * every schema it refers to: an answer that breaks `media/error-document` inside an error object breaks
 * `media/error`'s rules too, and Ajv's issues do not say through which `$ref` they were found.
 */
import { schemaRegistry, type SchemaRegistry } from './schemaRegistry.ts';

/** The opening of a schema's description: the ids of the rules it encodes. */
export const RULES_LINE = /^Rules: ([a-z0-9.-]+(?:, [a-z0-9.-]+)*)\. /;

/** The rule ids the description of `name` opens with; empty when it names none. */
export function rulesNamedBy(name: string, registry: SchemaRegistry = schemaRegistry()): string[] {
  const line = RULES_LINE.exec(String(registry.entry(name).schema.description ?? ''));
  return line ? line[1]!.split(', ') : [];
}

const served = new WeakMap<SchemaRegistry, Map<string, readonly string[]>>();

/** The rules `name` names and those of every schema it refers to, however deep; sorted, each once. */
export function rulesServedBy(name: string, registry: SchemaRegistry = schemaRegistry()): readonly string[] {
  const cache = served.get(registry) ?? new Map<string, readonly string[]>();
  served.set(registry, cache);
  const known = cache.get(name);
  if (known) return known;
  const byId = new Map(registry.names.map((n) => [registry.entry(n).id, n]));
  const rules = new Set<string>();
  const seen = new Set<string>();
  const visit = (schemaName: string): void => {
    if (seen.has(schemaName)) return;
    seen.add(schemaName);
    for (const id of rulesNamedBy(schemaName, registry)) rules.add(id);
    const entry = registry.entry(schemaName);
    for (const ref of refsIn(entry.schema)) {
      // `#/$defs/…` stays in this schema; a file's name resolves against this schema's `$id`.
      if (ref.startsWith('#')) continue;
      const target = byId.get(new URL(ref, entry.id).href.split('#')[0]!);
      if (target) visit(target);
    }
  };
  visit(name);
  const result = [...rules].sort();
  cache.set(name, result);
  return result;
}

/** Every `$ref` value anywhere in a schema. */
function refsIn(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(refsIn);
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) => (key === '$ref' && typeof value === 'string' ? [value] : refsIn(value)));
}
