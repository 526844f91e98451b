import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { STORE_CONTRACT } from '../../../src/rules/storeContract.ts';
import { findRule } from '../../../src/rules/catalogues.ts';
import { CONTRACTS_DIR, SCHEMA_ID_BASE, SchemaRegistry, schemaRegistry } from '../../../src/schemas/schemaRegistry.ts';

const STORE_SCHEMAS = [
  'store/category',
  'store/category-list',
  'store/error-invalid-json',
  'store/error-standard',
  'store/error-validation',
  'store/image',
  'store/localized',
  'store/product',
  'store/product-list',
  'store/snake-case-key',
  'store/store',
  'store/timestamp',
  'store/variant',
  'store/webhook',
];

test('loads every contracts/<api>/schemas/*.schema.json under its short name', () => {
  expect(schemaRegistry().names).toEqual(expect.arrayContaining(STORE_SCHEMAS));
  for (const name of STORE_SCHEMAS) {
    const entry = schemaRegistry().entry(name);
    expect(entry.schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(entry.id).toBe(`${SCHEMA_ID_BASE}${name}.schema.json`);
  }
});

test('compiles each schema once: compiling twice returns the same function', () => {
  const registry = schemaRegistry();
  expect(schemaRegistry()).toBe(registry);
  for (const name of registry.names) {
    const first = registry.compile(name);
    expect(typeof first).toBe('function');
    expect(registry.compile(name)).toBe(first);
  }
});

test('an unknown schema name fails with the known names and the fix', () => {
  expect(() => schemaRegistry().compile('store/categry')).toThrow(
    /no schema named 'store\/categry'\. Known: .*store\/category.*add contracts\/store\/schemas\/categry\.schema\.json/,
  );
});

test.describe('the loader is generic over APIs', () => {
  let dir: string;
  test.beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'contracts-'));
    cpSync(join(CONTRACTS_DIR, 'store'), join(dir, 'store'), { recursive: true });
    mkdirSync(join(dir, 'media', 'schemas'), { recursive: true });
  });
  test.afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('a new contracts/<api>/schemas/ folder is picked up, $refs across APIs included', () => {
    writeFileSync(
      join(dir, 'media', 'schemas', 'event.schema.json'),
      JSON.stringify({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: `${SCHEMA_ID_BASE}media/event.schema.json`,
        type: 'object',
        required: ['at'],
        properties: { at: { $ref: '../store/timestamp.schema.json' } },
      }),
    );
    const registry = SchemaRegistry.load(dir);
    expect(registry.names).toContain('media/event');
    const validateEvent = registry.compile('media/event');
    expect(validateEvent({ at: '2012-02-19T17:34:36+0000' })).toBe(true);
    expect(validateEvent({ at: '2012-02-19T17:34:36+00:00' })).toBe(false);
  });

  test('a schema whose $id does not match its file is refused, naming the file and the expected $id', () => {
    writeFileSync(
      join(dir, 'media', 'schemas', 'event.schema.json'),
      JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'https://elsewhere/event.json', type: 'object' }),
    );
    expect(() => SchemaRegistry.load(dir)).toThrow(/event\.schema\.json must have "\$id": "https:\/\/harness\.local\/contracts\/media\/event\.schema\.json"/);
  });

  test('strict mode is on: an unknown keyword is refused at load', () => {
    writeFileSync(
      join(dir, 'media', 'schemas', 'event.schema.json'),
      JSON.stringify({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: `${SCHEMA_ID_BASE}media/event.schema.json`,
        type: 'object',
        requried: ['at'],
      }),
    );
    expect(() => SchemaRegistry.load(dir)).toThrow(/event\.schema\.json does not compile in strict mode: .*requried/);
    // Compiled on use (what the suites' shared registry does), the other schemas work and the same error comes at first use.
    const onUse = SchemaRegistry.load(dir, 'on-use');
    expect(onUse.compile('store/timestamp')('2012-02-19T17:34:36+0000')).toBe(true);
    expect(() => onUse.compile('media/event')).toThrow(/event\.schema\.json does not compile in strict mode: .*requried/);
  });
});

test('store.timestamps.format: the timestamp schema holds the same pattern as STORE_CONTRACT.timestampPattern', () => {
  expect(schemaRegistry().entry('store/timestamp').schema.pattern).toBe(STORE_CONTRACT.timestampPattern.source);
});

test('every store schema names the rules (existing ids) and the spec section it encodes', () => {
  for (const name of STORE_SCHEMAS) {
    const description = String(schemaRegistry().entry(name).schema.description);
    const ids = description.match(/\bstore\.[a-z0-9-]+\.[a-z0-9-]+/g) ?? [];
    expect(ids.length, `${name} names no rule id`).toBeGreaterThan(0);
    for (const id of ids) expect(findRule(id), `${name} names unknown rule ${id}`).toBeDefined();
    expect(description, `${name} names no spec section`).toMatch(/Spec: /);
  }
});
