/**
 * A schema breach is red in every test whose own rules the schema serves, and otherwise once per run, in the first
 * test that meets it (suites/fixtures/schemaBreachFailure.ts); the rules a schema serves follow its `$ref`s
 * (src/schemas/schemaRules.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { schemaBreachOf, type SchemaBreach } from '../../../src/schemas/schemaBreaches.ts';
import { CONTRACT_ROUTES } from '../../../src/schemas/contractRoutes.ts';
import { rulesNamedBy, rulesServedBy } from '../../../src/schemas/schemaRules.ts';
import {
  breachKey,
  failOnSchemaBreaches,
  folderClaims,
  judgeBreaches,
  SCHEMA_BREACH_SEEN,
  seenNotes,
  type Claim,
} from '../../../suites/fixtures/schemaBreachFailure.ts';

/** The breach of a media answer at `path` (under /api/edge) with `status` and `body`. */
function mediaBreach(path: string, status: number, body: unknown): SchemaBreach {
  const breach = schemaBreachOf(
    {
      request: { method: 'GET', url: `https://kitsu.example/api/edge${path}`, headers: {} },
      response: { status, headers: { 'content-type': 'application/vnd.api+json' }, body: JSON.stringify(body) },
    } as never,
    CONTRACT_ROUTES.media,
  );
  if (!breach) throw new Error(`${path}: no breach`);
  return breach;
}

const errorsNotAnArray = (path: string) => mediaBreach(path, 404, { errors: { title: 'Record not found', status: '404' } });

/** Claims in memory, as folderClaims keeps them on disk. */
function memoryClaims(): Claim {
  const held = new Map<string, string>();
  return (key, holder) => {
    const first = held.get(key);
    if (first === undefined) held.set(key, holder);
    return first;
  };
}

test('a schema serves its own rules and those of every schema it refers to', () => {
  expect(rulesNamedBy('media/error-document')).toEqual(['media.errors.jsonapi-errors', 'media.jsonapi.document-structure']);
  // error-document refers to document, which refers to error: the members of an error object are its rules too.
  expect(rulesServedBy('media/error-document')).toEqual(expect.arrayContaining(['media.errors.jsonapi-errors', 'media.errors.members']));
  expect(rulesServedBy('media/error-document')).not.toContain('media.routes.standard');
  expect(rulesServedBy('media/anime-document')).toContain('media.routes.standard');
});

test('the same fault on two routes has one key; another member or keyword broken is another fault', () => {
  const a = errorsNotAnArray('/anime/0');
  const b = errorsNotAnArray('/no-such-collection');
  expect(breachKey(a)).toBe(breachKey(b));
  const missingErrors = mediaBreach('/anime/0', 404, { meta: {} });
  expect(breachKey(missingErrors)).not.toBe(breachKey(a));
  // Items by position are one member: the second error object's fault is the first's.
  const firstItem = mediaBreach('/anime/0', 404, { errors: [{ title: 1 }, { title: 't' }] });
  const secondItem = mediaBreach('/anime/0', 404, { errors: [{ title: 't' }, { title: 2 }] });
  expect(breachKey(firstItem)).toBe(breachKey(secondItem));
});

test('a fault is red in the first test that meets it, and noted with where it is red in the tests of other rules after it', () => {
  const claims = memoryClaims();
  const first = judgeBreaches([errorsNotAnArray('/anime/0')], ['media.routes.unknown-route-404'], 'first', claims);
  expect(first.map((v) => v.redIn)).toEqual([undefined]);
  const later = judgeBreaches([errorsNotAnArray('/no-such-collection'), errorsNotAnArray('/anime/1')], ['media.writes.validation-422'], 'later', claims);
  expect(later.map((v) => v.redIn)).toEqual(['first', 'first']);
  expect(seenNotes(later)).toEqual([
    '2 answer(s) broke media/error-document as a test before saw (the first: GET /api/edge/no-such-collection (404) breaks media/error-document); red in first',
  ]);
});

test('a test whose own rules the schema serves is red for it however often it was met before', () => {
  const claims = memoryClaims();
  judgeBreaches([errorsNotAnArray('/anime/0')], ['media.routes.standard'], 'first', claims);
  // media.errors.members is error.schema.json's, reached through error-document's $ref.
  for (const own of ['media.errors.jsonapi-errors', 'media.errors.members']) {
    expect(judgeBreaches([errorsNotAnArray('/anime/0')], [own], own, claims).map((v) => v.redIn)).toEqual([undefined]);
  }
});

test('a fault met twice in one test is red there both times, and a new fault is red wherever it is first met', () => {
  const claims = memoryClaims();
  judgeBreaches([errorsNotAnArray('/anime/0')], [], 'first', claims);
  const verdicts = judgeBreaches([mediaBreach('/anime/0', 404, { meta: {} }), mediaBreach('/anime/1', 404, { meta: {} })], [], 'second', claims);
  expect(verdicts.map((v) => v.redIn)).toEqual([undefined, undefined]);
});

test('claims kept in a folder: the first claimant is told nothing, every later one the first', () => {
  const dir = mkdtempSync(join(tmpdir(), 'schema-claims-'));
  try {
    const one = folderClaims(join(dir, 'run'));
    // A second worker of the same run reads the same folder.
    const two = folderClaims(join(dir, 'run'));
    expect(one('media/error-document\n/errors type', 'a › test')).toBeUndefined();
    expect(two('media/error-document\n/errors type', 'another › test')).toBe('a › test');
    expect(two('media/error-document\n(root) required', 'another › test')).toBeUndefined();
    // Another run keeps its own claims.
    expect(folderClaims(join(dir, 'next-run'))('media/error-document\n/errors type', 'x')).toBeUndefined();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// The fixtures' step itself, on this run's claims folder: the first test of other rules to meet a breach is red with
// it, and a later one notes it, naming the first. Serial: the second reads what the first claimed.
test.describe('failOnSchemaBreaches in a run', () => {
  test.describe.configure({ mode: 'serial' });
  // Unique to this run's claims, whatever ran before in it.
  const breach: SchemaBreach = {
    schema: 'media/error-document',
    issues: [{ path: `/errors/x${randomUUID().replaceAll('-', '')}`, message: 'must be array', keyword: 'type', schemaPath: '#/properties/errors/type' }],
    text: 'GET /api/edge/anime/0 (404) breaks media/error-document:\n/errors: must be array',
  };

  test('the first test to meet a breach is red with it, naming the rules of the schema', async () => {
    const failure = await failOnSchemaBreaches(test.info(), [breach]).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(failure).toMatch(/^\[contract schemas\] 1 answer\(s\) seen in this test break the schema of their route:/);
    expect(failure).toContain('media/error-document: media.errors.jsonapi-errors, media.jsonapi.document-structure');
  });

  test('a later test of other rules keeps its verdict and notes where the breach is red', async () => {
    await failOnSchemaBreaches(test.info(), [breach]);
    const notes = test.info().annotations.filter((a) => a.type === SCHEMA_BREACH_SEEN);
    expect(notes.map((a) => a.description)).toEqual([expect.stringMatching(/red in .*the first test to meet a breach is red with it/)]);
  });
});
