import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import type { Ajv2020, AnySchemaObject, ValidateFunction } from 'ajv/dist/2020.js';
import type ajvFormats from 'ajv-formats';
import { CACHE_VALIDATORS, cachedValidators } from './validatorCache.ts';

/** Where the contracts live: `contracts/<api>/schemas/<name>.schema.json`. */
export const CONTRACTS_DIR = fileURLToPath(new URL('../../contracts/', import.meta.url));

/** Every schema's `$id` is this base + `<api>/<name>.schema.json`, so `$ref`s between files stay relative. */
export const SCHEMA_ID_BASE = 'https://harness.local/contracts/';

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';
const SCHEMA_FILE = /^([a-z0-9-]+)\.schema\.json$/;

/** One schema file as loaded: its short name (`store/category`), file, `$id` and body. */
export interface SchemaEntry {
  readonly name: string;
  readonly file: string;
  readonly id: string;
  readonly schema: AnySchemaObject;
}

const AJV_OPTIONS = { strict: true, allErrors: true, verbose: true } as const;

/** When a loaded registry compiles its schemas: all at load (a schema that does not compile fails the load), or each on first use. */
export type CompileWhen = 'at-load' | 'on-use';

/**
 * Every JSON Schema under `contracts/<api>/schemas/`, loaded and compiled with
 * Ajv (draft 2020-12, ajv-formats, strict mode, all errors, verbose errors so
 * that validate.ts can say what value failed and against which titled schema).
 *
 * Generic over APIs: a new `contracts/<api>/schemas/` folder is picked up with no
 * change here. Schemas are named `<api>/<file name without .schema.json>`.
 */
export class SchemaRegistry {
  /**
   * Reads every schema under `contractsDir` and compiles them `when` asked; throws naming the file at fault.
   * In a checkout the validators come from a disk cache of Ajv's standalone code (validatorCache.ts): compiling
   * all 41 takes half a second, which every test worker, and every worker after a failed test, would pay.
   */
  static load(contractsDir: string = CONTRACTS_DIR, when: CompileWhen = 'at-load'): SchemaRegistry {
    const registry = new SchemaRegistry(readSchemaFiles(contractsDir));
    if (when === 'at-load') for (const name of registry.names) registry.compile(name);
    return registry;
  }

  /** Short names of every loaded schema, sorted: `store/category`, `store/product`, ... */
  readonly names: readonly string[];
  readonly #entries: ReadonlyMap<string, SchemaEntry>;
  /** Made when a validator is not in the cache: Ajv's own start compiles the draft 2020-12 meta-schema. */
  #ajv: Ajv2020 | undefined;
  readonly #compiled = new Map<string, ValidateFunction>();
  /** Every validator at once, from the disk cache (validatorCache.ts); undefined until first asked, false when not cached. */
  #cached: Record<string, ValidateFunction> | false | undefined;

