/**
 * Every contract schema's validator, compiled once per content and kept on disk as Ajv's standalone code
 * (`ajv/dist/standalone`): a test worker then loads them in tens of milliseconds instead of compiling them
 * (about half a second). Playwright starts a new worker after every failed test, so a break that fails many
 * tests paid the compile again each time. Keyed by Ajv's version, the options and every schema's text, so an
 * edited schema is compiled afresh. A checkout only: the installed package writes nothing inside node_modules.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { COMPILED, dependencyVersion } from '../config/harnessRoot.ts';

const CACHE_DIR = resolve(import.meta.dirname, '../../node_modules/.cache/ajv-validators');
const load = createRequire(import.meta.url);

/** What the cache needs of a registry: each schema's name, `$id` and body. */
interface Compiled {
  readonly name: string;
  readonly id: string;
  readonly schema: unknown;
}

/** Whether validators are kept on disk here (a checkout), and so whether Ajv must keep their source. */
export const CACHE_VALIDATORS = !COMPILED;

/**
 * The validator of every schema by name: from the cache, or compiled by the registry's Ajv (`compiler`, made
 * with `code.source`) and written there. Undefined when a schema does not compile: the registry then compiles
 * each on its own and names the file at fault.
 */
export function cachedValidators(entries: readonly Compiled[], options: object, compiler: () => Ajv2020): Record<string, ValidateFunction> | undefined {
  const key = createHash('sha256')
    .update(JSON.stringify([dependencyVersion('ajv'), dependencyVersion('ajv-formats'), options, entries.map(({ name, id, schema }) => [name, id, schema])]))
    .digest('hex')
    .slice(0, 24);
  const file = join(CACHE_DIR, `${key}.cjs`);
  if (existsSync(file)) {
    try {
      return load(file) as Record<string, ValidateFunction>;
    } catch {
      // A file cut short by a killed process: compiled again and written anew below.
    }
  }
  let ajv: Ajv2020;
  try {
    ajv = compiler();
    for (const entry of entries) ajv.getSchema(entry.id);
  } catch {
    return undefined;
  }
  const code = standaloneCode.default(ajv, Object.fromEntries(entries.map((entry) => [entry.name, entry.id])));
  mkdirSync(CACHE_DIR, { recursive: true });
  // Written whole, then renamed: workers starting together never read half a file.
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, code);
  renameSync(partial, file);
  return load(file) as Record<string, ValidateFunction>;
}
