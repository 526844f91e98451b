/**
 * compareRecordings: a stored and a fresh recording, each copied from the
 * fixtures and edited, compared end to end: the JSON diff (drift/jsonDiff.ts)
 * and how each difference is classified (drift/classify.ts), a contract break
 * or an observation. The schema check of the stored recordings is
 * drift/schemaCheck.test.ts; the written report, driftReport.test.ts.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../../../src/testing/harnessTest.ts';
import type { Interaction } from '../../../src/recording/cassette.ts';
import { compareRecordings } from '../../../src/recording/drift.ts';
import { CRUD, HIDDEN, LIST, LOGS, PRODUCT, driftTrees, edit, findings, interaction, removeDriftTrees } from './drift/driftTrees.ts';

test.afterAll(removeDriftTrees);

test('identical recordings: no findings, every cassette compared', () => {
  const { stored, fresh } = driftTrees();
  const report = compareRecordings(stored, fresh);
  expect(findings(report)).toEqual([]);
  expect(report.contractBreaks).toBe(0);
  expect(report.observations).toBe(0);
  expect(report.storedBreaches).toEqual([]);
  expect(report.apis.map((a) => [a.api, a.compared])).toEqual([
    ['store', 2],
    ['media', 2],
  ]);
});

test('what changes on every run (dates, rate headers, timestamps, ids, unique names) is no drift', () => {
  const { stored, fresh } = driftTrees();
  edit(fresh, CRUD, (c) => {
    // Another run hands out other ids: shift every product and variant id, in bodies and paths alike.
    const shifted = JSON.parse(JSON.stringify(c.interactions).replace(/\b1000010006(\d\d)\b/g, (_, d: string) => `1000010093${d}`)) as Interaction[];
    c.interactions = shifted;
    c.uniqueSeed = 'feedbeef';
    for (const i of c.interactions) {
      i.rawHeaders.date = 'Mon, 01 Jan 2029 00:00:00 GMT';
      i.rawHeaders['x-rate-limit-remaining'] = '3';
      i.rawHeaders['x-rate-limit-reset'] = '123';
      i.rawHeaders['content-length'] = '1';
      const r = i.response as Record<string, unknown> | undefined;
      if (r && typeof r === 'object' && 'created_at' in r) {
        r.created_at = '2029-01-01T00:00:00+0000';
        r.updated_at = '2029-01-01T00:00:01+0000';
        r.name = { es: 'Crud (harness zz9)', pt: 'Crud (harness zz9)', en: 'Crud (harness zz9)' };
      }
    }
  });
  edit(fresh, LOGS, (c) => {
    const i = c.interactions[0]!;
    i.rawHeaders.date = 'Mon, 01 Jan 2029 00:00:00 GMT';
    const data = (i.response as { data: { attributes: Record<string, unknown> }[] }).data;
    for (const d of data) d.attributes.updatedAt = '2029-01-01T00:00:00.000Z';
  });
  const report = compareRecordings(stored, fresh);
  expect(findings(report)).toEqual([]);
});

test('a response field renamed is a contract break naming the route, the field and the schema message', () => {
  const { stored, fresh } = driftTrees();
  edit(fresh, CRUD, (c) => {
    const r = interaction(c, 'GET', PRODUCT, 200).response as Record<string, unknown>;
    r.title = r.name;
    delete r.name;
  });
  const report = compareRecordings(stored, fresh);
  const breaks = findings(report).filter((f) => f.kind === 'contract-break');
  expect(breaks).toHaveLength(1);
  expect(breaks[0]).toMatchObject({
    api: 'store',
    test: 'store.products.crud: read, update and delete one product',
    change: 'field-removed',
    route: 'GET /v1/<store>/products/<id:1>',
    subject: '$.name',
  });
  expect(breaks[0]!.rule).toContain('store/product: /name: required member is missing');
  // The new name is an observation, and both say they look like a rename.
  const added = findings(report).find((f) => f.change === 'field-added');
  expect(added).toMatchObject({ kind: 'observation', subject: '$.title' });
  expect(breaks[0]!.note).toContain('$.title');
  expect(report.apis[0]).toMatchObject({ contractBreaks: 1, observations: 1 });
});

test('a fresh answer that breaks its schema is a contract break even where the stored one was alike', () => {
  const { stored, fresh } = driftTrees();
  for (const root of [stored, fresh]) {
    edit(root, LOGS, (c) => {
      // A JSON:API type is a string.
      (c.interactions[0]!.response as { data: { type: unknown }[] }).data[0]!.type = 42;
    });
  }
  const report = compareRecordings(stored, fresh);
  const breaks = findings(report).filter((f) => f.kind === 'contract-break');
  expect(breaks.length).toBeGreaterThan(0);
  expect(breaks.every((f) => f.change === 'schema' && f.route === 'GET /api/edge/library-entry-logs')).toBe(true);
  expect(breaks.map((f) => f.rule).join('\n')).toContain('media/document');
  // The stored copy breaks it too: reported as a finding about the service as recorded.
  expect(report.storedBreaches.map((b) => b.file)).toEqual([LOGS.replace(/\.raw\.json$/, '')]);
});

test('one change that breaks the schema is one contract break, with every schema message it causes', () => {
  const { stored, fresh } = driftTrees();
  edit(fresh, LOGS, (c) => {
    (c.interactions[0]!.response as { data: { type: unknown }[] }).data[0]!.type = 42;
  });
  const all = findings(compareRecordings(stored, fresh));
  expect(all).toHaveLength(1);
  expect(all[0]).toMatchObject({ kind: 'contract-break', change: 'field-type', subject: '$.data[0].type', route: 'GET /api/edge/library-entry-logs' });
  expect(all[0]!.rule).toContain('media/document: /data/0/type: must be');
  expect(all[0]!.rule).toContain('media/document: /data: must be');
});

test('a contract header dropped is a contract break', () => {
  const { stored, fresh } = driftTrees();
  edit(fresh, LIST, (c) => {
    delete c.interactions[0]!.rawHeaders['x-total-count'];
  });
  const all = findings(compareRecordings(stored, fresh));
  expect(all).toHaveLength(1);
  expect(all[0]).toMatchObject({
    kind: 'contract-break',
    change: 'header-removed',
    subject: 'x-total-count',
    stored: '260',
    route: 'GET /v1/<store>/products?per_page=1',
  });
  expect(all[0]!.rule).toContain('contractHeaders');
});

test('a non-contract header or a value that changes is an observation', () => {
  const { stored, fresh } = driftTrees();
  edit(stored, LIST, (c) => {
    c.interactions[0]!.rawHeaders['x-served-by'] = 'a';
    c.interactions[0]!.rawHeaders['x-old'] = 'gone';
  });
  edit(fresh, LIST, (c) => {
    const i = c.interactions[0]!;
    i.rawHeaders['x-served-by'] = 'b';
    i.rawHeaders['x-cache'] = 'HIT';
    i.rawHeaders['x-main-language'] = 'pt';
    (i.response as { published: boolean }[])[0]!.published = false;
  });
  const all = findings(compareRecordings(stored, fresh));
  expect(all.every((f) => f.kind === 'observation')).toBe(true);
  expect(all.map((f) => [f.change, f.subject])).toEqual([
    ['header-added', 'x-cache'],
    ['header-changed', 'x-main-language'],
    ['header-removed', 'x-old'],
    ['header-changed', 'x-served-by'],
    ['field-value', '$[0].published'],
  ]);
  expect(all.at(-1)).toMatchObject({ stored: 'true', fresh: 'false' });
});

test('a status that moves to another class is a contract break; within its class an observation', () => {
  const { stored, fresh } = driftTrees();
  edit(fresh, CRUD, (c) => {
    interaction(c, 'GET', PRODUCT, 200).status = 404;
    interaction(c, 'PUT', PRODUCT).status = 202;
  });
  const all = findings(compareRecordings(stored, fresh));
  expect(all.map((f) => [f.kind, f.change, f.route, f.stored, f.fresh])).toEqual([
    ['contract-break', 'status', 'GET /v1/<store>/products/<id:1>', '200', '404'],
    ['observation', 'status', 'PUT /v1/<store>/products/<id:1>', '200', '202'],
  ]);
  expect(all[0]!.rule).toBe('the status moved from 2xx to 4xx');
});

test('routes and tests recorded on one side only are reported; a filtered fresh recording compares only its tests', () => {
  const { stored, fresh } = driftTrees();
  rmSync(join(fresh, HIDDEN));
  edit(fresh, CRUD, (c) => {
    const get = interaction(c, 'GET', PRODUCT, 200);
    c.interactions.splice(c.interactions.indexOf(get) + 1, 0, { ...get, path: '/v1/100001/products/100001000687/images' });
    c.interactions = c.interactions.filter((i) => i.status !== 404);
  });
  const all = findings(compareRecordings(stored, fresh));
  expect(all.map((f) => [f.change, f.route ?? f.test, f.interaction])).toEqual([
    ['route-added', 'GET /v1/<store>/products/<id:1>/images', 3],
    ['route-removed', 'DELETE /v1/<store>/products/<id:1>', 5],
    ['cassette-missing', 'media.errors.hidden-404: a record that does not exist', undefined],
  ]);
  expect(all.every((f) => f.kind === 'observation')).toBe(true);
  expect(findings(compareRecordings(stored, fresh, { freshOnly: true })).map((f) => f.change)).toEqual(['route-added', 'route-removed']);
});

test('body differences are listed up to the cap, breaks first, the rest counted', () => {
  const { stored, fresh } = driftTrees();
  edit(fresh, LIST, (c) => {
    const product = (c.interactions[0]!.response as Record<string, unknown>[])[0]!;
    product.name = 7;
    for (const key of ['published', 'free_shipping', 'requires_shipping', 'tags', 'brand', 'seo_title']) product[key] = `changed ${key}`;
  });
  const all = findings(compareRecordings(stored, fresh, { maxFieldDifferences: 3 }));
  expect(all).toHaveLength(4);
  expect(all[0]).toMatchObject({ kind: 'contract-break', change: 'field-type', subject: '$[0].name' });
  expect(all.slice(1, 3).map((f) => [f.kind, f.subject])).toEqual([
    ['observation', '$[0].published'],
    ['observation', '$[0].free_shipping'],
  ]);
  expect(all[3]).toMatchObject({ change: 'fields-omitted', message: '4 more body differences not listed' });
});
