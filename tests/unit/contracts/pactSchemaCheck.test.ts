/**
 * The pact-to-schema cross-check can fail: the real pacts, each mutated to
 * promise one thing the contract forbids, give a breach naming the interaction.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { PACT_APIS, pactSchemaBreaches, type PactApi } from '../../../contracts/pactSchemaCheck.ts';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const STORE = api('store');
const MEDIA = api('media');

const LIST = 'a request for the first page of products, 30 per page';
const CREATE_LOCALIZED = 'a request to create a product with a localized name';
const CREATE_PLAIN = 'a request to create a product with a plain-string name';
const BLANK_NAME = 'a request to create a product with a blank name';
const ONE_ANIME = 'a request for one anime';
const HIDDEN_ANIME = 'an anonymous request for an adult anime';

interface Interaction {
  description: string;
  request: { path: string };
  response: { body?: { content: unknown; encoded?: unknown } };
}
interface Pact {
  metadata: { pactSpecification: { version: string } };
  interactions: Interaction[];
}

function api(name: string): PactApi {
  const found = PACT_APIS.find((a) => a.name === name);
  if (!found) throw new Error(`no ${name} entry in PACT_APIS`);
  return found;
}

/**
 * A fresh copy of the real pact. In a full run the contracts-publish project
 * may replace contracts/pacts/ files while this project runs, so a file that
 * cannot be read falls back to the committed one.
 */
function realPact(of: PactApi): Pact {
  try {
    return JSON.parse(readFileSync(of.pactFile, 'utf8')) as Pact;
  } catch {
    const committed = execFileSync('git', ['show', `HEAD:${relative(REPO, of.pactFile)}`], { cwd: REPO, encoding: 'utf8' });
    return JSON.parse(committed) as Pact;
  }
}

function interaction(pact: Pact, description: string): Interaction {
  const found = pact.interactions.find((i) => i.description === description);
  if (!found) throw new Error(`the pact has no interaction "${description}": update this test to the pact's interactions`);
  return found;
}

/** The example body of `description`, to mutate in place. */
function content<T>(pact: Pact, description: string): T {
  const body = interaction(pact, description).response.body;
  if (!body) throw new Error(`"${description}" has no response body`);
  return body.content as T;
}

/** Checks `pact`, expects exactly one breach, and returns it. */
function onlyBreach(pact: Pact, of: PactApi): string {
  const { breaches } = pactSchemaBreaches(pact, of.routes);
  expect(breaches, `expected one breach, got:\n${breaches.join('\n\n')}`).toHaveLength(1);
  return breaches[0]!;
}

test.describe('the real pacts', () => {
  test('the store pact, unmodified, breaks no schema, and says which interactions no schema covers', () => {
    const pact = realPact(STORE);
    const report = pactSchemaBreaches(pact, STORE.routes);
    expect(report.breaches).toEqual([]);
    expect(report.checked).toContain(`"${LIST}": GET /v1/100001/products (200)`);
    expect(report.notCovered).toContain(
      '"a request to a suspended store": GET /v1/100001/products (402): no response body and no schema for this route and status',
    );
    // Every interaction is either checked or reported: none passes in silence.
    expect(report.checked.length + report.notCovered.length).toBe(pact.interactions.length);
  });

  test('the media pact, unmodified, breaks no schema', () => {
    const pact = realPact(MEDIA);
    const report = pactSchemaBreaches(pact, MEDIA.routes);
    expect(report.breaches).toEqual([]);
    expect(report.checked).toContain(`"${ONE_ANIME}": GET /api/edge/anime/1 (200)`);
    expect(report.checked.length + report.notCovered.length).toBe(pact.interactions.length);
  });
});

