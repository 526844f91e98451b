/**
 * Every error body the field notes quote as the real service's (tests/captured/<api>/errors.json, a copy of the
 * shared fixtures) passed through the schema the suites judge its answer by (src/schemas/contractRoutes.ts): each is
 * taken, or is a field-notes shape where the contract names another (src/schemas/fieldNotesShapes.ts), which a live
 * run observes and the twins may never answer. A test whose write a sandbox refused in that shape is not verified.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { CONTRACT_ROUTES } from '../../../src/schemas/contractRoutes.ts';
import { schemaBreachOf } from '../../../src/schemas/schemaBreaches.ts';
import { refusalInFieldNotesShape, STORE_FIELD_NOTES_SHAPES } from '../../../src/schemas/fieldNotesShapes.ts';

const quoted = (api: 'store' | 'media'): Record<string, unknown> =>
  JSON.parse(readFileSync(`tests/captured/${api}/errors.json`, 'utf8')) as Record<string, unknown>;

/** The request each quoted body answers, as the field notes tell it (status from the quote's name). */
const STORE_REQUESTS: Record<string, string> = {
  '400 invalid json': 'POST /products',
  '400 bad input': 'POST /products',
  '401': 'GET /products',
  '404 missing': 'GET /categories/1',
  '404 null description': 'GET /products/1',
  '404 past last page (observed)': 'GET /products',
  '415': 'POST /products',
  '422 field': 'POST /products',
  '422 image src': 'POST /products/1/images',
  '422 limit': 'POST /categories',
  '422 mixed': 'PUT /products/1/variants/2',
  '422 webhook': 'POST /webhooks',
  '500': 'GET /products',
};
const MEDIA_REQUESTS: Record<string, string> = {
  '404 record not found (captured)': 'GET /anime/0',
  '400 page limit (detail confirmed by a client)': 'GET /anime',
  '400 filter not allowed (server code)': 'GET /anime',
  '400 invalid include (server code)': 'GET /anime',
  '422 validation (detail confirmed by a client)': 'POST /library-entries',
  '403 forbidden (server code)': 'PATCH /library-entries/1',
  '401 invalid token (server code)': 'GET /library-entries',
  '400 custom controller (server code)': 'GET /trending/unknown',
  '404 route not found (server code)': 'GET /no-such-route',
};
const BASES = { store: 'https://api.example.test/v1/123456', media: 'https://media.example.test/api/edge' };

function judged(api: 'store' | 'media', name: string, body: unknown, requests: Record<string, string>) {
  const [method, path] = requests[name]!.split(' ') as [string, string];
  const status = Number(/^\d{3}/.exec(name)![0]);
  return schemaBreachOf(
    {
      request: { method, url: `${BASES[api]}${path}` },
      response: { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    } as never,
    CONTRACT_ROUTES[api],
  );
}

for (const api of ['store', 'media'] as const) {
  test(`${api}: every error body the field notes quote is taken by its route's schema, or is a field-notes shape (an observation on live)`, () => {
    const requests = api === 'store' ? STORE_REQUESTS : MEDIA_REQUESTS;
    const bodies = quoted(api);
    expect(Object.keys(bodies).sort(), 'each quoted body has its request here').toEqual(Object.keys(requests).sort());
    const verdicts = Object.entries(bodies).map(([name, body]) => {
      const breach = judged(api, name, body, requests);
      return [name, breach === undefined ? 'taken' : breach.fieldNotes !== undefined ? 'field-notes shape' : `breach: ${breach.text}`] as const;
    });
    const expected = Object.keys(bodies).map((name) => [name, api === 'store' && name === '422 limit' ? 'field-notes shape' : 'taken'] as const);
    expect(verdicts).toEqual(expected);
  });
}

test("the contract's own 422 shape is still required: a body of neither shape is a breach, not a field-notes shape", () => {
  const breach = judged('store', '422 limit', { code: 422, message: 'Unprocessable Entity', description: 7 }, STORE_REQUESTS);
  expect(breach?.fieldNotes).toBeUndefined();
  expect(breach?.text).toContain('store/error-validation');
});

test('a write refused at a sandbox limit names the request and the limit; any other answer is no such refusal', () => {
  const limit = quoted('store')['422 limit'];
  const exchange = (status: number, body: unknown) => ({
    request: { method: 'POST', url: `${BASES.store}/categories` },
    response: { status, body: JSON.stringify(body) },
  });
  expect(refusalInFieldNotesShape(STORE_FIELD_NOTES_SHAPES, [exchange(201, { id: 1 }), exchange(422, limit)])).toBe(
    'the provider refused POST /v1/123456/categories with 422 "Store has reached maximum limit of 5000 allowed categories", a limit of the sandbox (422 in the {code, message, description} form for a limit of the store (field notes: "Store has reached maximum limit of 5000 allowed categories"); the contract names the field-keys form for an invalid field). Make room in the sandbox (delete what it holds too many of) to verify this test',
  );
  expect(
    refusalInFieldNotesShape(STORE_FIELD_NOTES_SHAPES, [exchange(422, { name: ["can't be blank"] }), exchange(422, quoted('store')['422 mixed'])]),
  ).toBeUndefined();
});