  private constructor(entries: readonly SchemaEntry[]) {
    this.#entries = new Map(entries.map((entry) => [entry.name, entry]));
    this.names = [...this.#entries.keys()].sort();
  }

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  /** The compiled validator of `name` (compiled once; every call returns the same function). */
  compile(name: string): ValidateFunction {
    const known = this.#compiled.get(name);
    if (known) return known;
    const entry = this.entry(name);
    this.#cached ??= (CACHE_VALIDATORS && cachedValidators([...this.#entries.values()], AJV_OPTIONS, () => this.#compiler())) || false;
    let validator: ValidateFunction | undefined = this.#cached ? this.#cached[name] : undefined;
    if (validator) {
      this.#compiled.set(name, validator);
      return validator;
    }
    try {
      validator = this.#compiler().getSchema(entry.id);
    } catch (error) {
      throw new Error(
        `schemaRegistry: ${entry.file} does not compile in strict mode: ${(error as Error).message}. ` +
          'Fix the schema (unknown keywords, missing "type", unresolved $ref).',
        { cause: error },
      );
    }
    if (!validator) throw new Error(`schemaRegistry: ${entry.file} compiled to nothing (id ${entry.id})`);
    this.#compiled.set(name, validator);
    return validator;
  }

  /** Ajv with every schema added (each checked against the draft 2020-12 meta-schema); throws naming the file at fault. */
  #compiler(): Ajv2020 {
    if (this.#ajv) return this.#ajv;
    // Loaded here, not imported: a worker whose validators come from the cache never needs Ajv's compiler.
    const load = createRequire(import.meta.url);
    const { Ajv2020 } = load('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    const addFormats = load('ajv-formats') as typeof ajvFormats;
    const ajv = new Ajv2020({ ...AJV_OPTIONS, ...(CACHE_VALIDATORS ? { code: { source: true } } : {}) });
    addFormats.default(ajv);
    for (const entry of this.#entries.values()) {
      try {
        ajv.addSchema(entry.schema);
      } catch (error) {
        throw new Error(`schemaRegistry: ${entry.file} could not be added: ${(error as Error).message}`, { cause: error });
      }
    }
    this.#ajv = ajv;
    return ajv;
  }

  /** The loaded entry (file, `$id`, schema body) of `name`. */
  entry(name: string): SchemaEntry {
    const entry = this.#entries.get(name);
    if (!entry) throw this.#unknown(name);
    return entry;
  }

  #unknown(name: string): Error {
    const [api = '<api>', file = '<name>'] = name.split('/');
    return new Error(
      `schemaRegistry: no schema named '${name}'. Known: ${this.names.join(', ')}. ` +
        `Use one of these names, or add contracts/${api}/schemas/${file}.schema.json.`,
    );
  }
}

let shared: SchemaRegistry | undefined;

/**
 * The registry of the repo's contracts, loaded on first use and then shared; each schema is compiled
 * when first asked for. That every one compiles is the registry's own test (schemaRegistry.test.ts).
 */
export function schemaRegistry(): SchemaRegistry {
  shared ??= SchemaRegistry.load(CONTRACTS_DIR, 'on-use');
  return shared;
}

function readSchemaFiles(contractsDir: string): SchemaEntry[] {
  if (!existsSync(contractsDir)) {
    throw new Error(`schemaRegistry: contracts folder ${contractsDir} does not exist. Point SchemaRegistry.load at the repo's contracts/ folder.`);
  }
  const entries: SchemaEntry[] = [];
  const apis = readdirSync(contractsDir, { withFileTypes: true })
    .filter((dirent) => dirent.isDirectory())
    .map((dirent) => dirent.name)
    .sort();
  for (const api of apis) {
    const schemasDir = join(contractsDir, api, 'schemas');
    if (!existsSync(schemasDir)) continue;
    for (const fileName of readdirSync(schemasDir).sort()) {
      if (!fileName.endsWith('.schema.json')) continue;
      const file = join(schemasDir, fileName);
      const match = SCHEMA_FILE.exec(fileName);
      if (!match) throw new Error(`schemaRegistry: ${file}: name schema files in kebab-case, <name>.schema.json`);
      entries.push(readSchemaFile(file, api, match[1] as string));
    }
  }
  return entries;
}

function readSchemaFile(file: string, api: string, baseName: string): SchemaEntry {
  let schema: unknown;
  try {
    schema = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`schemaRegistry: ${file} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new Error(`schemaRegistry: ${file} must hold a JSON Schema object`);
  }
  const body = schema as AnySchemaObject;
  if (body.$schema !== DRAFT_2020_12) {
    throw new Error(`schemaRegistry: ${file} must declare "$schema": "${DRAFT_2020_12}" (found ${JSON.stringify(body.$schema)})`);
  }
  const id = `${SCHEMA_ID_BASE}${api}/${baseName}.schema.json`;
  if (body.$id !== id) {
    throw new Error(`schemaRegistry: ${file} must have "$id": "${id}" so that its name and relative $refs stay stable (found ${JSON.stringify(body.$id)})`);
  }
  return { name: `${api}/${baseName}`, file, id, schema: body };
}
