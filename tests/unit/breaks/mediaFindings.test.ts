/**
 * The media breaks of the reviewers' findings change what they say and no
 * more, and the suites' shared checks see each, naming the rule.
 */
import { expect, test } from '../../../src/testing/harnessTest.ts';
import type { ProxiedRequest, ProxiedResponse } from '../../../src/testing/providerBreaks/breakingProxy.ts';
import { MEDIA_BREAKS, type JsonApiDoc } from '../../../src/testing/providerBreaks/mediaBreaks.ts';
import { expectEachResourceOnce, type JsonApiDocument } from '../../../suites/fixtures/mediaChecks.ts';
import { deprecatedRelationshipsOn } from '../../../src/rules/mediaRoutes.ts';

const request = (path: string, method = 'GET', body = ''): ProxiedRequest => ({
  method,
  path,
  headers: { host: '127.0.0.1:9', 'content-type': 'application/vnd.api+json' },
  body: Buffer.from(body),
});
const ok = (doc: unknown): ProxiedResponse => ({ status: 200, headers: { 'content-type': 'application/vnd.api+json' }, body: JSON.stringify(doc) });
const rewritten = (name: string, req: ProxiedRequest, res: ProxiedResponse) => {
  const change = MEDIA_BREAKS[name]!;
  const sent = change.onRequest?.(req, {}, new Map()) ?? req;
  return JSON.parse((change.onResponse?.(res, sent, new Map()) ?? res).body) as JsonApiDoc;
};

const COMPOUND = {
  data: [
    { id: '1', type: 'anime', relationships: { categories: { data: [{ type: 'categories', id: '7' }] } } },
    { id: '2', type: 'anime', relationships: { categories: { data: [{ type: 'categories', id: '7' }] } } },
  ],
  included: [{ id: '7', type: 'categories', attributes: { title: 'Action' } }],
};

test('included-twice repeats one included resource; the shared check names media.jsonapi.included-unique', () => {
  expect(() => expectEachResourceOnce(COMPOUND as JsonApiDocument, 'GET /anime')).not.toThrow();
  const doc = rewritten('included-twice', request('/api/edge/anime?include=categories'), ok(COMPOUND));
  expect(doc.included).toEqual([COMPOUND.included[0], COMPOUND.included[0]]);
  expect(doc.data).toEqual(COMPOUND.data);
  expect(() => expectEachResourceOnce(doc as JsonApiDocument, 'GET /anime')).toThrow(/\[media\.jsonapi\.included-unique\] GET \/anime: .*categories\/7/s);
  // A resource of the primary data repeated under included is a second copy as well.
  const again = { data: COMPOUND.data, included: [...COMPOUND.included, COMPOUND.data[0]] };
  expect(() => expectEachResourceOnce(again as JsonApiDocument, 'GET /anime')).toThrow(/anime\/1/);
  // A document that is not compound is left alone.
  expect(rewritten('included-twice', request('/api/edge/anime'), ok({ data: COMPOUND.data }))).toEqual({ data: COMPOUND.data });
});

test('deprecated-relationships-partly-dropped keeps some of the deprecated relationships of anime and manga and drops the others', () => {
  for (const type of ['anime', 'manga'] as const) {
    const kept = deprecatedRelationshipsOn(type);
    const relationships = Object.fromEntries(['categories', ...kept].map((name) => [name, { links: { related: `x/${name}` } }]));
    const doc = rewritten('deprecated-relationships-partly-dropped', request(`/api/edge/${type}`), ok({ data: [{ id: '1', type, relationships }] }));
    const left = Object.keys((doc.data as { relationships: object }[])[0]!.relationships);
    const dropped = kept.filter((name) => !left.includes(name));
    expect(dropped.length, `${type}: some dropped`).toBeGreaterThan(0);
    expect(dropped.length, `${type}: some kept`).toBeLessThan(kept.length);
    expect(left).toContain('categories');
  }
});

test('update-not-applied turns the PATCH of one library entry into a read of it; other writes pass', () => {
  const change = MEDIA_BREAKS['update-not-applied']!;
  const patch = request('/api/edge/library-entries/12', 'PATCH', '{"data":{"type":"libraryEntries","id":"12","attributes":{"progress":3}}}');
  const sent = change.onRequest!(patch, {}, new Map());
  expect([sent.method, sent.path, sent.body.length]).toEqual(['GET', '/api/edge/library-entries/12', 0]);
  for (const other of [
    request('/api/edge/library-entries/12', 'PUT', '{}'),
    request('/api/edge/library-entries/_bulk?filter%5Bid%5D=1', 'PATCH', '{}'),
    request('/api/edge/library-entries', 'POST', '{}'),
    request('/api/edge/posts/12', 'PATCH', '{}'),
  ]) {
    expect(change.onRequest!(other, {}, new Map()), `${other.method} ${other.path}`).toBe(other);
  }
});
