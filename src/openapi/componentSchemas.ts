/**
 * The contract's JSON Schemas (contracts/<api>/schemas/) as an OpenAPI
 * document's `components.schemas`: the same schemas the suites validate with,
 * not a second copy. Each file becomes one component named after it
 * (`category.schema.json` → `category`); `$ref`s between files, written
 * against the https://harness.local/contracts/ ids, become
 * `#/components/schemas/<name>...` pointers.
 */
import { schemaRegistry, type SchemaEntry, type SchemaRegistry } from '../schemas/schemaRegistry.ts';
import type { JsonObject } from './document.ts';

/** Every schema file declares it; the document states it once as `jsonSchemaDialect` instead. */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

const COMPONENTS = '#/components/schemas/';

/** `anime-collection` from the registry name `media/anime-collection`. */
function componentName(schemaName: string): string {
  return schemaName.slice(schemaName.indexOf('/') + 1);
}

/** A `$ref` to the component of a registry schema (`store/product`), or to a JSON pointer inside it (`/$defs/language-code`). */
export function schemaRef(schemaName: string, pointer = ''): JsonObject {
  return { $ref: `${COMPONENTS}${componentName(schemaName)}${pointer}` };
}

/** The schemas of `api` (`store`, `media`) as components, in the registry's (sorted) order. */
export function componentSchemas(api: string, registry: SchemaRegistry = schemaRegistry()): Record<string, JsonObject> {
  const entries = registry.names.filter((name) => name.startsWith(`${api}/`)).map((name) => registry.entry(name));
  const componentOfId = new Map(entries.map((entry) => [entry.id, componentName(entry.name)]));
  const components: Record<string, JsonObject> = {};
  for (const entry of entries) {
    if (entry.schema.$schema !== JSON_SCHEMA_DIALECT) {
      throw new Error(`componentSchemas: ${entry.file} is not ${JSON_SCHEMA_DIALECT}, the one dialect the document declares`);
    }
    // $id would make some OpenAPI tools resolve refs against harness.local; $schema is jsonSchemaDialect's job.
    const { $id: _id, $schema: _schema, ...body } = entry.schema;
    components[componentName(entry.name)] = rewriteRefs(body, entry, componentOfId) as JsonObject;
  }
  return components;
}

function rewriteRefs(value: unknown, entry: SchemaEntry, componentOfId: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, entry, componentOfId));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [
      key,
      key === '$ref' && typeof member === 'string' ? componentRef(member, entry, componentOfId) : rewriteRefs(member, entry, componentOfId),
    ]),
  );
}

/** `localized.schema.json#/$defs/language-code` → `#/components/schemas/localized/$defs/language-code`; `#/$defs/x` stays in its own component. */
function componentRef(ref: string, entry: SchemaEntry, componentOfId: ReadonlyMap<string, string>): string {
  const target = new URL(ref, entry.id);
  const pointer = target.hash.slice(1);
  target.hash = '';
  const component = componentOfId.get(target.href);
  if (component === undefined) {
    throw new Error(`componentSchemas: ${entry.file} refers to ${ref}, which is not a schema of the same API. Point the $ref at a file beside it.`);
  }
  if (pointer !== '' && !pointer.startsWith('/')) {
    throw new Error(`componentSchemas: ${entry.file} refers to ${ref} by an anchor; write it as a JSON pointer (#/$defs/...) so the document can follow it.`);
  }
  return `${COMPONENTS}${component}${pointer}`;
}