test.describe('a store pact that promises what the contract forbids', () => {
  test('a listed product whose created_at has a colon in its offset breaks store/product-list', () => {
    const pact = realPact(STORE);
    content<Record<string, unknown>[]>(pact, LIST)[0]!.created_at = '2025-01-01T00:00:00+00:00';
    const breach = onlyBreach(pact, STORE);
    expect(breach).toContain(`"${LIST}": GET /v1/100001/products (200) promises a body that breaks store/product-list`);
    expect(breach).toContain('/0/created_at: must match the contract timestamp format YYYY-MM-DDTHH:MM:SS+0000 (got "2025-01-01T00:00:00+00:00")');
  });

  // Not `id: '1'`: store/product leaves id free (the contract shows only a product's name), so that is no breach.
  test('a created product with a camelCase key breaks store/product (attribute keys are snake_case)', () => {
    const pact = realPact(STORE);
    content<Record<string, unknown>>(pact, CREATE_LOCALIZED).createdAt = '2025-01-01T00:00:00+0000';
    const breach = onlyBreach(pact, STORE);
    expect(breach).toContain(`"${CREATE_LOCALIZED}": POST /v1/100001/products (201) promises a body that breaks store/product`);
    expect(breach).toContain('/createdAt: key must match snake_case');
  });

  test('a created product whose name is a plain string, not a localized object, breaks store/product', () => {
    const pact = realPact(STORE);
    content<Record<string, unknown>>(pact, CREATE_PLAIN).name = 'Mochila';
    const breach = onlyBreach(pact, STORE);
    expect(breach).toContain(`"${CREATE_PLAIN}": POST /v1/100001/products (201) promises a body that breaks store/product`);
    expect(breach).toMatch(/\/name: .*\(got string "Mochila"\)/);
  });

  test('a 422 whose field message is a string, not an array of strings, breaks store/error-validation', () => {
    const pact = realPact(STORE);
    content<Record<string, unknown>>(pact, BLANK_NAME).name = "can't be blank";
    expect(onlyBreach(pact, STORE)).toContain(`"${BLANK_NAME}": POST /v1/100001/products (422) promises a body that breaks store/error-validation`);
  });

  test('an encoded body is decoded and checked too', () => {
    const pact = realPact(STORE);
    const body = interaction(pact, CREATE_LOCALIZED).response.body!;
    body.content = Buffer.from(JSON.stringify({ id: 1, name: 'Mochila' })).toString('base64');
    body.encoded = 'base64';
    expect(onlyBreach(pact, STORE)).toContain(`"${CREATE_LOCALIZED}": POST /v1/100001/products (201) promises a body that breaks store/product`);
  });
});

test.describe('a media pact that promises what the contract forbids', () => {
  test('an anime whose id is a number breaks media/anime-document', () => {
    const pact = realPact(MEDIA);
    content<{ data: Record<string, unknown> }>(pact, ONE_ANIME).data.id = 1;
    const breach = onlyBreach(pact, MEDIA);
    expect(breach).toContain(`"${ONE_ANIME}": GET /api/edge/anime/1 (200) promises a body that breaks media/anime-document`);
    expect(breach).toMatch(/\/data\/id: .*\(got number 1\)/);
  });

  test('an error document without errors breaks media/error-document', () => {
    const pact = realPact(MEDIA);
    delete content<Record<string, unknown>>(pact, HIDDEN_ANIME).errors;
    const breach = onlyBreach(pact, MEDIA);
    expect(breach).toContain(`"${HIDDEN_ANIME}": GET /api/edge/anime/7 (404) promises a body that breaks media/error-document`);
    expect(breach).toContain('/errors: required member is missing');
  });
});

test.describe('routes', () => {
  test('the store base path holds any store id, not only the one the pact names', () => {
    const pact = realPact(STORE);
    interaction(pact, CREATE_LOCALIZED).request.path = '/v1/42/products';
    content<Record<string, unknown>>(pact, CREATE_LOCALIZED).name = 'Mochila';
    expect(onlyBreach(pact, STORE)).toContain(`"${CREATE_LOCALIZED}": POST /v1/42/products (201) promises a body that breaks store/product`);
  });

  test('an interaction outside the base path, or without a body where the route has a schema, is reported as not covered', () => {
    const pact = realPact(STORE);
    interaction(pact, LIST).request.path = '/v2/100001/products';
    delete interaction(pact, CREATE_PLAIN).response.body;
    const { notCovered, breaches } = pactSchemaBreaches(pact, STORE.routes);
    expect(breaches).toEqual([]);
    expect(notCovered).toContain(`"${LIST}": GET /v2/100001/products (200): the path is outside the API base path /\\/v1\\/\\d+/`);
    expect(notCovered).toContain(`"${CREATE_PLAIN}": POST /v1/100001/products (201): no response body, though the route has a schema (store/product)`);
  });
});

test.describe('a malformed pact gets a clear error', () => {
  test('a pact with no interactions', () => {
    const pact = { ...realPact(STORE), interactions: [] };
    expect(() => pactSchemaBreaches(pact, STORE.routes)).toThrow(/the pact has no interactions.*run the contracts-consumer project/);
  });

  test('a pact that is not V4', () => {
    const pact = realPact(STORE);
    pact.metadata.pactSpecification.version = '3.0.0';
    expect(() => pactSchemaBreaches(pact, STORE.routes)).toThrow(/not a V4 pact \(metadata.pactSpecification.version is "3.0.0"\).*PactV4/);
  });

  test('something that is not a pact at all', () => {
    expect(() => pactSchemaBreaches([], STORE.routes)).toThrow(/the pact is not a JSON object/);
  });

  test('an interaction without a response status', () => {
    const pact = realPact(MEDIA) as unknown as { interactions: { response: Record<string, unknown> }[] };
    delete pact.interactions[1]!.response.status;
    expect(() => pactSchemaBreaches(pact, MEDIA.routes)).toThrow(/interaction #1 of the pact has no response status/);
  });
});
